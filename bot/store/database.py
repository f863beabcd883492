"""Opening the database: one async engine, SQLite tuned for a bot, and units of work around it.

The same code runs on `sqlite+aiosqlite` (one file, the default) and `postgresql+asyncpg`; only the
SQLite connection set-up below is dialect specific. A write unit of work is one transaction:
everything in it is committed together or not at all.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import ConnectionPoolEntry

from bot.store.games import GameRepository
from bot.store.guild_settings import SettingsRepository
from bot.store.history import HistoryRepository
from bot.store.stats import StatsRepository

#: How long SQLite waits for another process's write lock before failing, in milliseconds.
SQLITE_BUSY_TIMEOUT_MS = 5000
#: Execution option naming the BEGIN flavour of a SQLite transaction (DEFERRED or IMMEDIATE).
_SQLITE_BEGIN = "uno_sqlite_begin"


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine for `url`; a SQLite file gets its folder, WAL and per-connection PRAGMAs."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    else:
        kwargs.setdefault("pool_pre_ping", True)
    engine = create_async_engine(parsed, **kwargs)
    if engine.dialect.name == "sqlite":
        _configure_sqlite(engine)
    return engine


def _configure_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # Take BEGIN away from the sqlite3 driver (which skips it for SELECT and DDL) and emit it
        # ourselves below, so SELECTs, DDL and SAVEPOINTs are really transactional.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL survives any crash of the bot process; only an OS crash or power
            # loss can lose the last commits (SQLite's documented trade-off).
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # IMMEDIATE takes the write lock up front: a read-then-write transaction can otherwise
        # fail with SQLITE_BUSY when it upgrades its lock, whatever the busy timeout.
        flavour = conn.get_execution_options().get(_SQLITE_BEGIN, "DEFERRED")
        conn.exec_driver_sql(f"BEGIN {flavour}")


@dataclass(frozen=True, slots=True)
class UnitOfWork:
    """The repositories of one transaction; they all share `session`."""

    session: AsyncSession
    games: GameRepository
    history: HistoryRepository
    stats: StatsRepository
    settings: SettingsRepository

    @classmethod
    def on(cls, session: AsyncSession) -> UnitOfWork:
        return cls(
            session,
            GameRepository(session),
            HistoryRepository(session),
            StatsRepository(session),
            SettingsRepository(session),
        )


class Database:
    """The engine and its session factories; hand one of these to the bot at start-up.

    `write()` is one transaction that commits at the end of the block and rolls back if the block
    raises; `read()` is for queries. Do not nest them in one task, and do not share a unit of work
    between tasks.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        writer = (
            engine.execution_options(**{_SQLITE_BEGIN: "IMMEDIATE"}) if self.is_sqlite else engine
        )
        self._read_sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._write_sessions = async_sessionmaker(writer, expire_on_commit=False)
        # SQLite has one writer at a time. Queueing our own writers here is fair and cheap;
        # letting them spin in SQLite's busy handler is neither. Other processes still wait
        # through busy_timeout.
        self._write_lock = asyncio.Lock() if self.is_sqlite else None

    @classmethod
    def from_url(cls, url: str, **engine_kwargs: Any) -> Database:
        return cls(create_engine(url, **engine_kwargs))

    async def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic `upgrade head`)."""
        from bot.store.upgrade import migrate

        await migrate(self.engine)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[UnitOfWork]:
        if self._write_lock is None:
            async with self._transaction(self._write_sessions) as unit:
                yield unit
            return
        async with self._write_lock, self._transaction(self._write_sessions) as unit:
            yield unit

    @asynccontextmanager
    async def read(self) -> AsyncIterator[UnitOfWork]:
        async with self._transaction(self._read_sessions) as unit:
            yield unit

    @staticmethod
    @asynccontextmanager
    async def _transaction(
        sessions: async_sessionmaker[AsyncSession],
    ) -> AsyncIterator[UnitOfWork]:
        async with sessions() as session, session.begin():
            yield UnitOfWork.on(session)

    async def close(self) -> None:
        await self.engine.dispose()


async def open_database(url: str, *, migrate: bool = True, **engine_kwargs: Any) -> Database:
    """The bot's entry point: a migrated Database for `url` (Settings.resolved_database_url)."""
    database = Database.from_url(url, **engine_kwargs)
    if migrate:
        try:
            await database.migrate()
        except BaseException:
            await database.close()
            raise
    return database
