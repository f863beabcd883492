"""One move applied: the dispatch from a legal move code to the rules that carry it out.

The caller has checked the move (`legality.checked_code` or `Game.make_move`); `ev` collects
events, or is None on the event-free path of simulations.
"""

from __future__ import annotations

from . import events as E
from . import moves as M
from .cards import COLORS
from .drawing import catch, draw_turn
from .moves import ACCEPT, CALL_UNO, CATCH, CHALLENGE, COLOR, DRAW, KEEP, PASS, PLAY_UNO, TARGET
from .resolve import challenge, continue_card, play, someone_out, swap, take_penalty
from .rounds import blocked_winner, end_round, next_round, note_position
from .scoring import RoundEnd
from .state import PLAY, GameState
from .turns import close_uno_window, start_turn


def perform(g: GameState, player: int, code: int, ev: list[E.Event] | None) -> None:
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
    if not g.pile and g.decision is PLAY:
        note_position(g, ev)


def _simple(g: GameState, player: int, code: int, ev: list[E.Event] | None) -> None:
    if code >= COLOR:
        g.color_index = code - COLOR
        if ev is not None:
            ev.append(E.ColorChosen(player, COLORS[code - COLOR]))
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
