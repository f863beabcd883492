"""Per-server player totals, one row per game (bot/engine/game_kinds.py): adding to them, the
leaderboard of a game and one player's stats in every game they played.

Only human players have totals: computer seats are filtered out before anything is added, so they
can never appear on a leaderboard. Every ordering ends with the user id, so ties are stable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Float, and_, cast, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased
from sqlalchemy.sql.elements import ColumnElement

from bot.engine.game_kinds import CLASSIC, game_order
from bot.store.errors import NotSeated
from bot.store.models import COUNTERS, Game, PlayerTotal, Seat, utcnow
from bot.store.records import LeaderboardPage, LeaderboardSort, PlayerStats
from bot.store.roster import load_roster
from bot.store.upsert import PerDialect

#: (expression, descending) pairs, most significant first; the last one is always the user id.
OrderSpec = list[tuple[ColumnElement[Any], bool]]

#: Increments for one player: their display name and {counter column: amount}.
TotalChanges = Mapping[int, tuple[str, Mapping[str, int]]]


#: Every column of a total that adds up; an upsert adds all of them (most by zero).
SUMMED = ("points", "rounds_played", "rounds_won", "games_played", "games_won", *COUNTERS)


def _build_totals_upsert(insert: Callable[[Any], Any]) -> Any:
    table = PlayerTotal.__table__
    stmt = insert(table)
    excluded = stmt.excluded
    return stmt.on_conflict_do_update(
        index_elements=[table.c.guild_id, table.c.game, table.c.user_id],
        set_={
            "display_name": excluded.display_name,
            "updated_at": excluded.updated_at,
            **{key: table.c[key] + excluded[key] for key in SUMMED},
        },
    )


# One statement shape for every caller, so it is compiled once and all players go in one
# executemany.
_TOTALS_UPSERT = PerDialect(_build_totals_upsert)


#: Where a session keeps the totals added in its transaction until they are written.
_PENDING = "uno_pending_totals"

#: {(guild, game, user): (display name, {summed column: amount}, updated_at)}
_Pending = dict[tuple[int, str, int], tuple[str, dict[str, int], datetime]]


async def add_to_totals(
    session: AsyncSession,
    guild_id: int,
    game: str,
    changes: TotalChanges,
    now: datetime | None = None,
) -> None:
    """Add to the totals of human players in `game` (callers pass humans only), creating rows
    as needed.

    Nothing is written yet: the additions of the whole transaction are summed and written by
    `write_totals` in one statement, just before the unit of work commits. A totals row is a
    lock on PostgreSQL; a unit that added the mover's counters (the winner's row), then the
    round and the match (everyone's) took them in a different order from another game's unit
    sharing players, and the two deadlocked. One sorted statement per transaction cannot.
    """
    if not changes:
        return
    now = now or utcnow()
    pending: _Pending = session.info.setdefault(_PENDING, {})
    for user_id, (name, increments) in changes.items():
        _, summed, _ = pending.get((guild_id, game, user_id), ("", {}, now))
        for key, amount in increments.items():
            summed[key] = summed.get(key, 0) + amount
        pending[(guild_id, game, user_id)] = (name, summed, now)


async def write_totals(session: AsyncSession) -> None:
    """Write the transaction's pending additions (`add_to_totals`): one upsert, rows sorted by
    (guild, game, user), so every writer locks totals rows in the same order (as `click_save` does).

    `Database` calls it before every commit, and the readers below before they read.
    """
    pending: _Pending | None = session.info.pop(_PENDING, None)
    if not pending:
        return
    rows = []
    for (guild_id, game, user_id), (name, increments, now) in sorted(pending.items()):
        row: dict[str, Any] = dict.fromkeys(SUMMED, 0)
        row.update(increments)
        row.update(guild_id=guild_id, game=game, user_id=user_id, display_name=name, updated_at=now)
        rows.append(row)
    await session.execute(_TOTALS_UPSERT.for_session(session), rows[0] if len(rows) == 1 else rows)


def _win_rate(entity: Any) -> ColumnElement[float]:
    return func.coalesce(cast(entity.games_won, Float) / func.nullif(entity.games_played, 0), 0.0)


_ORDERINGS: dict[LeaderboardSort, Callable[[Any], OrderSpec]] = {
    "points": lambda t: [(t.points, True), (t.games_won, True), (t.rounds_won, True)],
    "wins": lambda t: [(t.games_won, True), (t.rounds_won, True), (t.points, True)],
    "win_rate": lambda t: [(_win_rate(t), True), (t.games_played, True), (t.points, True)],
}


def _ordering(sort: LeaderboardSort, entity: Any) -> OrderSpec:
    try:
        spec = _ORDERINGS[sort](entity)
    except KeyError:
        raise ValueError(f"unknown leaderboard sort {sort!r}") from None
    return [*spec, (entity.user_id, False)]


def _ahead(mine: OrderSpec, theirs: OrderSpec) -> ColumnElement[bool]:
    """`theirs` sorts strictly before `mine` (a lexicographic comparison, direction per key)."""
    clause: ColumnElement[bool] | None = None
    for (my_key, descending), (their_key, _) in reversed(list(zip(mine, theirs, strict=True))):
        better = their_key > my_key if descending else their_key < my_key
        clause = better if clause is None else or_(better, and_(their_key == my_key, clause))
    assert clause is not None
    return clause


def _stats(row: PlayerTotal, rank: int | None) -> PlayerStats:
    return PlayerStats(
        guild_id=row.guild_id,
        game=row.game,
        user_id=row.user_id,
        display_name=row.display_name,
        points=row.points,
        rounds_played=row.rounds_played,
        rounds_won=row.rounds_won,
        games_played=row.games_played,
        games_won=row.games_won,
        cards_played=row.cards_played,
        uno_calls=row.uno_calls,
        catches=row.catches,
        challenges_won=row.challenges_won,
        challenges_lost=row.challenges_lost,
        rank=rank,
    )


class StatsRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def add_counters(self, game_id: int, increments: Mapping[int, Mapping[str, int]]) -> None:
        """Add engine-event counts ({user_id: {"cards_played": 3, ...}}) to players' totals.

        Counters: cards_played, uno_calls, catches, challenges_won, challenges_lost. Computer
        players are skipped; a user with no seat in the game raises NotSeated.
        """
        for counts in increments.values():
            for key, amount in counts.items():
                if key not in COUNTERS:
                    raise ValueError(f"unknown counter {key!r}; use one of {', '.join(COUNTERS)}")
                if type(amount) is not int or amount < 0:
                    raise ValueError(f"{key} must be a whole number >= 0, not {amount!r}")
        roster = await load_roster(self._session, game_id)
        changes: dict[int, tuple[str, Mapping[str, int]]] = {}
        for user_id, counts in increments.items():
            seat = roster.seats.get(user_id)
            if seat is None:
                raise NotSeated(game_id, user_id)
            if not roster.rated:  # practice, or kicked down to one person: counts for nobody
                continue
            nonzero = {key: amount for key, amount in counts.items() if amount}
            if not seat.is_bot and nonzero:
                changes[user_id] = (seat.display_name, nonzero)
        await add_to_totals(self._session, roster.guild_id, roster.game, changes)

    async def leaderboard(
        self,
        guild_id: int,
        *,
        game: str = CLASSIC,
        sort: LeaderboardSort = "points",
        page: int = 1,
        per_page: int = 10,
        min_games: int = 0,
    ) -> LeaderboardPage:
        """One page (1-based) of a server's leaderboard of `game`; ties are ordered by user id."""
        if page < 1 or per_page < 1:
            raise ValueError("page and per_page start at 1")
        await write_totals(self._session)  # this unit's own additions count too
        where = [
            PlayerTotal.guild_id == guild_id,
            PlayerTotal.game == game,
            PlayerTotal.games_played >= min_games,
        ]
        total = await self._session.scalar(select(func.count()).where(*where)) or 0
        order = [
            key.desc() if descending else key.asc()
            for key, descending in _ordering(sort, PlayerTotal)
        ]
        offset = (page - 1) * per_page
        rows = await self._session.scalars(
            select(PlayerTotal).where(*where).order_by(*order).offset(offset).limit(per_page)
        )
        entries = tuple(_stats(row, offset + i + 1) for i, row in enumerate(rows))
        return LeaderboardPage(sort, page, per_page, total, entries, game)

    async def player(
        self,
        guild_id: int,
        user_id: int,
        *,
        game: str = CLASSIC,
        rank_by: LeaderboardSort = "points",
    ) -> PlayerStats | None:
        """A player's totals in one game of a server and their place on that game's
        leaderboard; None if they never played it."""
        await write_totals(self._session)  # this unit's own additions count too
        row = await self._session.get(
            PlayerTotal, (guild_id, game, user_id), populate_existing=True
        )
        if row is None:
            return None
        return await self._ranked(row, rank_by)

    async def _ranked(self, row: PlayerTotal, rank_by: LeaderboardSort) -> PlayerStats:
        me, other = aliased(PlayerTotal), aliased(PlayerTotal)
        ahead = await self._session.scalar(
            select(func.count())
            .select_from(other)
            .join(
                me,
                and_(
                    me.guild_id == other.guild_id,
                    me.game == other.game,
                    me.user_id == row.user_id,
                ),
            )
            .where(other.guild_id == row.guild_id, other.game == row.game)
            .where(_ahead(_ordering(rank_by, me), _ordering(rank_by, other)))
        )
        return _stats(row, (ahead or 0) + 1)

    async def player_games(
        self, guild_id: int, user_id: int, *, rank_by: LeaderboardSort = "points"
    ) -> list[PlayerStats]:
        """A player's totals in every game they played in a server, each with its place on
        that game's leaderboard, in the order the games are offered (game_kinds.py); a game
        the engine no longer offers comes last."""
        await write_totals(self._session)
        rows = (
            await self._session.scalars(
                select(PlayerTotal)
                .where(PlayerTotal.guild_id == guild_id, PlayerTotal.user_id == user_id)
                .execution_options(populate_existing=True)
            )
        ).all()
        rows = sorted(rows, key=lambda row: game_order(row.game))
        return [await self._ranked(row, rank_by) for row in rows]

    async def practice_games(self, guild_id: int, user_id: int) -> int:
        """How many practice games (this person alone against computers, counted for nobody)
        the user started in a server."""
        people = (
            select(func.count())
            .select_from(Seat)
            .where(
                Seat.game_id == Game.id,
                Seat.is_bot.is_(False),
                or_(Seat.left_at.is_(None), Seat.left_at >= Game.started_at),
            )
            .correlate(Game)
            .scalar_subquery()
        )
        mine = and_(Seat.game_id == Game.id, Seat.user_id == user_id, Seat.is_bot.is_(False))
        found = await self._session.scalar(
            select(func.count(Game.id))
            .join(Seat, mine)
            .where(Game.guild_id == guild_id, Game.started_at.is_not(None), people == 1)
        )
        return int(found or 0)
