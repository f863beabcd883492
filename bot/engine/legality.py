"""Legality: what a player may do now, as a query, and why anything else is refused.

On a normal turn the playable faces are `hand.mask & MATCH[top * 5 + colour]`, plus the Wild
Draw Four when its rule allows it; the rest of this module turns masks into `Action` values and
refusals into typed errors (`IllegalAction`, `NotYourTurn`, ...).
"""

from __future__ import annotations

from . import actions as A
from . import move_codes as M
from .cards import COLORS, Color
from .errors import GameOver, IllegalAction, NotInGame, NotYourTurn
from .faces import (
    BIT,
    CHALLENGED_WILDS,
    COLOR_MASK,
    COLOR_OF,
    D2_MASK,
    DRAW_VALUE,
    FACES,
    IS_NUMBER,
    IS_WILD,
    MATCH,
    NO_COLOR,
    NUMBER_MASK,
    RANK_MASK,
    RANK_OF,
    SIDE_COLORS,
    SKIP_REVERSE_MASK,
    STACKS_ON,
    faces_of,
)
from .hand import Hand
from .move_codes import DRAW, KEEP, PASS, PLAY_UNO, action_of, code_of
from .state import CHOOSE_COLOR, CHOOSE_TARGET, MATCH_OVER, NEXT_ROUND, PLAY, PLAY_DRAWN, GameState


def wd4_allowed(g: GameState, hand: Hand) -> bool:
    """The Wild Draw Four rule itself (RULES.md section 3, `wd4_rule`), judged on `hand`; UNO
    Flip's Wild Draw Two and Wild Draw Colour follow it too (faces.CHALLENGED_WILDS)."""
    rule = g.rules.wd4_rule
    if rule == "color":
        return not hand.mask & COLOR_MASK[g.color_index]
    if rule == "no_playable":
        return not hand.mask & MATCH[g.discards[-1] * 5 + g.color_index]
    return True


def is_playable(g: GameState, face: int, hand: Hand, *, drawn: bool = False) -> bool:
    """Whether `face` (held in `hand`) may be played on the top card on a normal turn.

    A Wild Draw Four from the hand may be a bluff while a challenge can catch it (RULES.md
    section 3); a card just drawn is judged by the Wild Draw Four rule itself (case 22).
    """
    rules = g.rules
    if hand.size == 1 and not rules.go_out_on_action and not IS_NUMBER[face]:
        return False
    bit = BIT[face]
    if bit & CHALLENGED_WILDS:
        if rules.challenge_possible and not drawn:
            return True
        return wd4_allowed(g, hand)
    return bool(MATCH[g.discards[-1] * 5 + g.color_index] & bit)


def playable_mask(g: GameState, hand: Hand) -> int:
    """The faces of `hand` playable on a normal turn (the caller checked it is that turn)."""
    mask = hand.mask
    rules = g.rules
    if hand.size == 1 and not rules.go_out_on_action and not mask & NUMBER_MASK:
        return 0
    out = mask & MATCH[g.discards[-1] * 5 + g.color_index]
    challenged = mask & CHALLENGED_WILDS
    if challenged and (rules.challenge_possible or wd4_allowed(g, hand)):
        out |= challenged
    return out


def playable_on_top(g: GameState, hand: Hand) -> int:
    """Every face (held or not) that `hand` could play now: what a player who draws instead
    is believed not to hold."""
    out = MATCH[g.discards[-1] * 5 + g.color_index]
    if g.rules.wd4_challenge or wd4_allowed(g, hand):  # (`challenge_possible`, as in legal_moves)
        out |= CHALLENGED_WILDS
    return out


def playable_faces(g: GameState, player: int) -> list[int]:
    """Distinct faces `player` may play now on their turn (empty when it is not their turn)."""
    if g.decision is not PLAY or g.seats[g.turn] != player:
        return []
    return faces_of(playable_mask(g, g.held[player]))


def response_mask(g: GameState, player: int) -> int:
    """Faces that stack on or deflect the pending penalty.

    Stacking `same` adds the same card; `mixed` any draw card worth as much or more, whatever
    its colour (on a Draw Two: a Draw Two or a Wild Draw Four; on a Wild Draw Four: another;
    Show 'Em No Mercy's rule with its Draw Four, Six and Ten), compared with the last draw
    card of the stack. Under `stack_deflect` a Skip or Reverse of the active colour passes it
    on; Colour Roulette never answers a stack (docs/playing.md)."""
    hand = g.held[player]
    rules = g.rules
    if hand.size == 1 and not rules.go_out_on_action:
        return 0
    kind = g.penalty_kind
    if kind == "D":  # (the usual kinds first: a Draw Two's, then a Wild Draw Four's)
        allowed = D2_MASK if rules.deflect_d2 else 0
    elif kind == "W4":
        allowed = D2_MASK & COLOR_MASK[g.color_index] if rules.deflect_wd4 else 0
    elif kind == "S":
        return hand.mask & BIT[g.discards[-1]]
    else:
        allowed = 0
    stacking = rules.stacking
    if stacking != "off":
        allowed |= _stackable(g, stacking == "mixed")
    if rules.stack_deflect:
        allowed |= SKIP_REVERSE_MASK & COLOR_MASK[g.color_index]
    return hand.mask & allowed


def _stackable(g: GameState, mixed: bool) -> int:
    """The draw cards that stack on the stack's last draw card (`mixed`: any worth as much or
    more; else the same rank)."""
    top = g.discards[-1]
    if not DRAW_VALUE[RANK_OF[top]]:  # (deflected: the last draw card under the deflectors)
        top = next((f for f in reversed(g.discards) if DRAW_VALUE[RANK_OF[f]]), -1)
    if top < 0:  # (the discards turned over since: any draw card, or none the same)
        return STACKS_ON[1] if mixed else 0
    rank = RANK_OF[top]
    return STACKS_ON[DRAW_VALUE[rank]] if mixed else RANK_MASK[rank]


_CHALLENGEABLE = ("W4", "WDC")


def can_challenge(g: GameState) -> bool:
    """A challengeable wild's penalty is pending: a Wild Draw Four or Flip's Wild Draw Two
    ("W4"), or Flip's Wild Draw Colour ("WDC")."""
    return (
        g.penalty_kind in _CHALLENGEABLE
        and g.rules.challenge_possible
        and g.wd4_record is not None
        and g.wd4_record[0] in g.seats
    )


def jump_in_mask(g: GameState, player: int) -> int:
    if (
        not g.rules.jump_in
        or g.decision is not PLAY
        or g.seats[g.turn] == player
        or g.penalty
        or not g.jump_open
    ):
        return 0
    top = g.discards[-1]
    if IS_WILD[top]:
        return 0
    hand = g.held[player]
    if not hand.mask & BIT[top] or (
        hand.size == 1 and not g.rules.go_out_on_action and not IS_NUMBER[top]
    ):
        return 0
    return BIT[top]


def legal_moves(g: GameState, player: int) -> tuple[int, ...]:
    """Everything `player` may do right now, as move codes (move_codes.py); `Leave` is not listed.

    Remembered until the state changes (`GameState.legal`): a simulation asks for the moves and
    then checks its move against them. The check of that memory is in here rather than in a
    wrapper, which would cost a call per move.
    """
    if g.legal_for == player:
        return g.legal
    decision = g.decision
    if decision is PLAY and g.seats[g.turn] == player:
        # The hot path of every simulation: one AND, then the answer for that mask and hand
        # size from `_PLAYS_OR_DRAW` (the same masks keep coming back).
        hand = g.held[player]
        mask = hand.mask
        rules = g.rules
        if hand.size == 1 and not rules.go_out_on_action and not mask & NUMBER_MASK:
            playable = 0
        else:
            playable = mask & MATCH[g.discards[-1] * 5 + g.color_index]
            # (`challenge_possible`, read as the field it comes down to: a property costs a call)
            if mask & CHALLENGED_WILDS and (rules.wd4_challenge or wd4_allowed(g, hand)):
                playable |= mask & CHALLENGED_WILDS
        if rules.voluntary_draw and g.pile:
            known = _HOLDING_TWO if hand.size == 2 else _PLAYS_OR_DRAW
            out = known.get(playable)
            if out is None:
                out = _remember_turn_moves(known, playable)
        else:
            out = _turn_moves(g, playable, hand.size == 2)
        if g.at_risk or rules.false_catch_penalty:
            out = _with_uno_moves(g, player, out)
        g.legal = out
        g.legal_for = player
        return out
    if decision is PLAY_DRAWN and g.seats[g.turn] == player:  # next in line: a card just drawn
        face = g.drawn_face
        rules = g.rules
        if g.held[player].size == 2:
            out = (face, face + PLAY_UNO)
            if not rules.force_play_drawn:
                out += _KEEP
        else:
            out = (face,) if rules.force_play_drawn else _PLAY_OR_KEEP[face]
        if g.at_risk or rules.false_catch_penalty:
            out = _with_uno_moves(g, player, out)
    else:
        out = _off_turn_moves(g, player)
    g.legal = out
    g.legal_for = player
    return out


#: `legal_moves` on a normal turn while drawing is possible, by playable mask, for a hand of
#: other than two cards and (`_HOLDING_TWO`) of two, whose plays may call UNO. Filled as
#: positions come up and emptied when one grows past _KNOWN_LIMIT (about 8 MB), so a
#: long-running process keeps only the masks it meets: a lookup is cheaper than the bit walk.
_PLAYS_OR_DRAW: dict[int, tuple[int, ...]] = {}
_HOLDING_TWO: dict[int, tuple[int, ...]] = {}
_KNOWN_LIMIT = 1 << 16


def _remember_turn_moves(known: dict[int, tuple[int, ...]], playable: int) -> tuple[int, ...]:
    """The faces of `playable` (and with UNO called, for `_HOLDING_TWO`), then drawing."""
    if len(known) >= _KNOWN_LIMIT:
        known.clear()
    answer = known[playable] = (*_plays(playable, known is _HOLDING_TWO), DRAW)
    return answer


def _plays(faces: int, two_held: bool) -> list[int]:
    """Playing each face of the mask `faces`, and, holding two cards, each with UNO called."""
    plays = faces_of(faces)
    return plays + [f + PLAY_UNO for f in plays] if two_held else plays


def _turn_moves(g: GameState, playable: int, two_held: bool) -> tuple[int, ...]:
    """`legal_moves` on a normal turn, in general."""
    out = _plays(playable, two_held)
    can_draw = g.pile or len(g.discards) > 1
    if out:
        if can_draw and g.rules.voluntary_draw:
            out.append(DRAW)
    else:
        out = [DRAW if can_draw else PASS]
    return tuple(out)


def _off_turn_moves(g: GameState, player: int) -> tuple[int, ...]:
    """`legal_moves` except on the player's own normal turn or with a card just drawn."""
    decision = g.decision
    seats = g.seats
    if decision is MATCH_OVER or player not in g.totals or player in g.left:
        return ()
    if decision is NEXT_ROUND:
        return _NEXT_ROUND
    hand = g.held.get(player)
    if hand is None:
        return ()
    out: tuple[int, ...]
    if seats[g.turn] == player:
        if decision is CHOOSE_COLOR:
            out = _COLORS
        elif decision is CHOOSE_TARGET:
            out = tuple(M.TARGET + i for i, p in enumerate(seats) if p != player)
        else:  # RESPOND
            faces = _plays(response_mask(g, player), hand.size == 2)
            faces.append(M.ACCEPT)
            if can_challenge(g):
                faces.append(M.CHALLENGE)
            out = tuple(faces)
    else:
        mask = jump_in_mask(g, player)
        out = tuple(faces_of(mask)) if mask else ()
        if out and hand.size == 2:
            out += (out[0] + PLAY_UNO,)
    if g.at_risk or g.rules.false_catch_penalty:
        out = _with_uno_moves(g, player, out)
    return out


def _with_uno_moves(g: GameState, player: int, out: tuple[int, ...]) -> tuple[int, ...]:
    """`out` and calling UNO for oneself, and catching others (anyone, when a false catch
    costs)."""
    at_risk = g.at_risk
    false_catch = g.rules.false_catch_penalty
    extra = [M.CALL_UNO] if player in at_risk else []
    for i, target in enumerate(g.seats):
        if target != player and (false_catch or target in at_risk):
            extra.append(M.CATCH + i)
    return out + tuple(extra) if extra else out


_COLORS = tuple(M.COLOR + i for i in range(len(COLORS)))
_KEEP = (KEEP,)
_PLAY_OR_KEEP = tuple((face, KEEP) for face in range(FACES))
_NEXT_ROUND = (M.NEXT_ROUND,)


def legal_actions(g: GameState, player: int) -> list[A.Action]:
    """`legal_moves` as `Action` values (colours of UNO Flip's side in play)."""
    seats = g.seats
    if g.side:
        return [action_of(code, seats, True) for code in legal_moves(g, player)]
    return [action_of(code, seats) for code in legal_moves(g, player)]


def explain_refusal(g: GameState, player: int, action: A.Action) -> None:
    """Raise the error that says why `action` is refused (the caller found it illegal)."""
    if player not in g.totals or player in g.left:
        raise NotInGame()
    if g.decision is MATCH_OVER:
        raise GameOver()
    if isinstance(action, A.Catch):
        raise IllegalAction("catch_nobody", target=action.target)
    if isinstance(action, A.CallUno):
        raise IllegalAction("uno_not_needed")
    if g.decision is NEXT_ROUND:
        raise IllegalAction("round_over")
    if player not in g.held:
        raise NotInGame("eliminated")
    if g.seats[g.turn] != player:
        if isinstance(action, A.Play) and g.rules.jump_in:
            raise IllegalAction("no_jump_in", card=action.card.code)
        raise NotYourTurn(player=g.seats[g.turn])
    if isinstance(action, A.Play):
        hand = g.held[player]
        if not hand.mask & BIT[action.card.face]:
            raise IllegalAction("card_not_in_hand", card=action.card.code)
        if action.uno and hand.size != 2:
            raise IllegalAction("uno_too_early")
        raise IllegalAction("card_not_playable", card=action.card.code, decision=g.decision.value)
    raise IllegalAction("not_now", action=action.code, decision=g.decision.value)


def checked_code(g: GameState, player: int, action: A.Action) -> int:
    """The move code of `action` if it is legal for `player` now; raises the refusal if not."""
    if player not in g.totals or player in g.left:
        raise NotInGame()
    if g.decision is MATCH_OVER:
        raise GameOver()
    code = code_of(action, g.seats)
    if code >= 0 and code in legal_moves(g, player):
        if type(action) is not A.ChooseColor or action.color.is_dark == bool(g.side):
            return code
        raise IllegalAction("not_now", action=action.code, decision=g.decision.value)
    explain_refusal(g, player, action)
    raise AssertionError("unreachable")  # explain_refusal always raises


def favourite_color(g: GameState, player: int) -> Color:
    """The colour `player` holds most of (ties: R, Y, G, B; on Flip's dark side P, T, O, V)."""
    counts = [0] * (NO_COLOR + 1)
    hand = g.held.get(player)
    if hand is not None:
        for f in range(FACES):
            counts[COLOR_OF[f]] += hand.counts[f]
    best = max(range(NO_COLOR), key=lambda c: counts[c])
    color = SIDE_COLORS[g.side][best]
    assert color is not None
    return color


def default_action(g: GameState, player: int) -> A.Action | None:
    """What happens when `player` lets their time run out: draw and pass, accept, a colour."""
    decision = g.decision
    if decision is NEXT_ROUND or decision is MATCH_OVER:
        return None
    if g.seats[g.turn] != player:
        return None
    if decision is PLAY or decision is PLAY_DRAWN:
        legal = legal_moves(g, player)
        for preferred in (DRAW, KEEP, PASS):
            if preferred in legal:
                return action_of(preferred, g.seats, bool(g.side))
        return action_of(min(legal), g.seats, bool(g.side))
    if decision is CHOOSE_COLOR:
        return A.ChooseColor(favourite_color(g, player))
    if decision is CHOOSE_TARGET:
        return A.ChooseTarget(g.seats[g.next_seat(g.turn)])
    return A.ACCEPT
