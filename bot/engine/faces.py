"""Cards as small integers, and the bitmasks that make legality one AND.

The core keeps every card as its face (0-135, the order of `cards.ALL_CARDS`: four colours of
thirteen ranks, then the five wild ranks, then Show 'Em No Mercy's cards: four colours of three
ranks and four wilds, then UNO Flip's: the light side's Draw One and Flip of four colours, its
Wild Draw Two, the dark side's four colours of thirteen ranks and its two wilds; a classic
hand's mask stays below bit 57) and every hand as counts plus
a mask of faces held (`hand.Hand`). `Card` stays the readable value at the engine's boundary:
`CARDS[face]` and `card.face` convert. Like python-chess's squares and bitboards, this file is
the only place that knows the numbering.
"""

from __future__ import annotations

from typing import Final

from .cards import ALL_CARDS, COLORS, DARK_COLORS, Card, Color, Rank, build_deck

CARDS: Final = ALL_CARDS
FACES: Final = len(CARDS)
CODES: Final = tuple(c.code for c in CARDS)
BIT: Final = tuple(1 << f for f in range(FACES))

#: Colours as 0-3 (red, yellow, green, blue); a wild has NO_COLOR, as has "no colour named yet".
#: UNO Flip's dark colours share the indices of the light ones they stand beside (pink 0, teal
#: 1, orange 2, purple 3): only one side is ever in play, so an index is a colour of that side.
NO_COLOR: Final = 4
COLOR_INDEX: Final[dict[Color | None, int]] = (
    {c: i for i, c in enumerate(COLORS)} | {c: i for i, c in enumerate(DARK_COLORS)} | {None: 4}
)
COLOR_OF_INDEX: Final[tuple[Color | None, ...]] = (*COLORS, None)
DARK_COLOR_OF_INDEX: Final[tuple[Color | None, ...]] = (*DARK_COLORS, None)
#: SIDE_COLORS[side][index]: the colour an index stands for on UNO Flip's side (0 light, 1 dark).
SIDE_COLORS: Final = (COLOR_OF_INDEX, DARK_COLOR_OF_INDEX)

RANKS: Final = tuple(Rank)
RANK_INDEX: Final = {r: i for i, r in enumerate(RANKS)}
SKIP, REVERSE, DRAW_TWO = RANK_INDEX[Rank.SKIP], RANK_INDEX[Rank.REVERSE], RANK_INDEX[Rank.DRAW_TWO]
WILD, WILD_DRAW_FOUR = RANK_INDEX[Rank.WILD], RANK_INDEX[Rank.WILD_DRAW_FOUR]
SWAP_HANDS, SHUFFLE_HANDS = RANK_INDEX[Rank.SWAP_HANDS], RANK_INDEX[Rank.SHUFFLE_HANDS]
CUSTOMIZABLE = RANK_INDEX[Rank.CUSTOMIZABLE]
ZERO, SEVEN = RANK_INDEX[Rank.ZERO], RANK_INDEX[Rank.SEVEN]
DRAW_FOUR, SKIP_EVERYONE = RANK_INDEX[Rank.DRAW_FOUR], RANK_INDEX[Rank.SKIP_EVERYONE]
DISCARD_ALL = RANK_INDEX[Rank.DISCARD_ALL]
WILD_REVERSE_DRAW_FOUR = RANK_INDEX[Rank.WILD_REVERSE_DRAW_FOUR]
WILD_DRAW_SIX, WILD_DRAW_TEN = RANK_INDEX[Rank.WILD_DRAW_SIX], RANK_INDEX[Rank.WILD_DRAW_TEN]
WILD_COLOR_ROULETTE = RANK_INDEX[Rank.WILD_COLOR_ROULETTE]
DRAW_ONE, FLIP = RANK_INDEX[Rank.DRAW_ONE], RANK_INDEX[Rank.FLIP]
WILD_DRAW_TWO, DRAW_FIVE = RANK_INDEX[Rank.WILD_DRAW_TWO], RANK_INDEX[Rank.DRAW_FIVE]
DARK_WILD, WILD_DRAW_COLOR = RANK_INDEX[Rank.DARK_WILD], RANK_INDEX[Rank.WILD_DRAW_COLOR]
#: The first of No Mercy's ranks: every rank index from here on is one of them or Flip's.
NO_MERCY_RANK = DRAW_FOUR
#: The first of UNO Flip's ranks: every rank index from here on is one of them.
FLIP_RANK = DRAW_ONE
#: Cards a draw card makes the next player draw, by rank index (0: not a draw card).
DRAW_VALUE: Final = tuple(
    {
        Rank.DRAW_TWO: 2,
        Rank.WILD_DRAW_FOUR: 4,
        Rank.DRAW_FOUR: 4,
        Rank.WILD_REVERSE_DRAW_FOUR: 4,
        Rank.WILD_DRAW_SIX: 6,
        Rank.WILD_DRAW_TEN: 10,
        Rank.DRAW_ONE: 1,
        Rank.WILD_DRAW_TWO: 2,
        Rank.DRAW_FIVE: 5,
    }.get(r, 0)
    for r in RANKS
)

#: Per face: colour index, rank index, points, and whether it is a wild / a number card.
COLOR_OF: Final = tuple(COLOR_INDEX[c.color] for c in CARDS)
RANK_OF: Final = tuple(RANK_INDEX[c.rank] for c in CARDS)
POINTS: Final = tuple(c.points for c in CARDS)
#: Points in UNO Flip, where the light side's Wild (the classic face) scores 40, not 50.
FLIP_POINTS: Final = tuple(40 if c.code == "W" else c.points for c in CARDS)
IS_WILD: Final = tuple(c.is_wild for c in CARDS)
IS_NUMBER: Final = tuple(c.is_number for c in CARDS)

W4: Final = Card.of("W4").face
W4_BIT: Final = BIT[W4]
#: The wilds that are legal only without a card of the active colour and may be challenged:
#: the Wild Draw Four, and UNO Flip's Wild Draw Two and Wild Draw Colour (one rule for all).
CHALLENGED_WILDS: Final = W4_BIT | BIT[Card.of("W2").face] | BIT[Card.of("WDC").face]
WILD_MASK: Final = sum(BIT[f] for f in range(FACES) if IS_WILD[f])
#: Wilds that are legal at any time (every wild but those of CHALLENGED_WILDS).
FREE_WILD_MASK: Final = WILD_MASK & ~CHALLENGED_WILDS
NUMBER_MASK: Final = sum(BIT[f] for f in range(FACES) if IS_NUMBER[f])
COLOR_MASK: Final = tuple(
    sum(BIT[f] for f in range(FACES) if COLOR_OF[f] == c) for c in range(NO_COLOR + 1)
)
RANK_MASK: Final = tuple(
    sum(BIT[f] for f in range(FACES) if RANK_OF[f] == r) for r in range(len(RANKS))
)
D2_MASK: Final = RANK_MASK[DRAW_TWO]
#: Skips and Reverses: what passes a draw stack on under `stack_deflect`.
SKIP_REVERSE_MASK: Final = RANK_MASK[SKIP] | RANK_MASK[REVERSE]
#: STACKS_ON[v]: the draw cards worth v or more (No Mercy's stacking: equal or higher value).
STACKS_ON: Final = tuple(
    sum(BIT[f] for f in range(FACES) if DRAW_VALUE[RANK_OF[f]] >= v) for v in range(11)
)


def _match(top: int, color: int) -> int:
    """Faces playable on `top` with `color` active, the challenged wilds left out."""
    mask = FREE_WILD_MASK
    if color != NO_COLOR:
        mask |= COLOR_MASK[color]
    if not IS_WILD[top]:
        mask |= RANK_MASK[RANK_OF[top]]
    return mask & ~CHALLENGED_WILDS


#: MATCH[top * 5 + color]: what matches a top card under an active colour (RULES.md section 3).
MATCH: Final = tuple(_match(top, color) for top in range(FACES) for color in range(NO_COLOR + 1))

_DECKS: dict[str, tuple[int, ...]] = {}


def deck_faces(kind: str) -> list[int]:
    """An unshuffled deck as faces (the order of `cards.build_deck`)."""
    if kind not in _DECKS:
        _DECKS[kind] = tuple(c.face for c in build_deck(kind))
    return list(_DECKS[kind])


def deck_size(kind: str) -> int:
    """How many cards the deck has (without building its list: `Game.new` asks every match)."""
    if kind not in _DECKS:
        deck_faces(kind)
    return len(_DECKS[kind])


_DECK_BYTES: dict[str, bytes | None] = {}


def deck_bytes(kind: str) -> bytes | None:
    """The unshuffled deck as bytes of faces when they ascend (every deck's do: `build_deck`
    lists cards in face order), for the deal's shortcut (`seeds.shuffled_ascending`); None
    for a deck that would not."""
    if kind not in _DECK_BYTES:
        faces = deck_faces(kind)
        _DECK_BYTES[kind] = bytes(faces) if faces == sorted(faces) else None
    return _DECK_BYTES[kind]


def faces_of(mask: int) -> list[int]:
    """The faces whose bits are set in `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
