"""A server's game history: recent games, their rounds and their action logs (for audits).

Read-only queries, newest first where it matters; they never touch a live engine snapshot.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final

from sqlalchemy import BigInteger, cast, func, literal, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from bot.store.models import Game, GameAction, GameStatus, Round
from bot.store.records import ActionRecord, GameRecord, RoundRecord, game_record

#: Statuses after which a game is history.
ENDED_STATUSES: Final = (GameStatus.FINISHED, GameStatus.ABANDONED)
#: Rows of the action log read at once (`moves`): a few milliseconds of the loop's time each.
MOVES_AT_ONCE: Final = 1000
#: The action logged with a game's first snapshot (games.py `start`).
START: Final = "start"


class HistoryRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def recent_games(
        self,
        guild_id: int,
        *,
        channel_id: int | None = None,
        statuses: Collection[GameStatus] = ENDED_STATUSES,
        limit: int = 10,
        offset: int = 0,
    ) -> list[GameRecord]:
        """A server's (or one of its channels') games, newest first."""
        stmt = select(Game).where(Game.guild_id == guild_id, Game.status.in_(list(statuses)))
        if channel_id is not None:
            stmt = stmt.where(Game.channel_id == channel_id)
        games = await self._session.scalars(
            stmt.options(selectinload(Game.seats))
            .order_by(Game.created_at.desc(), Game.id.desc())
            .offset(offset)
            .limit(limit)
            .execution_options(populate_existing=True)
        )
        return [game_record(game) for game in games]

    async def rounds(self, game_id: int) -> list[RoundRecord]:
        rows = await self._session.scalars(
            select(Round).where(Round.game_id == game_id).order_by(Round.round_number)
        )
        return [
            RoundRecord(
                game_id=row.game_id,
                round_number=row.round_number,
                winner_id=row.winner_id,
                points={int(user): int(points) for user, points in row.points.items()},
                ended_at=row.ended_at,
                commitment=row.commitment,
                seed=row.seed,
            )
            for row in rows
        ]

    async def moves(self, game_id: int) -> list[tuple[int, str]]:
        """The action log as a record takes it (bot/engine/record.py): (player, action code) in
        version order, without the "start" entry. The player is the one the action was played
        for (detail's "player": the timer plays for an absent one), else its actor. Read as
        plain columns, the JSON picked apart by the database: a long match's thousands of rows
        then cost the event loop next to nothing (docs/benchmarks.md, records)."""
        played_for = cast(GameAction.detail["player"].as_string(), BigInteger)  # (a snowflake)
        player = func.coalesce(played_for, GameAction.actor_id, literal(0))
        rows = await self._session.stream(
            select(player, GameAction.action)
            .where(GameAction.game_id == game_id, GameAction.action != START)
            .order_by(GameAction.version)
        )
        moves: list[tuple[int, str]] = []
        async for chunk in rows.partitions(MOVES_AT_ONCE):  # (the loop runs between chunks)
            moves += [(int(who), str(code)) for who, code in chunk]
        return moves

    async def first_state(self, game_id: int) -> dict[str, Any] | None:
        """The engine's first snapshot of the game (its "start" entry), None if it never
        started."""
        detail = await self._session.scalar(
            select(GameAction.detail).where(
                GameAction.game_id == game_id, GameAction.action == START
            )
        )
        state = (detail or {}).get("state")
        return dict(state) if state else None

    async def actions(self, game_id: int, *, after_version: int = -1) -> list[ActionRecord]:
        """The action log in version order; the "start" entry's detail holds the first snapshot."""
        rows = await self._session.scalars(
            select(GameAction)
            .where(GameAction.game_id == game_id, GameAction.version > after_version)
            .order_by(GameAction.version)
        )
        return [
            ActionRecord(
                row.game_id, row.version, row.action, row.actor_id, row.detail, row.created_at
            )
            for row in rows
        ]
