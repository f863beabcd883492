"""One possible table behind a player's view: the unseen cards dealt at random, the rest as seen.

A thinking computer player (search.py) knows its own hand and the public facts (card counts, the
discard pile, the colour, whose turn it is, what is left of the card being resolved). Everything
else, the other hands and the order of the draw pile, it samples: the cards it has not seen,
shuffled, dealt to each opponent as many as they hold, the rest as the pile. Nothing is read
from the real game, so the player cannot peek.

Three inferences from the public history are made. A player who drew instead of playing held none
of the cards that were playable then (`PlayerView.voids`: the cards they held at the time are
dealt from the others). Whoever just played a Wild Draw Four most likely held no card of the
colour before it (careful players do not bluff into a challenge): in all but BLUFF_BELIEF of the
samples their hand holds none. Whoever just played the number card or plain wild on top most
likely chose it as a careful player (the `hard` heuristic) would: in all but a few of the
samples their hand is dealt again (PLAY_DOUBT) until it holds no card that
player would have played instead (no playable coloured card before a wild, which careful players
keep as a way out) and, after a wild, none of a colour more than of the colour named. Known
limits (the samples ignore the rest of what play revealed): a hand seen in a challenge or given
away in a swap, and the colours named or cards played before the last.
"""

from __future__ import annotations

import random

from .cards import Card
from .faces import (
    BIT,
    COLOR_INDEX,
    COLOR_MASK,
    COLOR_OF,
    DRAW_TWO,
    IS_WILD,
    MATCH,
    NO_COLOR,
    POINTS,
    RANK_OF,
    REVERSE,
    SKIP,
    WILD_MASK,
    deck_faces,
)
from .flip import FLIP_DECK
from .flip_determinize import sample_flip_game
from .game import Game
from .hand import Hand
from .state import Decision, GameState
from .view import PlayerView

#: The share of samples in which the player of a pending Wild Draw Four may have bluffed.
BLUFF_BELIEF = 0.15
#: (The share of samples that ignore what the last card played revealed of its player's hand,
#: deals tried per sample to find a hand that would have played it so), by table size: 2
#: players, more. Picked by rounds won against `hard` and by decision regret, at 2 players and at
#: 4 (docs/benchmarks.md, "Computer players"). A deal that never fits is kept anyway.
PLAY_DOUBT: dict[bool, tuple[float, int]] = {True: (0.05, 16), False: (0.15, 8)}
#: The face of a plain wild.
WILD_FACE = Card.of("W").face
ACTIONS = (SKIP, REVERSE, DRAW_TWO)


def sample_game(view: PlayerView, rng: random.Random) -> Game | None:
    """A game consistent with `view` (None if the view's counts do not add up)."""
    if view.rules.deck == FLIP_DECK:  # two-sided cards: a pairing of the sides first
        return sample_flip_game(view, rng)
    me = view.viewer
    if me is None or view.current_player is None or view.top_card is None:
        return None
    unseen = deck_faces(view.rules.deck)
    for card in (*view.hand, *view.discard):
        try:
            unseen.remove(card.face)
        except ValueError:
            return None
    in_round = [s for s in view.seats if s.in_round]
    hidden = sum(s.cards for s in in_round if s.player != me)
    if hidden > len(unseen) or len(view.discard) != view.discard_pile:
        return None
    rng.shuffle(unseen)
    # Constrained hands are dealt first: (player, faces they lack, how many cards that covers).
    constraints = [(p, mask, count) for p, mask, count in view.voids if p != me]
    offender = view.wd4_offender
    if offender is not None and offender != me and rng.random() >= BLUFF_BELIEF:
        before = COLOR_MASK[COLOR_INDEX[view.wd4_color_before]]
        size = next((s.cards for s in in_round if s.player == offender), 0)
        constraints = [c for c in constraints if c[0] != offender] + [(offender, before, size)]
    hands: dict[int, list[int]] = {}
    last = _last_play(view, me)
    two = len(in_round) == 2
    doubt, tries = PLAY_DOUBT[two]
    if last is not None and rng.random() >= doubt:
        player, top, before, color = last
        size = next(s.cards for s in in_round if s.player == player)
        # A careful player's wild means nothing else was playable: deal from the rest.
        lacking = MATCH[before * 5 + color] & ~WILD_MASK if top == WILD_FACE else 0
        pool = [f for f in unseen if not BIT[f] & lacking] if lacking else unseen
        named = COLOR_INDEX[view.color]
        threatened = len(view.hand) <= 2
        hand: list[int] = []  # dealt at least once: PLAY_DOUBT's tries are never 0
        for _ in range(tries):
            hand = pool[:size]
            if _careful_play(hand, top, before, color, threatened, two) and (
                top != WILD_FACE or _most_held(hand, named)
            ):
                break
            rng.shuffle(pool)
        if len(hand) == size:
            for f in hand:
                unseen.remove(f)
            hands[player] = hand
    for player, lacking, count in constraints:
        clean = [f for f in unseen if not BIT[f] & lacking][:count]
        if len(clean) < count:
            continue  # the belief was wrong (a player may draw holding a playable card)
        for f in clean:
            unseen.remove(f)
        hands[player] = clean
    g = Game.__new__(Game)
    GameState.__init__(g)
    g.rules = view.rules
    g.players = [s.player for s in view.seats]
    g.seats = [s.player for s in view.seats if s.in_round]
    g.left = [s.player for s in view.seats if s.left]
    g.eliminated = [
        s.player for s in view.seats if not s.in_round and not s.left and not s.knocked_out
    ]
    g.knocked_out = [s.player for s in view.seats if s.knocked_out]
    g.totals = {s.player: s.total for s in view.seats}
    g.round_number = view.round_number
    g.dealer = view.dealer
    g.held = {}
    dealt = 0
    for s in in_round:
        if s.player == me:
            g.held[me] = Hand(c.face for c in view.hand)
            continue
        faces = hands.get(s.player, [])[: s.cards]
        more = s.cards - len(faces)
        g.held[s.player] = Hand(faces + unseen[dealt : dealt + more])
        dealt += more
    g.pile = unseen[dealt:]
    g.discards = [c.face for c in view.discard]
    g.color_index = COLOR_INDEX[view.color]
    g.direction = view.direction
    g.turn = g.seats.index(view.current_player)  # (seats in table order, not dealing order)
    g.decision = view.decision
    g.steps = list(view.steps)
    g.penalty = view.penalty
    g.penalty_kind = view.penalty_kind
    g.drawn_face = view.drawn.face if view.drawn is not None else -1
    if view.wd4_offender is not None and view.wd4_offender in g.held:
        g.wd4_record = _wd4_record(g, view.wd4_offender, COLOR_INDEX[view.wd4_color_before])
    g.at_risk = [s.player for s in in_round if s.at_risk]
    g.skip_next = list(view.skip_next)
    g.jump_open = True
    g.version = view.version
    g.seed = rng.getrandbits(63)
    return g


def _wd4_record(g: GameState, offender: int, color_before: int) -> tuple[int, int, bool]:
    """The Wild Draw Four's record, its guilt judged on the sampled hand of its player."""
    mask = g.held[offender].mask
    rule = g.rules.wd4_rule
    if rule == "color":
        guilty = bool(mask & COLOR_MASK[color_before])
    elif rule == "no_playable" and len(g.discards) > 1:
        guilty = bool(mask & MATCH[g.discards[-2] * 5 + color_before])
    else:
        guilty = False
    return offender, color_before, guilty


def _last_play(view: PlayerView, me: int) -> tuple[int, int, int, int] | None:
    """Who just played the number card or plain wild on top, that face, the card before it and
    the colour then, when that is known: the player before the one to move played it unless it
    was the viewer or they drew since (then their `voids` say more), and a coloured card before
    it tells the colour then. Hands moved by a seven or a zero, or a jump-in, blur who held what."""
    rules = view.rules
    discard = view.discard
    if rules.seven_o or rules.jump_in or view.decision is not Decision.PLAY or len(discard) < 2:
        return None
    top, before = discard[-1], discard[-2]
    if not (top.is_number or top.face == WILD_FACE) or before.is_wild or view.color is None:
        return None
    order = [s.player for s in view.seats if s.in_round]
    current = view.current_player
    if current not in order:
        return None
    player = order[(order.index(current) - view.direction) % len(order)]
    if player == me or any(p == player for p, _, _ in view.voids):
        return None
    return player, top.face, before.face, COLOR_INDEX[before.color]


def _careful_play(
    hand: list[int], top: int, before: int, color: int, threatened: bool, two: bool
) -> bool:
    """Whether a careful player (the `hard` heuristic of ai.py) holding `hand` and `top` would
    have played `top` on `before` with `color` active: no playable card scores higher. Wilds
    are kept for last, action cards buy a turn (two players) or stop a player about to go out,
    and otherwise the colour held most goes first."""
    counts = [0] * (NO_COLOR + 1)
    for f in hand:
        counts[COLOR_OF[f]] += 1
    counts[COLOR_OF[top]] += 1
    playable = MATCH[before * 5 + color]

    def score(f: int) -> float:
        if IS_WILD[f]:
            return -5.0 if threatened else -30.0
        s = counts[COLOR_OF[f]] * 3 + POINTS[f] / 10
        if RANK_OF[f] in ACTIONS:
            s += (6 if two else 2) + (20 if threatened else 0)
        return s

    best = score(top)
    return all(score(f) <= best for f in hand if BIT[f] & playable)


def _most_held(faces: list[int], color: int) -> bool:
    """Whether no colour is held more often than `color` in `faces`."""
    counts = [0] * (NO_COLOR + 1)
    for f in faces:
        counts[COLOR_OF[f]] += 1
    return counts[color] >= max(counts[:NO_COLOR])
