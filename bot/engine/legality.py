"""Legality: what a player may do now, as a query, and why anything else is refused.

On a normal turn the playable faces are `hand.mask & MATCH[top * 5 + colour]`, plus the Wild
Draw Four when its rule allows it; the rest of this module turns masks into `Action` values and
refusals into typed errors (`IllegalAction`, `NotYourTurn`, ...).
"""

from __future__ import annotations

from . import actions as A
from .cards import COLORS, Color
from .errors import GameOver, IllegalAction, NotInGame, NotYourTurn
from .faces import (
    BIT,
    CARDS,
    COLOR_MASK,
    COLOR_OF,
    D2_MASK,
    FACES,
    IS_NUMBER,
    IS_WILD,
    MATCH,
    NO_COLOR,
    W4_BIT,
    faces_of,
)
from .hand import Hand
from .state import Decision, GameState

PLAY: tuple[A.Play, ...] = tuple(A.Play(c) for c in CARDS)
PLAY_UNO: tuple[A.Play, ...] = tuple(A.Play(c, uno=True) for c in CARDS)
CHOOSE: tuple[A.ChooseColor, ...] = tuple(A.ChooseColor(c) for c in COLORS)


def wd4_allowed(g: GameState, hand: Hand) -> bool:
    """The Wild Draw Four rule itself (RULES.md section 3, `wd4_rule`), judged on `hand`."""
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
    if bit == W4_BIT:
        if rules.challenge_possible and not drawn:
            return True
        return wd4_allowed(g, hand)
    return bool(MATCH[g.discards[-1] * 5 + g.color_index] & bit)


def playable_mask(g: GameState, hand: Hand) -> int:
    """The faces of `hand` playable on a normal turn (the caller checked it is that turn)."""
    mask = hand.mask
    rules = g.rules
    if hand.size == 1 and not rules.go_out_on_action and not IS_NUMBER[faces_of(mask)[0]]:
        return 0
    out = mask & MATCH[g.discards[-1] * 5 + g.color_index]
    if mask & W4_BIT and (rules.challenge_possible or wd4_allowed(g, hand)):
        out |= W4_BIT
    return out


def playable_faces(g: GameState, player: int) -> list[int]:
    """Distinct faces `player` may play now on their turn (empty when it is not their turn)."""
    if g.decision is not Decision.PLAY or g.seats[g.turn] != player:
        return []
    return faces_of(playable_mask(g, g.held[player]))


def response_mask(g: GameState, player: int) -> int:
    """Faces that stack on or deflect the pending penalty."""
    hand = g.held[player]
    rules = g.rules
    if hand.size == 1 and not rules.go_out_on_action:
        return 0
    kind = g.penalty_kind
    allowed = 0
    if kind == "D":
        if rules.stacking != "off" or rules.deflect_d2:
            allowed |= D2_MASK
        if rules.stacking == "mixed":
            allowed |= W4_BIT
    elif kind == "W4":
        if rules.stacking != "off":
            allowed |= W4_BIT
        if rules.deflect_wd4:
            allowed |= D2_MASK & COLOR_MASK[g.color_index]
    elif kind == "S":
        allowed = BIT[g.discards[-1]]
    return hand.mask & allowed


def can_challenge(g: GameState) -> bool:
    return (
        g.penalty_kind == "W4"
        and g.rules.challenge_possible
        and g.wd4_record is not None
        and g.wd4_record[0] in g.seats
    )


def jump_in_mask(g: GameState, player: int) -> int:
    if (
        not g.rules.jump_in
        or g.decision is not Decision.PLAY
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


def _plays(mask: int, uno_too: bool) -> list[A.Action]:
    faces = faces_of(mask)
    out: list[A.Action] = [PLAY[f] for f in faces]
    if uno_too:
        out += [PLAY_UNO[f] for f in faces]
    return out


def legal_actions(g: GameState, player: int) -> list[A.Action]:
    """Everything `player` may do right now; `Leave` is always allowed and not listed."""
    decision = g.decision
    if decision is Decision.MATCH_OVER or player not in g.totals or player in g.left:
        return []
    if decision is Decision.NEXT_ROUND:
        return [A.NEXT_ROUND]
    hand = g.held.get(player)
    if hand is None:
        return []
    two = hand.size == 2
    if g.seats[g.turn] == player:
        if decision is Decision.PLAY:
            mask = playable_mask(g, hand)
            out = _plays(mask, two) if mask else []
            if g.pile or len(g.discards) > 1:
                if not mask or g.rules.voluntary_draw:
                    out.append(A.DRAW)
            elif not mask:
                out.append(A.PASS)
        elif decision is Decision.PLAY_DRAWN:
            out = _plays(BIT[g.drawn_face], two)
            if not g.rules.force_play_drawn:
                out.append(A.KEEP)
        elif decision is Decision.CHOOSE_COLOR:
            out = list(CHOOSE)
        elif decision is Decision.CHOOSE_TARGET:
            out = [A.ChooseTarget(p) for p in g.seats if p != player]
        else:  # RESPOND
            out = _plays(response_mask(g, player), two)
            out.append(A.ACCEPT)
            if can_challenge(g):
                out.append(A.CHALLENGE)
    else:
        mask = jump_in_mask(g, player)
        out = _plays(mask, two) if mask else []
    at_risk = g.at_risk
    if at_risk and player in at_risk:
        out.append(A.CALL_UNO)
    if at_risk or g.rules.false_catch_penalty:
        for target in g.seats:
            if target != player and (target in at_risk or g.rules.false_catch_penalty):
                out.append(A.Catch(target))
    return out


def cached_legal(g: GameState, player: int) -> list[A.Action]:
    """`legal_actions`, remembered until the state changes (callers must not mutate it)."""
    cached = g.legal_cache
    if cached is not None and cached[0] == g.version and cached[1] == player:
        return cached[2]
    out = legal_actions(g, player)
    g.legal_cache = (g.version, player, out)
    return out


def check(g: GameState, player: int, action: A.Action) -> None:
    """Raise the error that says why `action` is refused, or return if it is legal."""
    if player not in g.totals or player in g.left:
        raise NotInGame()
    if g.decision is Decision.MATCH_OVER:
        raise GameOver()
    legal = cached_legal(g, player)
    for allowed in legal:  # identity first: the engine's own action objects are shared
        if allowed is action:
            return
    if action in legal:
        return
    if isinstance(action, A.Catch):
        raise IllegalAction("catch_nobody", target=action.target)
    if isinstance(action, A.CallUno):
        raise IllegalAction("uno_not_needed")
    if g.decision is Decision.NEXT_ROUND:
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


def favourite_color(g: GameState, player: int) -> Color:
    """The colour `player` holds most of (ties: R, Y, G, B)."""
    counts = [0] * (NO_COLOR + 1)
    hand = g.held.get(player)
    if hand is not None:
        for f in range(FACES):
            counts[COLOR_OF[f]] += hand.counts[f]
    best = max(range(NO_COLOR), key=lambda c: counts[c])
    return COLORS[best]


def default_action(g: GameState, player: int) -> A.Action | None:
    """What happens when `player` lets their time run out: draw and pass, accept, a colour."""
    decision = g.decision
    if decision is Decision.NEXT_ROUND or decision is Decision.MATCH_OVER:
        return None
    if g.seats[g.turn] != player:
        return None
    if decision is Decision.PLAY or decision is Decision.PLAY_DRAWN:
        legal = cached_legal(g, player)
        for preferred in (A.DRAW, A.KEEP, A.PASS):
            if preferred in legal:
                return preferred
        return next(a for a in legal if isinstance(a, A.Play))
    if decision is Decision.CHOOSE_COLOR:
        return A.ChooseColor(favourite_color(g, player))
    if decision is Decision.CHOOSE_TARGET:
        return A.ChooseTarget(g.seats[g.next_seat(g.turn)])
    return A.ACCEPT
