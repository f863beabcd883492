"""Resolving a card: playing it, then its steps (colour, target, custom effect) and its effect on
the turn order (skip, reverse, draw penalties), challenges, and the hand-moving wilds; and Show
'Em No Mercy's cards (Discard All, Skip Everyone, the Draw Four/Six/Ten, Wild Reverse Draw Four,
Colour Roulette: docs/playing.md); and UNO Flip's (Draw One, Draw Five, Flip, Wild Draw Two, Wild
Draw Colour, its dark Skip Everyone: docs/playing.md)."""

from __future__ import annotations

from . import events as E
from .drawing import draw, draw_to_color
from .faces import (
    BIT,
    CARDS,
    CHALLENGED_WILDS,
    COLOR_MASK,
    COLOR_OF,
    CUSTOMIZABLE,
    DISCARD_ALL,
    DRAW_TWO,
    DRAW_VALUE,
    FLIP,
    FLIP_RANK,
    IS_WILD,
    MATCH,
    NO_MERCY_RANK,
    RANK_OF,
    REVERSE,
    SEVEN,
    SHUFFLE_HANDS,
    SKIP,
    SKIP_EVERYONE,
    SWAP_HANDS,
    WILD,
    WILD_COLOR_ROULETTE,
    WILD_DRAW_COLOR,
    WILD_DRAW_FOUR,
    WILD_DRAW_TWO,
    WILD_REVERSE_DRAW_FOUR,
    ZERO,
    faces_of,
)
from .flip import turn_over
from .hand import Hand
from .legality import can_challenge, response_mask
from .rounds import end_round
from .scoring import RoundEnd
from .state import CHOOSE_COLOR, CHOOSE_TARGET, PLAY, RESPOND, GameState
from .turns import hands_changed, start_turn


def play(g: GameState, player: int, face: int, uno: bool, ev: list[E.Event] | None) -> None:
    """`player` plays `face` (on their turn, in response to a penalty, or jumping in)."""
    seat = g.turn
    jump_in = g.seats[seat] != player
    if jump_in:
        seat = g.turn = g.seats.index(player)
    responding = g.decision is RESPOND
    hand = g.held[player]
    counts = hand.counts  # Hand.remove, written out: this runs for every card played
    left = counts[face] - 1
    counts[face] = left
    if not left:
        hand.mask ^= BIT[face]
    hand.size -= 1
    g.discards.append(face)
    if g.voids:
        g.voids.pop(player, None)
    color_before = g.color_index
    g.color_index = COLOR_OF[face]
    g.drawn_face = -1
    g.passes = 0
    g.jump_open = True
    if ev is not None:
        ev.append(E.CardPlayed(player, CARDS[face], jump_in))
    rank = RANK_OF[face]
    if rank >= WILD_DRAW_FOUR:  # (one test for the numbers, actions and Wild: the usual cards)
        if BIT[face] & CHALLENGED_WILDS:  # a Wild Draw Four, Flip's Wild Draw Two or Colour
            _record_wd4(g, player, color_before)
        elif rank == DISCARD_ALL:
            _discard_all(g, player, face, ev)
    if responding:  # (outside a response no penalty is pending: nothing to clear)
        g.penalty_kind = ""

    if not hand.size:
        rules = g.rules
        if rank == SWAP_HANDS and rules.last_card_swap == "apply":
            # RULES §8 `apply`: the swap is done, so the player does not go out. They name
            # the target while holding no card (the only decision ever owed with an empty
            # hand); the target then holds the empty hand and, by §6 (a hand empty after a
            # play ends the round), goes out and wins the round: no colour is named.
            g.steps = ["target", "color", "effect"]
            continue_card(g, ev)
            return
        if rank == SHUFFLE_HANDS and rules.last_card_shuffle == "apply":
            shuffle_hands(g, player, ev)
            if someone_out(g, ev):
                return
            g.steps = ["color", "effect"]
            continue_card(g, ev)
            return
        if rank == FLIP:  # UNO Flip: the last card's flip happens; the new side is scored
            turn_over(g, player, ev)
        elif DRAW_VALUE[rank]:  # a draw card as the last card still makes the next player draw
            if rank == WILD_REVERSE_DRAW_FOUR:
                g.direction = -g.direction
            amount = penalty_after(g, rank)
            g.penalty = 0
            victim = g.seats[g.next_seat(seat)]
            draw(g, victim, amount, E.DrawReason.PENALTY, ev)
        end_round(g, player, RoundEnd.WENT_OUT, ev)
        return

    if hand.size == 1:
        if uno:
            if ev is not None:
                ev.append(E.UnoCalled(player))
        else:
            g.at_risk.append(player)

    if IS_WILD[face]:
        if rank in (WILD_DRAW_FOUR, WILD):  # ["color", "effect"], its first step taken here
            g.steps = ["effect"]
            g.decision = CHOOSE_COLOR
            return
        if rank == SWAP_HANDS:
            g.steps = ["target", "color", "effect"]
        elif rank == SHUFFLE_HANDS:
            shuffle_hands(g, player, ev)
            if someone_out(g, ev):
                return
            g.steps = ["color", "effect"]
        elif rank == WILD_COLOR_ROULETTE:
            # The next player names the colour, then turns cards over until it comes up.
            g.turn = (seat + g.direction) % len(g.seats)
            g.steps = ["roulette"]
            g.decision = CHOOSE_COLOR
            return
        elif rank >= NO_MERCY_RANK:  # No Mercy's draw wilds, Flip's wilds: a colour, then effect
            g.steps = ["effect"]
            g.decision = CHOOSE_COLOR
            return
        else:
            g.steps = ["color", "custom", "effect"]
    elif g.rules.seven_o and (rank in (SEVEN, ZERO)):
        if rank == SEVEN:
            g.steps = ["target", "effect"]
        else:
            rotate_hands(g, ev)
            g.steps = ["effect"]
    else:  # a coloured card: nothing to decide before its effect
        if g.steps:
            g.steps = []
        if rank < SKIP and not g.skip_next:  # a number: `start_turn` of the next seat, inline
            g.turn = (seat + g.direction) % len(g.seats)
            g.decision = PLAY
            return
        effect(g, player, ev)
        return
    continue_card(g, ev)


def _record_wd4(g: GameState, player: int, color_before: int) -> None:
    """Remember who played a Wild Draw Four and whether a challenge would find them guilty."""
    mask = g.held[player].mask
    rule = g.rules.wd4_rule
    if rule == "color":
        guilty = bool(mask & COLOR_MASK[color_before])
    elif rule == "no_playable":
        guilty = bool(mask & MATCH[g.discards[-2] * 5 + color_before])
    else:
        guilty = False
    g.wd4_record = (player, color_before, guilty)


def _discard_all(g: GameState, player: int, face: int, ev: list[E.Event] | None) -> None:
    """Discard All: every other card of its colour leaves the hand, face up under it (their
    effects do not happen: only the Discard All's card is in play)."""
    hand = g.held[player]
    others = faces_of(hand.mask & COLOR_MASK[COLOR_OF[face]])
    if not others:
        return
    gone = [f for f in others for _ in range(hand.counts[f])]
    for f in gone:
        hand.remove(f)
    g.discards[-1:-1] = gone
    if ev is not None:
        ev.append(E.CardsDiscarded(player, tuple(CARDS[f] for f in gone)))


def penalty_after(g: GameState, rank: int) -> int:
    amount = DRAW_VALUE[rank]
    return g.penalty + amount if g.rules.stacking != "off" else amount


def continue_card(g: GameState, ev: list[E.Event] | None) -> None:
    """Run what is left of the card being resolved, stopping at the next decision."""
    actor = g.seats[g.turn]
    steps = g.steps
    while steps:
        step = steps.pop(0)
        if step == "effect":  # (the usual steps first: a wild's effect, once its colour named)
            effect(g, actor, ev)
            return
        if step == "color":
            g.decision = CHOOSE_COLOR
            return
        if step == "target":
            g.decision = CHOOSE_TARGET
            return
        if step == "turn":
            g.decision = PLAY
            return
        if step == "next":  # (UNO Flip: a flip revealed a wild, its colour named) the turn passes
            start_turn(g, (g.turn + g.direction) % len(g.seats), ev)
            return
        if step == "roulette":  # the actor is the victim, who named the colour
            draw_to_color(g, actor, g.color_index, ev)
            if ev is not None:
                ev.append(E.TurnSkipped(actor))
            start_turn(g, (g.turn + g.direction) % len(g.seats), ev)
            return
        if step == "custom":
            _custom_effect(g, actor, ev)


def effect(g: GameState, actor: int, ev: list[E.Event] | None) -> None:
    """The card on top acts on the turn order: skip, reverse, draw penalties."""
    face = g.discards[-1]
    rank = RANK_OF[face]
    seat = g.turn
    seats = g.seats
    if rank == REVERSE:
        g.direction = -g.direction
        if ev is not None:
            ev.append(E.DirectionChanged(g.direction))
    # (`g.next_seat(seat)` written out: a method call costs more than the arithmetic)
    following = (seat + g.direction) % len(seats)
    if rank < SKIP:  # a number: the turn passes on
        start_turn(g, following, ev)
    elif rank == SKIP:
        if g.penalty:  # a stack passed on (stack_deflect)
            _pass_stack_on(g, seat, following, ev)
            return
        victim = seats[following]
        if g.rules.deflect_skip and g.held[victim].counts[face]:
            g.penalty_kind = "S"
            g.turn = following
            g.decision = RESPOND
            return
        if ev is not None:
            ev.append(E.TurnSkipped(victim))
        start_turn(g, g.next_seat(following), ev)
    elif rank == REVERSE:
        if g.penalty:  # a stack passed on (stack_deflect)
            _pass_stack_on(g, seat, following, ev)
        elif len(seats) == 2 and g.rules.two_player_reverse == "skip":
            if ev is not None:
                ev.append(E.TurnSkipped(seats[following]))
            start_turn(g, seat, ev)
        else:
            start_turn(g, following, ev)
    elif rank in (DRAW_TWO, WILD_DRAW_FOUR):  # (`_penalty`, written out: the classic path)
        g.penalty = penalty_after(g, rank)
        g.penalty_kind = "D" if rank == DRAW_TWO else "W4"
        g.turn = following
        if response_mask(g, seats[following]) or can_challenge(g):
            g.decision = RESPOND
            return
        g.turn = seat
        take_penalty(g, following, ev)
    elif rank == CUSTOMIZABLE and g.rules.custom_effect == "play_again":
        if ev is not None:
            ev.append(E.PlayAgain(actor))
        start_turn(g, seat, ev)
    elif rank >= FLIP_RANK:
        _flip_effect(g, actor, rank, seat, following, ev)
    elif rank >= NO_MERCY_RANK:
        _no_mercy_effect(g, rank, seat, following, ev)
    else:
        start_turn(g, following, ev)


def _pass_stack_on(g: GameState, seat: int, following: int, ev: list[E.Event] | None) -> None:
    """A Skip or Reverse played on a pending stack (`stack_deflect`) passes it on, whole, to
    the player at `following`, who may answer it in turn or takes it."""
    g.penalty_kind = "+"
    g.turn = following
    if response_mask(g, g.seats[following]):
        g.decision = RESPOND
        return
    g.turn = seat
    take_penalty(g, following, ev)


def _penalty(g: GameState, rank: int, seat: int, following: int, ev: list[E.Event] | None) -> None:
    """A draw card's penalty on the player at `following`, who may respond to it (stack,
    deflect, challenge) or takes it. (Flip's Wild Draw Two is challenged as a Wild Draw Four:
    kind "W4".)"""
    g.penalty = penalty_after(g, rank)
    g.penalty_kind = (
        "D" if rank == DRAW_TWO else "W4" if rank in (WILD_DRAW_FOUR, WILD_DRAW_TWO) else "+"
    )
    g.turn = following
    if response_mask(g, g.seats[following]) or can_challenge(g):
        g.decision = RESPOND
        return
    g.turn = seat
    take_penalty(g, following, ev)


def _no_mercy_effect(
    g: GameState, rank: int, seat: int, following: int, ev: list[E.Event] | None
) -> None:
    """Show 'Em No Mercy's cards on the turn order (Colour Roulette acts in its own step)."""
    if rank == SKIP_EVERYONE:  # everybody else misses a turn: the player goes again
        if ev is not None:
            for p in g.seats_from(seat)[:-1]:
                ev.append(E.TurnSkipped(p))
        start_turn(g, seat, ev)
    elif rank == WILD_REVERSE_DRAW_FOUR:  # the direction turns, then the next player draws
        g.direction = -g.direction
        if ev is not None:
            ev.append(E.DirectionChanged(g.direction))
        _penalty(g, rank, seat, (seat + g.direction) % len(g.seats), ev)
    elif DRAW_VALUE[rank]:
        _penalty(g, rank, seat, following, ev)
    else:  # Discard All: its cards are gone already
        start_turn(g, following, ev)


def _flip_effect(
    g: GameState, actor: int, rank: int, seat: int, following: int, ev: list[E.Event] | None
) -> None:
    """UNO Flip's cards on the turn order: Draw One, Draw Five and Wild Draw Two make the next
    player draw and miss the turn; a Wild Draw Colour makes them draw until the colour named
    (kind "WDC", challengeable, no count); a Flip turns everything over, the turn passing on
    (the flipper names a colour first when the discard pile's new top is a wild)."""
    if rank == FLIP:
        turn_over(g, actor, ev)
        if IS_WILD[g.discards[-1]]:
            g.steps = ["next"]
            g.decision = CHOOSE_COLOR
            return
        start_turn(g, following, ev)
    elif rank == WILD_DRAW_COLOR:
        g.penalty = 0
        g.penalty_kind = "WDC"
        g.turn = following
        if can_challenge(g):
            g.decision = RESPOND
            return
        g.turn = seat
        take_penalty(g, following, ev)
    elif DRAW_VALUE[rank]:
        _penalty(g, rank, seat, following, ev)
    else:  # (a Flip face without an effect of its own: none yet)
        start_turn(g, following, ev)


def take_penalty(g: GameState, victim_seat: int, ev: list[E.Event] | None) -> None:
    """The victim of a pending penalty draws it (if any) and loses the turn; the victim of a
    Wild Draw Colour draws until its colour."""
    victim = g.seats[victim_seat]
    amount = g.penalty
    if not amount and g.penalty_kind == "WDC":  # (a Wild Draw Colour owes no count)
        g.penalty_kind = ""
        draw_to_color(g, victim, g.color_index, ev)
        if ev is not None:
            ev.append(E.TurnSkipped(victim))
        start_turn(g, (victim_seat + g.direction) % len(g.seats), ev)
        return
    g.penalty = 0
    g.penalty_kind = ""
    if amount:
        draw(g, victim, amount, E.DrawReason.PENALTY, ev)
        if ev is not None:
            ev.append(E.PenaltyAccepted(victim, amount))
    if ev is not None:
        ev.append(E.TurnSkipped(victim))
    start_turn(g, (victim_seat + g.direction) % len(g.seats), ev)


def challenge(g: GameState, challenger: int, ev: list[E.Event] | None) -> None:
    assert g.wd4_record is not None
    offender, color_before, guilty = g.wd4_record
    if g.penalty_kind == "WDC":
        _challenge_draw_color(g, challenger, offender, guilty, ev)
        return
    total = g.penalty
    if ev is not None:
        revealed = tuple(g.held[offender].cards())
        ev.append(E.ChallengeResolved(challenger, offender, guilty, revealed))
    g.penalty = 0
    g.penalty_kind = ""
    g.wd4_record = None
    if guilty:
        if g.rules.challenge_guilty == "de":
            if len(g.discards) > 1:  # (a reshuffle may have taken what was under it)
                g.held[offender].add(g.discards.pop())
            g.color_index = color_before
            g.skip_next.append(offender)
        draw(g, offender, total, E.DrawReason.CHALLENGE, ev)
        start_turn(g, g.turn, ev)
    else:
        extra = max(0, total + g.rules.challenge_fail_draw - 4)
        draw(g, challenger, extra, E.DrawReason.CHALLENGE, ev)
        if ev is not None:
            ev.append(E.TurnSkipped(challenger))
        start_turn(g, g.next_seat(g.turn), ev)


def _challenge_draw_color(
    g: GameState, challenger: int, offender: int, guilty: bool, ev: list[E.Event] | None
) -> None:
    """UNO Flip's Wild Draw Colour challenged: guilty, its player draws until the colour named
    and the challenger plays on; innocent, the challenger draws until it and two more, and
    misses the turn."""
    if ev is not None:
        revealed = tuple(g.held[offender].cards())
        ev.append(E.ChallengeResolved(challenger, offender, guilty, revealed))
    g.penalty = 0
    g.penalty_kind = ""
    g.wd4_record = None
    if guilty:
        draw_to_color(g, offender, g.color_index, ev)
        start_turn(g, g.turn, ev)
    else:
        draw_to_color(g, challenger, g.color_index, ev)
        draw(g, challenger, 2, E.DrawReason.CHALLENGE, ev)
        if ev is not None:
            ev.append(E.TurnSkipped(challenger))
        start_turn(g, g.next_seat(g.turn), ev)


def _custom_effect(g: GameState, actor: int, ev: list[E.Event] | None) -> None:
    effect_name = g.rules.custom_effect
    if effect_name == "swap_hands":
        g.steps.insert(0, "target")
    elif effect_name == "others_draw_2":
        for p in _others_in_turn_order(g, actor):
            draw(g, p, 2, E.DrawReason.EFFECT, ev)
    elif effect_name == "draw_to_7":
        for p in _others_in_turn_order(g, actor):
            missing = 7 - g.held[p].size
            if missing > 0:
                draw(g, p, missing, E.DrawReason.EFFECT, ev)


def _others_in_turn_order(g: GameState, actor: int) -> list[int]:
    return g.seats_from(g.seats.index(actor))[:-1]


def swap(g: GameState, player: int, target: int, ev: list[E.Event] | None) -> None:
    g.held[player], g.held[target] = g.held[target], g.held[player]
    g.voids.clear()
    if ev is not None:
        ev.append(E.HandsSwapped(player, target))
    hands_changed(g, (player, target))


def rotate_hands(g: GameState, ev: list[E.Event] | None) -> None:
    seats = g.seats
    old = [g.held[p] for p in seats]
    g.voids.clear()
    for i, hand in enumerate(old):
        g.held[seats[g.next_seat(i)]] = hand
    if ev is not None:
        ev.append(E.HandsRotated(g.direction))
    hands_changed(g, seats)


def shuffle_hands(g: GameState, player: int, ev: list[E.Event] | None) -> None:
    pool = [f for p in g.seats for f in g.held[p].faces()]
    g.voids.clear()
    g.shuffle(pool)
    order = g.seats_from(g.turn)
    hands = [Hand() for _ in order]
    for i, f in enumerate(pool):
        hands[i % len(order)].add(f)
    for p, hand in zip(order, hands, strict=True):
        g.held[p] = hand
    if ev is not None:
        ev.append(E.HandsShuffled(player))
    hands_changed(g, g.seats)


def someone_out(g: GameState, ev: list[E.Event] | None) -> bool:
    """After a swap of an empty hand: whoever holds no card has gone out."""
    for k in range(len(g.seats)):
        p = g.seats[g.next_seat(g.turn, k)]
        if not g.held[p].size:
            end_round(g, p, RoundEnd.WENT_OUT, ev)
            return True
    return False
