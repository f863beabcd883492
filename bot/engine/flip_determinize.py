"""One possible UNO Flip table behind a player's view (determinize.py's sampler for Flip).

In Flip a player sees more than in other games and less than it seems: the other side of every
opponent's card and of the draw pile's top card (`PlayerView.other_sides`, `pile_back`), never
the other side of their own cards, and not the round's pairing of the sides (flip.py). So the
sample draws a pairing first, one that fits what is seen: every other side in view is given a
kind of the side in play of the same sort (coloured or wild) of which enough copies are left
once the viewer's own cards and the discard pile are counted (two of each coloured kind, four
of each wild); the kinds nobody has seen both sides of pair at random. That pairing says what
the opponents hold and the pile's top card is; the rest of the cards, shuffled, are the pile.

Nothing is read from the real game: the pairing of the viewer's own cards is as unknown to the
sample as to the viewer (tests/engine/test_flip.py holds an expert to that). What earlier play
revealed (pairs a memory could have matched, who drew instead of playing) is not used.
"""

from __future__ import annotations

import random
from collections import Counter

from .faces import COLOR_INDEX, COLOR_MASK, FACES, IS_WILD
from .flip import DARK_COLORED, DARK_WILDS, LIGHT_COLORED, LIGHT_WILDS
from .game import Game
from .hand import Hand
from .state import GameState
from .view import PlayerView

#: Attempts at a pairing that fits before the sample gives up (a dead end is rare: it needs a
#: seen side whose every possible partner is used up by the random choices before it).
TRIES = 8


def copies(face: int) -> int:
    """How many cards of a kind Flip's deck has: four of a wild, two of a coloured card."""
    return 4 if IS_WILD[face] else 2


def sample_pairing(view: PlayerView, rng: random.Random) -> list[int] | None:
    """`other[face]` for every face, fitting `view` (None: no fitting pairing was found)."""
    dark = view.dark
    fronts_of = (DARK_COLORED, DARK_WILDS) if dark else (LIGHT_COLORED, LIGHT_WILDS)
    backs_of = (LIGHT_COLORED, LIGHT_WILDS) if dark else (DARK_COLORED, DARK_WILDS)
    known = Counter(c.face for c in (*view.hand, *view.discard))
    seen = Counter(c.face for _, cards in view.other_sides for c in cards)
    if view.pile_back is not None:
        seen[view.pile_back.face] += 1
    for _ in range(TRIES):
        other = [-1] * FACES
        for fronts, backs in zip(fronts_of, backs_of, strict=True):
            if not _pair_sort(fronts, backs, known, seen, other, rng):
                break
        else:
            return other
    return None


def _pair_sort(
    fronts: tuple[int, ...],
    backs: tuple[int, ...],
    known: Counter[int],
    seen: Counter[int],
    other: list[int],
    rng: random.Random,
) -> bool:
    """Pair one sort's kinds into `other`: the seen backs first (most seen first), each with a
    front of which enough copies are left (drawn at random among the free fronts until one
    fits: uniform among those that fit), then the rest at random."""
    free = list(fronts)
    each = copies(fronts[0])  # (a sort's kinds have as many copies each)
    shown = [b for b in backs if seen[b]]
    rng.shuffle(shown)
    shown.sort(key=lambda b: -seen[b])
    for back in shown:
        room = each - seen[back]
        for _ in range(_DRAWS):
            i = rng.randrange(len(free))
            if known[free[i]] <= room:
                break
        else:
            fits = [k for k, f in enumerate(free) if known[f] <= room]
            if not fits:
                return False
            i = rng.choice(fits)
        front = free[i]
        free[i] = free[-1]
        free.pop()
        other[front], other[back] = back, front
    rest = [b for b in backs if not seen[b]]
    rng.shuffle(rest)
    for front, back in zip(free, rest, strict=True):
        other[front], other[back] = back, front
    return True


#: Random draws among the free fronts before `_pair_sort` lists those that fit.
_DRAWS = 8


def sample_flip_game(view: PlayerView, rng: random.Random) -> Game | None:
    """A Flip game consistent with `view` (None if its counts do not add up)."""
    me = view.viewer
    if me is None or view.current_player is None or view.top_card is None:
        return None
    other = sample_pairing(view, rng)
    if other is None:
        return None
    fronts = (DARK_COLORED + DARK_WILDS) if view.dark else (LIGHT_COLORED + LIGHT_WILDS)
    unseen = Counter({f: copies(f) for f in fronts})
    unseen.subtract(c.face for c in (*view.hand, *view.discard))
    hands: dict[int, list[int]] = {}
    for player, cards in view.other_sides:
        hands[player] = [other[c.face] for c in cards]
        unseen.subtract(hands[player])
    top = [other[view.pile_back.face]] if view.pile_back is not None else []
    unseen.subtract(top)
    if any(n < 0 for n in unseen.values()):
        return None
    pile = list(unseen.elements())
    if len(pile) + len(top) != view.draw_pile or len(view.discard) != view.discard_pile:
        return None
    rng.shuffle(pile)
    pile += top
    return _game(view, me, hands, pile, tuple(other), rng)


def _game(
    view: PlayerView,
    me: int,
    hands: dict[int, list[int]],
    pile: list[int],
    other: tuple[int, ...],
    rng: random.Random,
) -> Game:
    """The sampled table as a game (determinize.sample_game's fields, Flip's sides added)."""
    in_round = [s for s in view.seats if s.in_round]
    g = Game.__new__(Game)
    GameState.__init__(g)
    g.rules = view.rules
    g.players = [s.player for s in view.seats]
    g.seats = [s.player for s in in_round]
    g.left = [s.player for s in view.seats if s.left]
    g.eliminated = [s.player for s in view.seats if not s.in_round and not s.left]
    g.totals = {s.player: s.total for s in view.seats}
    g.round_number = view.round_number
    g.dealer = view.dealer
    g.held = {s.player: Hand(hands.get(s.player, [])) for s in in_round}
    g.held[me] = Hand(c.face for c in view.hand)
    g.pile = pile
    g.discards = [c.face for c in view.discard]
    g.color_index = COLOR_INDEX[view.color]
    g.direction = view.direction
    g.turn = g.seats.index(view.current_player) if view.current_player is not None else 0
    g.decision = view.decision
    g.steps = list(view.steps)
    g.penalty = view.penalty
    g.penalty_kind = view.penalty_kind
    g.drawn_face = view.drawn.face if view.drawn is not None else -1
    if view.wd4_offender is not None and view.wd4_offender in g.held:
        # (guilt judged on the sampled hand, by the colour rule: held the colour before)
        before = COLOR_INDEX[view.wd4_color_before]
        guilty = bool(g.held[view.wd4_offender].mask & COLOR_MASK[before])
        g.wd4_record = (view.wd4_offender, before, guilty)
    g.at_risk = [s.player for s in in_round if s.at_risk]
    g.skip_next = list(view.skip_next)
    g.jump_open = True
    g.version = view.version
    g.seed = rng.getrandbits(63)
    g.side = 1 if view.dark else 0
    g.flip_pairs = other
    return g
