"""A hand as counts per face plus a bitmask of the faces held (and its size).

The mask answers "which faces does this hand hold" in one integer, so legality is an AND with a
match mask (faces.MATCH); the counts keep duplicates. A hand has no order: listed, it is sorted
by face, which is also how players see it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol

from .cards import Card
from .faces import BIT, CARDS, FACES, POINTS, faces_of


class Hand:
    __slots__ = ("counts", "mask", "size")

    def __init__(self, faces: Iterable[int] = ()) -> None:
        counts = [0] * FACES
        mask = size = 0
        for f in faces:
            counts[f] += 1
            mask |= BIT[f]
            size += 1
        self.counts = counts
        self.mask = mask
        self.size = size

    def add(self, face: int) -> None:
        self.counts[face] += 1
        self.mask |= BIT[face]
        self.size += 1

    def remove(self, face: int) -> None:
        counts = self.counts
        left = counts[face] - 1
        counts[face] = left
        if not left:
            self.mask ^= BIT[face]
        self.size -= 1

    def faces(self) -> list[int]:
        """Every card held, as faces, sorted (duplicates repeated)."""
        counts = self.counts
        return [f for f in faces_of(self.mask) for _ in range(counts[f])]

    def cards(self) -> list[Card]:
        return [CARDS[f] for f in self.faces()]

    def points(self, table: tuple[int, ...] = POINTS) -> int:
        """The hand's points, by `table` (faces.POINTS, or a game's own: faces.FLIP_POINTS)."""
        counts = self.counts
        mask = self.mask
        total = 0
        while mask:  # (`faces_of`, written out: every round's end scores every hand)
            low = mask & -mask
            face = low.bit_length() - 1
            total += table[face] * counts[face]
            mask ^= low
        return total

    def copy(self) -> Hand:
        other = Hand.__new__(Hand)
        other.counts = self.counts[:]
        other.mask = self.mask
        other.size = self.size
        return other


class HoldsHands(Protocol):
    held: dict[int, Hand]

    def touch(self) -> None: ...


class HandsView(Mapping[int, list[Card]]):
    """`Game.hands` at the boundary: each player's cards as a sorted list of `Card`.

    Reading gives copies; assigning a list of cards replaces a hand (tests set up positions so).
    """

    __slots__ = ("_state",)

    def __init__(self, state: HoldsHands) -> None:
        self._state = state

    def __getitem__(self, player: int) -> list[Card]:
        return self._state.held[player].cards()

    def __setitem__(self, player: int, cards: Iterable[Card]) -> None:
        self._state.held[player] = Hand(c.face for c in cards)
        self._state.touch()

    def __iter__(self) -> Iterator[int]:
        return iter(self._state.held)

    def __len__(self) -> int:
        return len(self._state.held)
