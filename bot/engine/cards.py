"""Colours, ranks and cards, with short stable codes ("R7", "GS", "W4") and readable names.

Every distinct card exists once (cards are interned), so comparing and hashing cards is as cheap as
comparing integers; a deck is a list of these shared instances. Each card also has a `face`, its
small integer (0-56, the order of `ALL_CARDS`), which is what the engine's core works with.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Color(StrEnum):
    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    @property
    def label(self) -> str:
        return self.name.capitalize()


COLORS: Final = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)


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
        if self in (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO):
            return 20
        if self in (Rank.WILD, Rank.WILD_DRAW_FOUR):
            return 50
        return 40


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
}

COLORED_RANKS: Final = tuple(r for r in Rank if not r.is_wild)
WILD_RANKS: Final = tuple(r for r in Rank if r.is_wild)


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
        object.__setattr__(self, "points", rank.points)

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

ALL_CARDS: Final = tuple(_BY_CODE.values())
for _face, _c in enumerate(ALL_CARDS):
    object.__setattr__(_c, "face", _face)
SORT_KEY: Final = {c: i for i, c in enumerate(ALL_CARDS)}


def card(color: Color | None, rank: Rank) -> Card:
    """The unique card of this colour and rank (colour None for wilds)."""
    return _BY_CODE[(color.value if color else "") + rank.value]


def parse_cards(codes: str | list[str]) -> list[Card]:
    """Cards from codes: a list, or one string separated by spaces or commas."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return [Card.of(c) for c in codes]


def build_deck(kind: str) -> list[Card]:
    """An unshuffled deck: classic108, swap112 or shuffle112 (RULES.md section 1)."""
    if kind not in _DECKS:
        _DECKS[kind] = _build_deck(kind)
    return list(_DECKS[kind])


_DECKS: dict[str, list[Card]] = {}


def _build_deck(kind: str) -> list[Card]:
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


def hand_points(hand: list[Card]) -> int:
    return sum(c.points for c in hand)
