"""The chance to win a round from where an expert's playout stops, by the cards held.

A playout cut short scores `value(...)` instead of a win or a loss, which keeps the lookahead
and drops most of the noise of the rest of the round. The tables are fitted from self-play by
tools/fit_values.py, which writes them to value_tables.py.
"""

from __future__ import annotations

from typing import Final

from .value_tables import TEXT

#: Card counts from CAP up share one row and column.
CAP: Final = 15
#: Table sizes (players in the round) that have a table.
PLAYERS: Final = (2, 3, 4)


def cell(mine: int, fewest: int, moving: bool) -> int:
    """The index of (whether it is my turn, cards held, fewest cards held by another)."""
    return (moving * (CAP + 1) + min(mine, CAP)) * (CAP + 1) + min(fewest, CAP)


def value(players: int, mine: int, fewest: int, moving: bool) -> float:
    """P(win) for that situation at a table of `players` (a table size in PLAYERS)."""
    return TABLES[players][cell(mine, fewest, moving)]


def _parse(text: str) -> tuple[float, ...]:
    return tuple(int(n) / 1000 for n in text.split())


#: P(win) per table size, indexed by `cell`.
TABLES: Final[dict[int, tuple[float, ...]]] = {p: _parse(TEXT[p]) for p in PLAYERS}
