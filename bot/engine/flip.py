"""UNO Flip's two-sided cards: each round's pairing of the light and dark sides, and turning
everything over (docs/playing.md, "UNO Flip"; docs/records.md for the pairing's algorithm).

The core holds every card by the face of the side in play (hands, piles, the colour), as in
every other game; `GameState.flip_pairs[face]` is the other side of a card showing `face`, so a
Flip maps every card through it. The pairing is by kind: both copies of a coloured card (two
Red 7s) have the same other side, and so have the four of a wild. Which kinds pair is dealt by
the round's seed ("uno-flip-pairing-v1"): the 52 coloured light kinds with the 52 coloured dark
kinds, the two light wilds with the two dark wilds. A fixed pairing would tell every player the
hidden side of their own cards; dealt per round, it is as secret as the deal, and a record's
revealed seed lets anyone recompute it.
"""

from __future__ import annotations

from typing import Final

from . import events as E
from . import seeds
from .cards import Card, flip_side_deck
from .faces import CARDS, COLOR_OF, FACES, IS_WILD
from .hand import Hand
from .state import GameState

#: The deck whose cards have two sides (its pairing: "uno-flip-pairing-v1", docs/records.md).
FLIP_DECK: Final = "flip112"


def _kinds(dark: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """One side's distinct faces in face order: the coloured ones (52), the wilds (2)."""
    faces = sorted({c.face for c in flip_side_deck(dark=dark)})
    return tuple(f for f in faces if not IS_WILD[f]), tuple(f for f in faces if IS_WILD[f])


LIGHT_COLORED, LIGHT_WILDS = _kinds(dark=False)
DARK_COLORED, DARK_WILDS = _kinds(dark=True)
#: Every face of each side (0 light, 1 dark).
SIDE_FACES: Final = (
    frozenset(LIGHT_COLORED + LIGHT_WILDS),
    frozenset(DARK_COLORED + DARK_WILDS),
)


def pairing(seed: bytes) -> tuple[int, ...]:
    """The round's pairing: `other[face]` for every face (-1 for faces not in Flip's deck).

    The dark coloured kinds in face order are put in the order `seeds.labelled_order(52, seed,
    "flip-pairing")` gives, and the i-th light coloured kind (face order) pairs with the i-th
    of them; the two wilds likewise with the label "flip-pairing-wilds"."""
    other = [-1] * FACES
    for light, dark, label in (
        (LIGHT_COLORED, DARK_COLORED, b"flip-pairing"),
        (LIGHT_WILDS, DARK_WILDS, b"flip-pairing-wilds"),
    ):
        order = seeds.labelled_order(len(dark), seed, label)
        for face, k in zip(light, order, strict=True):
            other[face] = dark[k]
            other[dark[k]] = face
    return tuple(other)


def pairing_of(pairs: dict[Card, Card]) -> tuple[int, ...]:
    """A pairing from light cards to dark ones (tests set up a position with it; snapshots
    store it so), checked to pair every light kind with a dark kind of its sort once."""
    other = [-1] * FACES
    for light, dark in pairs.items():
        if light.face not in SIDE_FACES[0] or dark.face not in SIDE_FACES[1]:
            raise ValueError(f"{light.code}/{dark.code} is not a light and a dark face")
        if light.is_wild != dark.is_wild or other[dark.face] >= 0:
            raise ValueError(f"{light.code}/{dark.code} cannot pair")
        other[light.face] = dark.face
        other[dark.face] = light.face
    if any(other[f] < 0 for f in SIDE_FACES[0]):
        raise ValueError("every light face needs a dark one")
    return tuple(other)


def light_pairs(other: tuple[int, ...]) -> dict[Card, Card]:
    """`pairing_of`'s argument back: each light kind with its dark kind."""
    return {CARDS[f]: CARDS[other[f]] for f in sorted(SIDE_FACES[0])}


def turn_over(g: GameState, player: int | None, ev: list[E.Event] | None) -> None:
    """Flip: every hand, the draw pile and the discard pile turned over. A pile turned over
    lies in the opposite order: the discard pile's top card (the Flip) ends at its bottom and
    its bottom card, now showing its other side, is the new top; the colour becomes the new
    top card's (a wild: whoever flipped names one, resolve.py)."""
    other = g.flip_pairs
    g.side ^= 1
    held = g.held
    for p, hand in held.items():
        held[p] = Hand([other[f] for f in hand.faces()])
    g.pile = [other[f] for f in reversed(g.pile)]
    g.discards = [other[f] for f in reversed(g.discards)]
    top = g.discards[-1]
    g.color_index = COLOR_OF[top]
    g.drawn_face = -1
    g.wd4_record = None
    # What the table believed a player lacked was about the other side (determinize.py).
    g.voids = {}
    g.positions = {}
    if ev is not None:
        ev.append(E.SidesFlipped(player, bool(g.side), CARDS[top]))


def other_sides(g: GameState, player: int) -> list[Card]:
    """The other side of `player`'s cards, sorted: what everybody else sees of their hand."""
    hand = g.held.get(player)
    if hand is None or not g.flip_pairs:
        return []
    other = g.flip_pairs
    return sorted(CARDS[other[f]] for f in hand.faces())


def pile_back(g: GameState) -> Card | None:
    """The other side of the draw pile's top card: what everybody sees of the pile."""
    if not g.pile or not g.flip_pairs:
        return None
    return CARDS[g.flip_pairs[g.pile[-1]]]
