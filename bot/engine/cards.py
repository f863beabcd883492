"""Colours, ranks and cards, with short stable codes ("R7", "GS", "W4") and readable names.

Every distinct card exists once (cards are interned), so comparing and hashing cards is as cheap as
comparing integers; a deck is a list of these shared instances. Each card also has a `face`, its
small integer (0-135, the order of `ALL_CARDS`), which is what the engine's core works with.

A `Card` is one side of a card. UNO Flip's cards have two (docs/playing.md): its light side uses
the classic colours and the classic faces where they exist (numbers 1-9, Skip, Reverse, Wild)
plus Draw One ("RD1"), Flip ("RF") and Wild Draw Two ("W2"); its dark side has colours of its
own, pink "P", teal "T", orange "O" and purple "V", with numbers 1-9, Draw Five ("PD5"), Reverse
("PR"), Skip Everyone ("PSE"), Flip ("PF"), the dark Wild ("WK") and Wild Draw Colour ("WDC").
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Color(StrEnum):
    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"
    # UNO Flip's dark side (deck flip112): colours of their own, each in the place of a light
    # one (pink for red, teal for yellow, orange for green, purple for blue: the same colour
    # index in the core, faces.py). Purple is "V" (violet): "P" is pink.
    PINK = "P"
    TEAL = "T"
    ORANGE = "O"
    PURPLE = "V"

    @property
    def label(self) -> str:
        return self.name.capitalize()

    @property
    def is_dark(self) -> bool:
        """A colour of UNO Flip's dark side."""
        return self in DARK_COLORS


#: The colours of every deck but UNO Flip's dark side (and of Flip's light side).
COLORS: Final = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
#: UNO Flip's dark side's colours, in the order of the light colours they stand beside.
DARK_COLORS: Final = (Color.PINK, Color.TEAL, Color.ORANGE, Color.PURPLE)


class Rank(StrEnum):
    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "D"
    WILD = "W"
    WILD_DRAW_FOUR = "W4"
    SWAP_HANDS = "WS"
    SHUFFLE_HANDS = "WX"
    CUSTOMIZABLE = "WC"
    # Show 'Em No Mercy (deck no_mercy168): after the classic ranks, so the classic faces keep
    # their numbers and a classic hand's mask stays below bit 57 (faces.py).
    DRAW_FOUR = "D4"  # coloured
    SKIP_EVERYONE = "SE"
    DISCARD_ALL = "DA"
    WILD_REVERSE_DRAW_FOUR = "WR4"
    WILD_DRAW_SIX = "W6"
    WILD_DRAW_TEN = "W10"
    WILD_COLOR_ROULETTE = "WCR"
    # UNO Flip (deck flip112), after No Mercy's ranks (faces 73-135). Its light side also uses
    # the classic numbers, Skip, Reverse and Wild; its dark side the numbers, Reverse, No
    # Mercy's Skip Everyone and these.
    DRAW_ONE = "D1"  # light, coloured
    FLIP = "F"  # both sides, coloured
    WILD_DRAW_TWO = "W2"  # light
    DRAW_FIVE = "D5"  # dark, coloured
    DARK_WILD = "WK"  # dark: the dark side's plain Wild ("K" as in the black of CMYK)
    WILD_DRAW_COLOR = "WDC"  # dark

    @property
    def is_number(self) -> bool:
        return self.value.isdigit()

    @property
    def is_wild(self) -> bool:
        return self.value.startswith("W")

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]

    @property
    def points(self) -> int:
        if self.is_number:
            return int(self.value)
        if self is Rank.DRAW_ONE:  # UNO Flip's light Draw One
            return 10
        if not self.is_wild:  # Skip, Reverse, Draw Two, and No Mercy's coloured actions
            return 20
        if self in (Rank.WILD, Rank.WILD_DRAW_FOUR, Rank.WILD_DRAW_TWO) or self in NO_MERCY_RANKS:
            return 50
        if self is Rank.WILD_DRAW_COLOR:
            return 60
        return 40  # Swap/Shuffle Hands, Customizable, Flip's dark Wild


_RANK_LABELS: Final = {
    **{r: r.value for r in Rank if r.value.isdigit()},
    Rank.SKIP: "Skip",
    Rank.REVERSE: "Reverse",
    Rank.DRAW_TWO: "Draw Two",
    Rank.WILD: "Wild",
    Rank.WILD_DRAW_FOUR: "Wild Draw Four",
    Rank.SWAP_HANDS: "Wild Swap Hands",
    Rank.SHUFFLE_HANDS: "Wild Shuffle Hands",
    Rank.CUSTOMIZABLE: "Wild Customizable",
    Rank.DRAW_FOUR: "Draw Four",
    Rank.SKIP_EVERYONE: "Skip Everyone",
    Rank.DISCARD_ALL: "Discard All",
    Rank.WILD_REVERSE_DRAW_FOUR: "Wild Reverse Draw Four",
    Rank.WILD_DRAW_SIX: "Wild Draw Six",
    Rank.WILD_DRAW_TEN: "Wild Draw Ten",
    Rank.WILD_COLOR_ROULETTE: "Wild Color Roulette",
    Rank.DRAW_ONE: "Draw One",
    Rank.FLIP: "Flip",
    Rank.WILD_DRAW_TWO: "Wild Draw Two",
    Rank.DRAW_FIVE: "Draw Five",
    Rank.DARK_WILD: "Dark Wild",
    Rank.WILD_DRAW_COLOR: "Wild Draw Color",
}

#: The ranks only Show 'Em No Mercy's deck has.
NO_MERCY_RANKS: Final = (
    Rank.DRAW_FOUR,
    Rank.SKIP_EVERYONE,
    Rank.DISCARD_ALL,
    Rank.WILD_REVERSE_DRAW_FOUR,
    Rank.WILD_DRAW_SIX,
    Rank.WILD_DRAW_TEN,
    Rank.WILD_COLOR_ROULETTE,
)
#: The ranks only UNO Flip's deck has (its light side's, then its dark side's).
FLIP_RANKS: Final = (
    Rank.DRAW_ONE,
    Rank.FLIP,
    Rank.WILD_DRAW_TWO,
    Rank.DRAW_FIVE,
    Rank.DARK_WILD,
    Rank.WILD_DRAW_COLOR,
)
COLORED_RANKS: Final = tuple(
    r for r in Rank if not r.is_wild and r not in NO_MERCY_RANKS and r not in FLIP_RANKS
)
WILD_RANKS: Final = tuple(
    r for r in Rank if r.is_wild and r not in NO_MERCY_RANKS and r not in FLIP_RANKS
)
NO_MERCY_COLORED_RANKS: Final = tuple(r for r in NO_MERCY_RANKS if not r.is_wild)
NO_MERCY_WILD_RANKS: Final = tuple(r for r in NO_MERCY_RANKS if r.is_wild)
#: UNO Flip's sides: the coloured ranks (1-9, then the actions) and the wilds of each.
FLIP_LIGHT_COLORED_RANKS: Final = (
    *COLORED_RANKS[1:10],
    Rank.DRAW_ONE,
    Rank.REVERSE,
    Rank.SKIP,
    Rank.FLIP,
)
FLIP_LIGHT_WILD_RANKS: Final = (Rank.WILD, Rank.WILD_DRAW_TWO)
FLIP_DARK_COLORED_RANKS: Final = (
    *COLORED_RANKS[1:10],
    Rank.DRAW_FIVE,
    Rank.REVERSE,
    Rank.SKIP_EVERYONE,
    Rank.FLIP,
)
FLIP_DARK_WILD_RANKS: Final = (Rank.DARK_WILD, Rank.WILD_DRAW_COLOR)


class Card:
    """One card face. Use `Card.of(code)` or `card(color, rank)`; instances are unique per face."""

    __slots__ = ("code", "color", "face", "is_number", "is_wild", "points", "rank")

    color: Color | None
    rank: Rank
    code: str
    is_wild: bool
    is_number: bool
    points: int
    face: int  # the index in ALL_CARDS (see faces.py)

    def __init__(self, color: Color | None, rank: Rank) -> None:
        object.__setattr__(self, "color", color)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "code", (color.value if color else "") + rank.value)
        object.__setattr__(self, "is_wild", rank.is_wild)
        object.__setattr__(self, "is_number", rank.is_number)
        # (Flip's dark Skip Everyone scores 30, No Mercy's 20: the one rank scored by side)
        dark_skip_everyone = rank is Rank.SKIP_EVERYONE and color is not None and color.is_dark
        object.__setattr__(self, "points", 30 if dark_skip_everyone else rank.points)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.of, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    @staticmethod
    def of(code: str) -> Card:
        """The card with this short code; raises ValueError for an unknown code."""
        try:
            return _BY_CODE[code.upper()]
        except KeyError:
            raise ValueError(f"unknown card code {code!r}") from None

    @property
    def name(self) -> str:
        if self.color is None:
            return self.rank.label
        return f"{self.color.label} {self.rank.label}"

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.name

    def __lt__(self, other: Card) -> bool:
        return SORT_KEY[self] < SORT_KEY[other]


_BY_CODE: dict[str, Card] = {}
for _color in COLORS:
    for _rank in COLORED_RANKS:
        _c = Card(_color, _rank)
        _BY_CODE[_c.code] = _c
for _rank in WILD_RANKS:
    _c = Card(None, _rank)
    _BY_CODE[_c.code] = _c
for _color in COLORS:  # No Mercy's cards come after the classic ones (faces 57-72)
    for _nm_rank in NO_MERCY_COLORED_RANKS:
        _c = Card(_color, _nm_rank)
        _BY_CODE[_c.code] = _c
for _nm_rank in NO_MERCY_WILD_RANKS:
    _c = Card(None, _nm_rank)
    _BY_CODE[_c.code] = _c
# UNO Flip's new faces (73-135): the light side's Draw One and Flip, its Wild Draw Two, then
# every dark face (the light side's numbers, Skip, Reverse and Wild are the classic faces).
for _color in COLORS:
    for _flip_rank in (Rank.DRAW_ONE, Rank.FLIP):
        _c = Card(_color, _flip_rank)
        _BY_CODE[_c.code] = _c
_c = Card(None, Rank.WILD_DRAW_TWO)
_BY_CODE[_c.code] = _c
for _color in DARK_COLORS:
    for _flip_rank in FLIP_DARK_COLORED_RANKS:
        _c = Card(_color, _flip_rank)
        _BY_CODE[_c.code] = _c
for _flip_rank in FLIP_DARK_WILD_RANKS:
    _c = Card(None, _flip_rank)
    _BY_CODE[_c.code] = _c

ALL_CARDS: Final = tuple(_BY_CODE.values())
for _face, _c in enumerate(ALL_CARDS):
    object.__setattr__(_c, "face", _face)
#: The order a hand is shown in: by colour, each colour's ranks in `Rank` order, wilds last.
#: (The classic cards' order is their face order; No Mercy's and Flip's coloured cards join
#: their colour; Flip's dark colours come after the light ones.)
_ORDER: Final = (*COLORS, *DARK_COLORS, None)
SORT_KEY: Final = {c: (_ORDER.index(c.color), list(Rank).index(c.rank)) for c in ALL_CARDS}


def card(color: Color | None, rank: Rank) -> Card:
    """The unique card of this colour and rank (colour None for wilds)."""
    return _BY_CODE[(color.value if color else "") + rank.value]


def parse_cards(codes: str | list[str]) -> list[Card]:
    """Cards from codes: a list, or one string separated by spaces or commas."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return [Card.of(c) for c in codes]


def build_deck(kind: str) -> list[Card]:
    """An unshuffled deck: classic108, swap112 or shuffle112 (RULES.md section 1),
    no_mercy168 (Show 'Em No Mercy, docs/playing.md) or flip112 (UNO Flip: its light sides;
    each round pairs them with dark sides, flip.py)."""
    if kind not in _DECKS:
        _DECKS[kind] = _build_deck(kind)
    return list(_DECKS[kind])


_DECKS: dict[str, list[Card]] = {}


def _build_deck(kind: str) -> list[Card]:
    if kind == "no_mercy168":
        return _no_mercy_deck()
    if kind == "flip112":
        return flip_side_deck(dark=False)
    deck: list[Card] = []
    for color in COLORS:
        deck.append(card(color, Rank.ZERO))
        for rank in COLORED_RANKS[1:]:
            deck += [card(color, rank)] * 2
    deck += [card(None, Rank.WILD)] * 4 + [card(None, Rank.WILD_DRAW_FOUR)] * 4
    if kind == "swap112":
        deck += [card(None, Rank.SWAP_HANDS)] + [card(None, Rank.CUSTOMIZABLE)] * 3
    elif kind == "shuffle112":
        deck += [card(None, Rank.SHUFFLE_HANDS)] + [card(None, Rank.CUSTOMIZABLE)] * 3
    elif kind != "classic108":
        raise ValueError(f"unknown deck {kind!r}")
    return deck


#: Show 'Em No Mercy's deck per colour (besides two of each number 0-9) and its wilds: the
#: breakdown most often cited (the sheet gives none). 4 x (20 + 3 + 2 + 3 + 2 + 3 + 3) = 144
#: coloured cards and 8 + 4 + 4 + 8 = 24 wilds: 168.
NO_MERCY_PER_COLOR: Final = {
    Rank.DRAW_TWO: 3,
    Rank.DRAW_FOUR: 2,
    Rank.SKIP: 3,
    Rank.SKIP_EVERYONE: 2,
    Rank.REVERSE: 3,
    Rank.DISCARD_ALL: 3,
}
NO_MERCY_WILDS: Final = {
    Rank.WILD_REVERSE_DRAW_FOUR: 8,
    Rank.WILD_DRAW_SIX: 4,
    Rank.WILD_DRAW_TEN: 4,
    Rank.WILD_COLOR_ROULETTE: 8,
}


def _no_mercy_deck() -> list[Card]:
    """168 cards, in face order (as every deck: `faces.deck_bytes` relies on it)."""
    deck = [
        card(color, rank)
        for color in COLORS
        for rank in (*COLORED_RANKS, *NO_MERCY_COLORED_RANKS)
        for _ in range(2 if rank.is_number else NO_MERCY_PER_COLOR.get(rank, 0))
    ]
    deck += [card(None, rank) for rank, n in NO_MERCY_WILDS.items() for _ in range(n)]
    deck.sort(key=lambda c: c.face)
    return deck


def flip_side_deck(*, dark: bool) -> list[Card]:
    """One side of UNO Flip's 112 cards, in face order: per colour two each of 1-9 and of the
    side's four actions (104), and four of each of the side's two wilds (8)."""
    colors, colored, wilds = (
        (DARK_COLORS, FLIP_DARK_COLORED_RANKS, FLIP_DARK_WILD_RANKS)
        if dark
        else (COLORS, FLIP_LIGHT_COLORED_RANKS, FLIP_LIGHT_WILD_RANKS)
    )
    deck = [card(color, rank) for color in colors for rank in colored for _ in range(2)]
    deck += [card(None, rank) for rank in wilds for _ in range(4)]
    deck.sort(key=lambda c: c.face)
    return deck


def hand_points(hand: list[Card]) -> int:
    return sum(c.points for c in hand)
