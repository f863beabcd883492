"""The chance to win a round from where an expert's playout stops, by the cards held.

A playout cut short scores `value(...)` instead of a win or a loss, which keeps the lookahead
and drops most of the noise of the rest of the round. Two tables per table size, fitted from
self-play by tools/fit_values.py (which writes them to value_tables.py): a coarse one by card
counts (my cards, fewest cards of another, whether it is my turn), and a correction for the
quality of the two hands that count most, by the wilds each holds (0, 1, 2 or more). Counts
alone cannot tell a hand of three with two wilds (nearly out) from three stranded cards; the
correction, fitted as the mean error of the coarse table per cell and shrunk towards 0 where
cells are rare, can.
"""

from __future__ import annotations

from typing import Final

from .faces import FACES, IS_WILD
from .hand import Hand
from .value_tables import QUALITY, TEXT

#: Card counts from CAP up share one row and column of the coarse table.
CAP: Final = 15
#: ... and from FINE_CAP up, of the correction by wilds.
FINE_CAP: Final = 10
#: Wilds held: 0, 1, or WILDS - 1 and more.
WILDS: Final = 3
#: Table sizes (players in the round) that have a table.
PLAYERS: Final = (2, 3, 4)
#: Faces of the wild cards of any deck.
WILD_FACES: Final = tuple(f for f in range(FACES) if IS_WILD[f])


def cell(mine: int, fewest: int, moving: bool) -> int:
    """The index of (whether it is my turn, cards held, fewest cards held by another)."""
    return (moving * (CAP + 1) + min(mine, CAP)) * (CAP + 1) + min(fewest, CAP)


def fine_cell(mine: int, fewest: int, moving: bool, my_wilds: int, their_wilds: int) -> int:
    """The index of the correction: the counts of `cell` (to FINE_CAP) and the wilds of each."""
    counts = (moving * (FINE_CAP + 1) + min(mine, FINE_CAP)) * (FINE_CAP + 1) + min(
        fewest, FINE_CAP
    )
    return (counts * WILDS + min(my_wilds, WILDS - 1)) * WILDS + min(their_wilds, WILDS - 1)


def wilds(hand: Hand) -> int:
    """How many wild cards `hand` holds."""
    counts = hand.counts
    return sum(counts[f] for f in WILD_FACES)


def coarse_value(players: int, mine: int, fewest: int, moving: bool) -> float:
    """P(win) by card counts alone at a table of `players` (a table size in PLAYERS)."""
    return TABLES[players][cell(mine, fewest, moving)]


def value(
    players: int, mine: int, fewest: int, moving: bool, my_wilds: int, their_wilds: int
) -> float:
    """P(win) for that situation, `their_wilds` held by the player with the fewest cards."""
    return (
        TABLES[players][cell(mine, fewest, moving)]
        + CORRECTIONS[players][fine_cell(mine, fewest, moving, my_wilds, their_wilds)]
    )


def _parse(text: str) -> tuple[float, ...]:
    return tuple(int(n) / 1000 for n in text.split())


#: P(win) per table size, indexed by `cell`.
TABLES: Final[dict[int, tuple[float, ...]]] = {p: _parse(TEXT[p]) for p in PLAYERS}
#: What to add to TABLES per table size, indexed by `fine_cell`.
CORRECTIONS: Final[dict[int, tuple[float, ...]]] = {p: _parse(QUALITY[p]) for p in PLAYERS}
