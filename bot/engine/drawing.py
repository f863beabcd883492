"""Drawing: off the pile (reshuffling the discards when it runs out), on a turn, as a penalty,
until a colour (Colour Roulette), and the UNO catch that costs cards.

Under the mercy rule (`rules.mercy_limit`) a hand that reaches the limit stops drawing at once,
mid-draw: the rest of the debt is cancelled and the player is marked knocked out
(`GameState.knocked_out`; perform.settle_knockouts takes them out of the round).
"""

from __future__ import annotations

from . import events as E
from .faces import BIT, CARDS, CHALLENGED_WILDS, COLOR_OF, IS_NUMBER, MATCH
from .hand import Hand
from .legality import is_playable, playable_on_top, wd4_allowed
from .state import PLAY_DRAWN, GameState
from .turns import start_turn


def take(g: GameState, count: int, ev: list[E.Event] | None) -> list[int]:
    """Up to `count` faces off the draw pile, reshuffling the discards when it runs out."""
    pile = g.pile
    if len(pile) < count and len(g.discards) > 1:
        top = g.discards.pop()
        rest = g.discards
        g.shuffle(rest)
        pile[:0] = rest  # under what is left, so the old pile is drawn first
        g.discards = [top]
        if ev is not None:
            ev.append(E.DeckReshuffled(len(rest)))
    if count >= len(pile):
        taken = pile[::-1]
        pile.clear()
        return taken
    if count == 1:
        return [pile.pop()]
    taken = pile[-count:]
    del pile[-count:]
    taken.reverse()
    return taken


def draw(
    g: GameState, player: int, count: int, reason: E.DrawReason, ev: list[E.Event] | None
) -> None:
    """`player` draws `count` cards (what exists of them: the rest of the debt is cancelled)."""
    if count <= 0:
        return
    hand = g.held[player]
    limit = g.rules.mercy_limit
    if limit and hand.size + count >= limit:  # the mercy rule: no card past the limit
        count = limit - hand.size
        if count <= 0:
            knock_out(g, player)
            return
    faces = take(g, count, ev)
    counts = hand.counts  # (`Hand.add` for each, written out: penalties draw two or four)
    mask = hand.mask
    for f in faces:
        counts[f] += 1
        mask |= BIT[f]
    hand.mask = mask
    hand.size += len(faces)
    if ev is not None:
        ev.append(E.CardsDrawn(player, tuple(CARDS[f] for f in faces), reason))
        if len(faces) < count:
            ev.append(E.DebtCancelled(player, count - len(faces)))
    if player in g.at_risk:
        g.at_risk.remove(player)
    if limit and hand.size >= limit:
        knock_out(g, player)


def knock_out(g: GameState, player: int) -> None:
    """Mark `player` knocked out by the mercy rule (once)."""
    if player not in g.knocked_out:
        g.knocked_out.append(player)


def draw_to_color(g: GameState, player: int, color: int, ev: list[E.Event] | None) -> None:
    """Colour Roulette and UNO Flip's Wild Draw Colour: `player` turns cards over until one of
    `color` (index) comes up, and keeps them all (or until nothing is left to draw, the
    discards under the top card reshuffled in once the pile is out, or the mercy rule stops
    them)."""
    hand = g.held[player]
    limit = g.rules.mercy_limit
    drawn: list[int] = []
    while True:
        got = take(g, 1, ev)
        if not got:
            break
        face = got[0]
        drawn.append(face)
        hand.add(face)
        if limit and hand.size >= limit:
            knock_out(g, player)
            break
        if COLOR_OF[face] == color:
            break
    if player in g.at_risk:
        g.at_risk.remove(player)
    g.voids.pop(player, None)
    if ev is not None:
        ev.append(E.CardsDrawn(player, tuple(CARDS[f] for f in drawn), E.DrawReason.EFFECT))


def draw_turn(g: GameState, player: int, ev: list[E.Event] | None) -> None:
    """`player` draws on their turn (until playable, under that rule); a playable card drawn
    may then be played or kept. The caller has closed the UNO window."""
    g.passes = 0
    hand = g.held[player]
    rules = g.rules
    pile = g.pile
    if rules.draw_until_playable or not pile or rules.mercy_limit:
        g.voids[player] = (playable_on_top(g, hand), hand.size)
        _draw_turn_slowly(g, player, hand, ev)
        return
    # The usual case, written out (a random playout draws on about a quarter of its moves):
    # what the table learns (`playable_on_top`), then one card off the pile, playable by
    # `is_playable(..., drawn=True)` or not.
    matching = MATCH[g.discards[-1] * 5 + g.color_index]
    if rules.wd4_challenge or wd4_allowed(g, hand):
        g.voids[player] = (matching | CHALLENGED_WILDS, hand.size)
    else:
        g.voids[player] = (matching, hand.size)
    face = pile.pop()
    hand.counts[face] += 1
    bit = BIT[face]
    hand.mask |= bit
    hand.size += 1
    if ev is not None:
        ev.append(E.CardsDrawn(player, (CARDS[face],), E.DrawReason.CHOICE))
    playable = wd4_allowed(g, hand) if bit & CHALLENGED_WILDS else matching & bit
    if playable and (hand.size > 1 or rules.go_out_on_action or IS_NUMBER[face]):
        g.drawn_face = face
        g.decision = PLAY_DRAWN
    else:
        start_turn(g, (g.turn + g.direction) % len(g.seats), ev)


def _draw_turn_slowly(g: GameState, player: int, hand: Hand, ev: list[E.Event] | None) -> None:
    """`draw_turn` under `draw_until_playable` or the mercy rule, or with the draw pile used
    up. The mercy rule is checked after each card: the card that reaches the limit knocks
    the player out even if it could be played."""
    rules = g.rules
    limit = rules.mercy_limit
    until_playable = rules.draw_until_playable
    knocked = False
    drawn: list[int] = []
    while True:
        got = take(g, 1, ev)
        if not got:
            break
        drawn += got
        hand.add(got[0])
        if limit and hand.size >= limit:
            knock_out(g, player)
            knocked = True
            break
        if not until_playable or is_playable(g, got[0], hand, drawn=True):
            break
    if ev is not None:
        ev.append(E.CardsDrawn(player, tuple(CARDS[f] for f in drawn), E.DrawReason.CHOICE))
    if drawn and not knocked and is_playable(g, drawn[-1], hand, drawn=True):
        g.drawn_face = drawn[-1]
        g.decision = PLAY_DRAWN
    else:
        start_turn(g, g.next_seat(g.turn), ev)


def catch(g: GameState, catcher: int, target: int, ev: list[E.Event] | None) -> None:
    if target in g.at_risk:
        g.at_risk.remove(target)
        penalty = g.rules.uno_penalty
        if ev is not None:
            ev.append(E.UnoCaught(catcher, target, penalty))
        draw(g, target, penalty, E.DrawReason.UNO, ev)
    else:
        penalty = g.rules.false_catch_penalty
        if ev is not None:
            ev.append(E.FalseCatch(catcher, target, penalty))
        draw(g, catcher, penalty, E.DrawReason.FALSE_CATCH, ev)
