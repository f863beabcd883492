"""Computer players. They decide from a `PlayerView` only: their own hand and public facts.

`RandomPlayer` plays a random legal card (drawing only when it has none), like the random agents
of RL toolkits. `HeuristicPlayer` plays like a decent human: it keeps wilds for later, aims
action cards at players about to go out, names its strongest colour, challenges a Wild Draw Four
when a bluff is likely, calls UNO and catches others. Its `level` sets how often it slips: easy
and normal also play careless cards and colours. In Show 'Em No Mercy it judges cards and stacks
by that game's own measure (no_mercy_ai.py). `expert` (search.py) thinks ahead by sampling.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from . import actions as A
from . import no_mercy_ai
from .cards import COLORS, DARK_COLORS, Card, Color, Rank
from .search import ExpertPlayer
from .state import Decision
from .view import PlayerView

LEVELS = ("easy", "normal", "hard", "expert")


def is_computer(player: int) -> bool:
    """Whether a seat is played by the engine: computer players sit under negative ids, which
    no Discord snowflake ever is, so every layer can tell them apart by the id alone."""
    return player < 0


def next_computer_id(seated: Iterable[int]) -> int:
    """The id for one more computer player at a table where `seated` sit: below every other."""
    return min((p for p in seated if is_computer(p)), default=0) - 1


# How often a level forgets to call UNO / misses a catch it could make.
_FORGET = {"easy": 0.35, "normal": 0.12, "hard": 0.0}
_MISS_CATCH = {"easy": 0.6, "normal": 0.25, "hard": 0.0}
# How often a level plays any playable card instead of the one it judges best, names a colour
# at random, and ignores a likely bluff: the levels differ in play, not only in memory.
_CARELESS = {"easy": 0.8, "normal": 0.35, "hard": 0.0}


class Player(Protocol):
    def choose(self, view: PlayerView) -> A.Action | None:
        """The action to take now, or None to do nothing (only when it is not their turn)."""


@dataclass
class RandomPlayer:
    rng: random.Random = field(default_factory=random.Random)

    def choose(self, view: PlayerView) -> A.Action | None:
        if not view.my_turn:
            return None
        legal = view.legal
        plays = [a for a in legal if isinstance(a, A.Play)]
        if plays:
            return self.rng.choice(plays)
        options = [a for a in legal if not isinstance(a, A.Catch | A.CallUno)]
        return self.rng.choice(options) if options else None


@dataclass
class HeuristicPlayer:
    level: str = "hard"
    rng: random.Random = field(default_factory=random.Random)
    #: How it judges a card in Show 'Em No Mercy (no_mercy_ai.py).
    no_mercy: no_mercy_ai.Weights = no_mercy_ai.WEIGHTS

    def choose(self, view: PlayerView) -> A.Action | None:
        legal = view.legal
        if not legal:
            return None
        if A.CALL_UNO in legal and not self._slips(_FORGET):
            return A.CALL_UNO
        catches = [a for a in legal if isinstance(a, A.Catch) and view.seat(a.target).at_risk]
        if catches and not self._slips(_MISS_CATCH):
            return catches[0]
        if not view.my_turn:
            jump_ins = [a for a in legal if isinstance(a, A.Play) and a.uno == _uno_due(view)]
            return jump_ins[0] if jump_ins else None
        decision = view.decision
        if decision is Decision.NEXT_ROUND:
            return A.NEXT_ROUND
        if decision is Decision.CHOOSE_COLOR:
            if self._slips(_CARELESS):
                return A.ChooseColor(self.rng.choice(side_colors(view)))
            if "roulette" in view.steps:  # we turn cards until it comes: the likeliest colour
                return A.ChooseColor(likeliest_color(view))
            return A.ChooseColor(best_color(view.hand, side_colors(view)))
        if decision is Decision.CHOOSE_TARGET:
            return A.ChooseTarget(self._swap_target(view))
        if decision is Decision.RESPOND:
            return self._respond(view)
        if decision is Decision.PLAY_DRAWN:
            drawn = view.drawn
            assert drawn is not None  # our own turn (not ours returned above): the card we drew
            if not (drawn.is_wild and len(view.hand) > 3):
                return self._play(view, drawn, legal)
            return A.KEEP if A.KEEP in legal else self._play(view, drawn, legal)
        cards = [a.card for a in legal if isinstance(a, A.Play) and not a.uno]
        if not cards:
            return A.DRAW if A.DRAW in legal else A.PASS
        if self._slips(_CARELESS):
            return self._play(view, self.rng.choice(cards), legal)
        return self._play(view, self._pick_card(view, cards), legal)

    def _slips(self, table: dict[str, float]) -> bool:
        return self.rng.random() < table.get(self.level, 0.0)

    def _play(self, view: PlayerView, card: Card, legal: tuple[A.Action, ...]) -> A.Action:
        with_uno = A.Play(card, uno=True)
        if with_uno in legal and not self._slips(_FORGET):
            return with_uno
        return A.Play(card)

    def _pick_card(self, view: PlayerView, cards: list[Card]) -> Card:
        if no_mercy_ai.applies(view.rules):
            return no_mercy_ai.pick_card(view, cards, self.no_mercy)
        hand = view.hand
        # Keyed by `Card.color`, None included (a wild's colour, never counted: 0).
        colors: Counter[Color | None] = Counter(c.color for c in hand if c.color is not None)
        nxt = _next_opponent(view)
        threatened = nxt is not None and view.seat(nxt).cards <= 2

        def score(card: Card) -> float:
            s = 0.0
            if card.is_wild:
                s -= 30  # keep wilds as a way out
                if card.rank is Rank.WILD_DRAW_FOUR:
                    s -= 10
                    if view.color is not None and any(c.color is view.color for c in hand):
                        s -= 15  # a bluff: only when little else is left
                if threatened:
                    s += 25
            else:
                s += colors[card.color] * 3  # stay in the colour we hold most
                s += card.points / 10  # shed points
                if card.rank in _ACTION_RANKS:
                    s += 6 if len(view.seats) == 2 else 2  # in 2-player they are extra turns
                    if threatened:
                        s += 20
            return s

        return max(cards, key=score)

    def _respond(self, view: PlayerView) -> A.Action:
        if no_mercy_ai.applies(view.rules):
            return no_mercy_ai.respond(view, self.no_mercy)
        legal = view.legal
        stacks = [a for a in legal if isinstance(a, A.Play) and not a.uno]
        if stacks:
            return stacks[0]
        if A.CHALLENGE in legal and not self._slips(_CARELESS) and self._bluff_likely(view):
            return A.CHALLENGE
        return A.ACCEPT

    def _bluff_likely(self, view: PlayerView) -> bool:
        """Estimate whether the Wild Draw Four's player held the colour that was active."""
        offender = view.wd4_offender
        before = view.wd4_color_before
        if offender is None or before is None:
            return False
        held = view.seat(offender).cards
        mine = sum(1 for c in view.hand if c.color is before)
        # About 25 cards per colour in 108; what we hold cannot be in the offender's hand.
        share = max(0.0, (25 - mine - 1) / 100)
        p_guilty = 1 - (1 - share) ** held
        # Accepting costs 4; challenging wins 4 (and costs them 4) or costs 2 more.
        return p_guilty * 8 > (1 - p_guilty) * 2 + (1.5 if self.level == "easy" else 0)

    def _swap_target(self, view: PlayerView) -> int:
        others = [s for s in view.seats if s.in_round and s.player != view.viewer]
        return min(others, key=lambda s: (s.cards, s.player)).player


#: Coloured cards that hurt the next player or give an extra turn.
_ACTION_RANKS = frozenset(
    (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO, Rank.DRAW_FOUR, Rank.SKIP_EVERYONE)
)


def likeliest_color(view: PlayerView) -> Color:
    """The colour with the most cards the viewer has not seen (its hand and the discard pile
    are seen): the one a Colour Roulette turns up soonest."""
    seen = Counter(c.color for c in (*view.hand, *view.discard) if c.color is not None)
    return min(side_colors(view), key=lambda col: seen[col])


def side_colors(view: PlayerView) -> tuple[Color, ...]:
    """The colours that may be named: UNO Flip's dark side's while it is in play."""
    return DARK_COLORS if view.dark else COLORS


def best_color(hand: tuple[Card, ...] | list[Card], colors: tuple[Color, ...] = COLORS) -> Color:
    """The colour worth naming: most cards, then most points (ties: R, Y, G, B)."""
    counts = Counter(c.color for c in hand if c.color is not None)
    points: Counter[Color] = Counter()
    for c in hand:
        if c.color is not None:
            points[c.color] += c.points
    return max(colors, key=lambda col: (counts[col], points[col]))


def _next_opponent(view: PlayerView) -> int | None:
    order = [s.player for s in view.seats if s.in_round]
    if view.viewer not in order:
        return None
    i = order.index(view.viewer)
    return order[(i + view.direction) % len(order)]


def _uno_due(view: PlayerView) -> bool:
    return len(view.hand) == 2


def make_player(kind: str, seed: int | None = None) -> Player:
    """`random`, a heuristic player of a level in LEVELS, or the searching `expert`."""
    rng = random.Random(seed)
    if kind == "random":
        return RandomPlayer(rng)
    if kind == "expert":
        return ExpertPlayer(rng=rng, prior=HeuristicPlayer("hard", rng).choose)
    if kind in LEVELS:
        return HeuristicPlayer(kind, rng)
    raise ValueError(f"unknown computer player {kind!r}")
