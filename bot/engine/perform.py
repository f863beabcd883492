"""One move applied: the check of a move code against the legal moves, and the dispatch to the
rules that carry it out.

`make_move` is the one way in, for the bot (`Game.apply`, with events) and for simulations
(`Game.make_move`, without): a call less per move is worth having in a playout. `ev` collects
events, or is None on the event-free path of simulations.
"""

from __future__ import annotations

from . import events as E
from . import move_codes as M
from .cards import COLORS, DARK_COLORS
from .drawing import catch, draw_turn
from .errors import IllegalAction
from .legality import default_action, legal_moves
from .move_codes import (
    ACCEPT,
    CALL_UNO,
    CATCH,
    CHALLENGE,
    COLOR,
    DRAW,
    KEEP,
    PASS,
    PLAY_UNO,
    TARGET,
    code_of,
)
from .resolve import challenge, continue_card, play, someone_out, swap, take_penalty
from .rounds import blocked_winner, end_round, next_round, note_position, unseat
from .scoring import RoundEnd
from .state import (
    CHOOSE_COLOR,
    CHOOSE_TARGET,
    MATCH_OVER,
    NEXT_ROUND,
    PLAY,
    RESPOND,
    GameState,
)
from .turns import close_uno_window, start_turn


def make_move(g: GameState, player: int, code: int, ev: list[E.Event] | None = None) -> int | None:
    """Apply the move `code` for `player`, add one to `version`, and return who must decide
    next (None when the round or the match is over).

    Raises `IllegalAction` for a code that is not in `legal_moves(g, player)`; the game is then
    unchanged (the bot has already explained the refusal: `legality.checked_code`).
    """
    legal = g.legal if g.legal_for == player else legal_moves(g, player)
    if code not in legal:
        raise IllegalAction("not_now", action=str(code), decision=g.decision.value)
    g.legal_for = None
    if code < DRAW:
        if g.at_risk:
            close_uno_window(g)
        if code < PLAY_UNO:
            play(g, player, code, False, ev)
        else:
            play(g, player, code - PLAY_UNO, True, ev)
    elif code == DRAW:
        g.jump_open = False
        if g.at_risk:  # (`close_uno_window`, written out)
            g.at_risk.clear()
        draw_turn(g, player, ev)
    elif code < TARGET:
        _simple(g, player, code, ev)
    elif code < CATCH:
        target = g.seats[code - TARGET]
        swap(g, player, target, ev)
        if not someone_out(g, ev):
            continue_card(g, ev)
    else:
        catch(g, player, g.seats[code - CATCH], ev)
    if g.knocked_out:
        settle_knockouts(g, ev)
    decision = g.decision
    if not g.pile and decision is PLAY:
        note_position(g, ev)
        decision = g.decision
    g.version += 1
    if decision is NEXT_ROUND or decision is MATCH_OVER:
        return None
    return g.seats[g.turn]


def settle_knockouts(g: GameState, ev: list[E.Event] | None) -> None:
    """The mercy rule at the end of a move: whoever was knocked out leaves the round, their
    hand face down under the draw pile (as a leaver's), and the turn goes on without them;
    when one player is left, they win the round (docs/playing.md). A knocked-out player who
    still owes a decision (a colour, a target, an answer) makes it first, as a timeout would."""
    for p in g.knocked_out:
        decision = g.decision
        if decision is NEXT_ROUND or decision is MATCH_OVER:
            return
        if p not in g.held:
            continue
        if g.seats[g.turn] == p and decision in (CHOOSE_COLOR, CHOOSE_TARGET, RESPOND):
            owed = default_action(g, p)
            assert owed is not None
            make_move(g, p, code_of(owed, g.seats), ev)  # (settles this player, then returns)
            continue
        cards = g.held[p].size
        unseat(g, p, ev)
        if ev is not None:
            ev.append(E.PlayerKnockedOut(p, cards))
        if len(g.seats) == 1:
            # The last one left wins, even one who reached the limit by the same move (the
            # knocked out leave in the order they reached it).
            last = g.seats[0]
            if last in g.knocked_out:
                g.knocked_out.remove(last)
            end_round(g, last, RoundEnd.LAST_STANDING, ev)
            return


def _simple(g: GameState, player: int, code: int, ev: list[E.Event] | None) -> None:
    if code >= COLOR:
        g.color_index = code - COLOR
        if ev is not None:
            ev.append(E.ColorChosen(player, (DARK_COLORS if g.side else COLORS)[code - COLOR]))
        continue_card(g, ev)
    elif code == KEEP:
        g.jump_open = False
        if ev is not None:
            ev.append(E.DrawnCardKept(player))
        start_turn(g, g.next_seat(g.turn), ev)
    elif code == PASS:
        g.jump_open = False
        close_uno_window(g)
        if ev is not None:
            ev.append(E.TurnPassed(player))
        g.passes += 1
        if g.passes >= len(g.seats):
            end_round(g, blocked_winner(g), RoundEnd.BLOCKED, ev)
        else:
            start_turn(g, g.next_seat(g.turn), ev)
    elif code == ACCEPT:
        g.jump_open = False
        close_uno_window(g)
        take_penalty(g, g.turn, ev)
    elif code == CHALLENGE:
        g.jump_open = False
        close_uno_window(g)
        challenge(g, player, ev)
    elif code == CALL_UNO:
        g.at_risk.remove(player)
        if ev is not None:
            ev.append(E.UnoCalled(player))
    elif code == M.NEXT_ROUND:
        next_round(g, ev)
