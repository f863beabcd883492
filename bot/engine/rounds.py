"""Rounds: dealing one, ending one (went out, blocked, abandoned), scoring it, the next deal,
the end of the match, and a player leaving a running round."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from . import events as E
from . import flip, seeds
from .cards import Card, Rank
from .drawing import draw
from .faces import (
    CARDS,
    CODES,
    COLOR_OF,
    COLOR_OF_INDEX,
    DRAW_VALUE,
    FLIP_POINTS,
    IS_NUMBER,
    IS_WILD,
    POINTS,
    RANK_INDEX,
    RANK_OF,
    deck_bytes,
    deck_faces,
)
from .hand import Hand
from .scoring import Outcome, RoundEnd, RoundOutcome, match_outcome, round_points
from .state import CHOOSE_COLOR, MATCH_OVER, NEXT_ROUND, GameState
from .turns import start_turn

#: The time a position comes back that ends a round as blocked (see `note_position`).
REPEATED_POSITION = 3
_REDRAW = frozenset(
    RANK_INDEX[r]
    for r in (
        Rank.WILD_DRAW_FOUR,
        Rank.SWAP_HANDS,
        Rank.SHUFFLE_HANDS,
        Rank.CUSTOMIZABLE,
        Rank.WILD_DRAW_TWO,  # UNO Flip's sheet: a Wild Draw Two starter goes back
    )
)
_REDRAW_WITH_WILD = _REDRAW | {RANK_INDEX[Rank.WILD]}
_SKIP, _REVERSE, _DRAW_TWO, _WILD, _DRAW_ONE, _FLIP = (
    RANK_INDEX[r]
    for r in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO, Rank.WILD, Rank.DRAW_ONE, Rank.FLIP)
)


def deal_round(g: GameState, deck: Sequence[Card] | None, ev: list[E.Event] | None) -> None:
    """Deal the next round: hands, the starter and its effect (RULES.md section 2)."""
    g.round_number += 1
    g.positions = {}
    g.seats = [p for p in g.players if p not in g.left and p not in g.eliminated]
    round_seed = g.round_seed = g.next_round_seed()
    g.round_shuffles = 0
    g.side = 0
    g.flip_pairs = flip.pairing(round_seed) if g.rules.deck == flip.FLIP_DECK else ()
    if deck is not None:
        faces = [c.face for c in deck]
        g.round_shuffles = 1  # (a fixed deck, as if dealt: later shuffles are reshuffles)
    else:
        ascending = deck_bytes(g.rules.deck)
        if ascending is not None and round_seed:
            # The round's shuffle "deal" (`g.shuffle`), the shortcut for an unshuffled deck.
            faces = list(seeds.shuffled_ascending(ascending, round_seed, 0))
            g.round_shuffles = 1
        else:
            faces = deck_faces(g.rules.deck)
            g.shuffle(faces)  # the round's shuffle "deal"
    faces.reverse()  # draw from the end
    g.pile = faces
    size = g.rules.hand_size
    g.held = {}
    for p in g.seats:
        g.held[p] = Hand(faces[-size:])
        del faces[-size:]
    g.discards = []
    g.direction = 1
    g.penalty = 0
    g.penalty_kind = ""
    g.drawn_face = -1
    g.wd4_record = None
    g.at_risk = []
    g.skip_next = []
    g.knocked_out = []
    g.voids = {}
    g.passes = 0
    g.jump_open = True
    g.steps = []
    g.round_outcome = None
    starter = faces.pop()
    if g.rules.deck == "no_mercy168":
        # Show 'Em No Mercy: an action card turned as starter is ignored (it stays under the
        # next one, without effect) and the next card is turned, until a number comes up.
        while not IS_NUMBER[starter]:
            if ev is not None:
                ev.append(E.StarterIgnored(CARDS[starter]))
            g.discards.append(starter)
            starter = faces.pop()
    redraw = _REDRAW_WITH_WILD if g.rules.starter_wild == "redraw" else _REDRAW
    while RANK_OF[starter] in redraw:
        if ev is not None:
            ev.append(E.StarterReturned(CARDS[starter]))
        faces.append(starter)
        g.shuffle(faces)
        starter = faces.pop()
    g.discards.append(starter)
    g.color_index = COLOR_OF[starter]
    dealer_seat = g.seats.index(g.dealer)
    mode = g.rules.starting_player
    if mode == "left":
        first = g.next_seat(dealer_seat)
    elif mode == "dealer":
        first = dealer_seat
    else:
        first = seeds.first_seat(g.round_seed, len(g.seats))
    if ev is not None:
        ev.append(
            E.RoundStarted(g.round_number, g.dealer, CARDS[starter], seeds.commitment(g.round_seed))
        )
    rank = RANK_OF[starter]
    if rank == _FLIP:
        # UNO Flip, a Flip turned as starter (docs/playing.md): everything is turned over and
        # the round starts on the dark side; the revealed card acts only by its colour (a
        # wild: the first player names one).
        flip.turn_over(g, None, ev)
        if IS_WILD[g.discards[-1]]:
            g.turn = first
            g.steps = ["turn"]
            g.decision = CHOOSE_COLOR
        else:
            start_turn(g, first, ev)
        return
    if rank == _SKIP:
        if ev is not None:
            ev.append(E.TurnSkipped(g.seats[first]))
        start_turn(g, g.next_seat(first), ev)
    elif rank == _REVERSE:
        g.direction = -1
        if ev is not None:
            ev.append(E.DirectionChanged(-1))
        # The player before the would-be first player starts (the dealer, officially).
        start_turn(g, g.next_seat(first), ev)
    elif rank in (_DRAW_TWO, _DRAW_ONE):
        amount = DRAW_VALUE[rank]
        draw(g, g.seats[first], amount, E.DrawReason.PENALTY, ev)
        if ev is not None:
            ev.append(E.PenaltyAccepted(g.seats[first], amount))
            ev.append(E.TurnSkipped(g.seats[first]))
        start_turn(g, g.next_seat(first), ev)
    elif rank == _WILD:
        g.turn = first
        g.steps = ["turn"]
        g.decision = CHOOSE_COLOR
    else:
        start_turn(g, first, ev)


def blocked_winner(g: GameState) -> int:
    """Nobody can play or draw: lowest hand value, then fewest cards, then turn order."""
    order = g.seats_from(g.turn)
    table = _points_table(g)
    return min(
        order,
        key=lambda p: (g.held[p].points(table), g.held[p].size, order.index(p)),
    )


def _points_table(g: GameState) -> tuple[int, ...]:
    """Each face's points: UNO Flip scores its light Wild 40 (faces.FLIP_POINTS)."""
    return FLIP_POINTS if g.flip_pairs else POINTS


def note_position(g: GameState, ev: list[E.Event] | None) -> None:
    """§9.24 carried to its end: with the draw pile used up, a round can come back to the same
    position (every hand, the discards, the turn, the direction and the colour as they were)
    and, when every move is forced (`voluntary_draw` off, `force_play_drawn` on, ...), repeat
    it for ever. The third time a position comes back, the round ends as a blocked round:
    the lowest hand wins. Positions are only kept while the draw pile is empty."""
    color = COLOR_OF_INDEX[g.color_index]
    key = "|".join(
        (
            str(g.seats[g.turn]),
            str(g.direction),
            color.value if color else "-",
            " ".join(CODES[f] for f in g.discards),
            ";".join(" ".join(sorted(CODES[f] for f in g.held[p].faces())) for p in g.seats),
            ",".join(map(str, g.at_risk)),
            ",".join(map(str, g.skip_next)),
            str(g.penalty),
        )
    )
    digest = hashlib.blake2b(key.encode(), digest_size=8).hexdigest()
    seen = g.positions[digest] = g.positions.get(digest, 0) + 1
    if seen >= REPEATED_POSITION:
        end_round(g, blocked_winner(g), RoundEnd.BLOCKED, ev)


def end_round(g: GameState, winner: int | None, reason: RoundEnd, ev: list[E.Event] | None) -> None:
    """Score the round, record its outcome, and end the match if it is over."""
    held = g.held
    seats = g.seats
    knocked = g.knocked_out
    if knocked:  # (their hands are out of the round: they count as knock-outs, not points)
        seats = [p for p in seats if p not in knocked]
    table = _points_table(g)
    hand_points = {p: held[p].points(table) for p in seats}
    cards_left = {p: held[p].size for p in seats}
    if winner is None:
        points = dict.fromkeys(seats, 0)
    else:
        points = round_points(g.rules, winner, hand_points, cards_left)
    if knocked:
        for p in knocked:
            points[p] = 0
        if winner is not None and g.rules.scoring == "standard":
            points[winner] += g.rules.knockout_bonus * len(knocked)
    totals = g.totals
    for p, pts in points.items():
        totals[p] += pts
    g.round_outcome = RoundOutcome(
        round_number=g.round_number,
        winner=winner,
        reason=reason,
        hand_points=hand_points,
        cards_left=cards_left,
        points=points,
        totals=dict(totals),
    )
    if ev is not None:
        ev.append(E.RoundEnded(g.round_outcome, g.round_seed.hex()))
    g.steps = []
    g.penalty = 0
    g.penalty_kind = ""
    g.drawn_face = -1
    g.at_risk = []
    outcome, knocked_out = (
        match_outcome(g.rules, totals, seats, winner) if winner is not None else (None, [])
    )
    for p in knocked_out:
        g.eliminated.append(p)
        if ev is not None:
            ev.append(E.PlayerEliminated(p, totals[p]))
    if outcome is not None:
        finish_match(g, outcome, ev)
    else:
        g.decision = NEXT_ROUND


def finish_match(g: GameState, outcome: Outcome, ev: list[E.Event] | None) -> None:
    g.outcome = outcome
    g.decision = MATCH_OVER
    if ev is not None:
        ev.append(E.MatchEnded(outcome))


def next_round(g: GameState, ev: list[E.Event] | None) -> None:
    """The deal passes to the next player still in the match, who deals."""
    staying = [p for p in g.players if p not in g.left and p not in g.eliminated]
    i = g.players.index(g.dealer)
    for k in range(1, len(g.players) + 1):
        candidate = g.players[(i + k) % len(g.players)]
        if candidate in staying:
            g.dealer = candidate
            break
    deal_round(g, None, ev)


def unseat(g: GameState, player: int, ev: list[E.Event] | None) -> None:
    """Take a leaver out of the running round; their cards go under the draw pile."""
    seat = g.seats.index(player)
    g.pile[:0] = g.held.pop(player).faces()
    g.seats.pop(seat)
    g.voids.pop(player, None)
    for waiting in (g.at_risk, g.skip_next):
        if player in waiting:
            waiting.remove(player)
    if not g.seats:
        return
    if g.turn > seat:
        g.turn -= 1
    elif g.turn == seat:
        # It was the leaver's turn: it passes to whoever came after them.
        following = seat if g.direction == 1 else seat - 1
        start_turn(g, following % len(g.seats), ev)
