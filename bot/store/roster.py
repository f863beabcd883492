"""A game's status, server and seats in one plain query: what scoring and counters need to know.

Scoring runs in the same unit of work as most saves, so it reads with one Core SELECT (games
joined to seats) instead of loading ORM objects with a second query for the seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.engine.game_kinds import CLASSIC
from bot.store.errors import GameNotFound
from bot.store.models import Game, GameStatus, Seat

_GAMES = Game.__table__
_SEATS = Seat.__table__

_ROSTER = (
    select(
        _GAMES.c.guild_id,
        _GAMES.c.status,
        _GAMES.c.rated,
        _GAMES.c.kind,
        _SEATS.c.user_id,
        _SEATS.c.display_name,
        _SEATS.c.is_bot,
        _SEATS.c.left_at,
        _SEATS.c.kicked,
        _SEATS.c.bot_level,
    )
    .select_from(_GAMES.outerjoin(_SEATS, _SEATS.c.game_id == _GAMES.c.id))
    .where(_GAMES.c.id == bindparam("game"))
)
# PostgreSQL locks the game row only (seats are the nullable side of the join); SQLite has no
# row locks and its writers are serialised anyway.
_ROSTER_LOCKED = _ROSTER.with_for_update(of=_GAMES)


@dataclass(frozen=True, slots=True)
class RosterSeat:
    user_id: int
    display_name: str
    is_bot: bool
    left_at: datetime | None
    kicked: bool = False
    bot_level: str | None = None


@dataclass(frozen=True, slots=True)
class Roster:
    game_id: int
    guild_id: int
    status: GameStatus
    seats: dict[int, RosterSeat]
    rated: bool = True
    game: str = CLASSIC  # which game (bot/engine/game_kinds.py): whose totals and ratings


async def load_roster(session: AsyncSession, game_id: int, *, lock: bool = False) -> Roster:
    """The game's roster (its row locked on PostgreSQL if asked); GameNotFound if none."""
    rows = (await session.execute(_ROSTER_LOCKED if lock else _ROSTER, {"game": game_id})).all()
    if not rows:
        raise GameNotFound(game_id)
    seats = {
        row.user_id: RosterSeat(
            row.user_id,
            row.display_name,
            row.is_bot,
            row.left_at,
            bool(row.kicked),
            row.bot_level,
        )
        for row in rows
        if row.user_id is not None
    }
    first = rows[0]
    return Roster(
        game_id, first.guild_id, GameStatus(first.status), seats, bool(first.rated), first.kind
    )
