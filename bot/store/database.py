"""Opening the database: one async engine, SQLite tuned for a bot, and units of work around it.

The same code runs on `sqlite+aiosqlite` (one file, the default) and `postgresql+asyncpg`; only the
SQLite set-up (`sqlite_writer`) is dialect specific. A write unit of work is one transaction:
everything in it is committed together or not at all, and it is durable once the block returned.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import random
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from bot.store.click_save import ClickSave, ClickStatements
from bot.store.errors import StorageUnavailable
from bot.store.faults import FaultLog, is_retryable, reason, storage_fault
from bot.store.games import GameRepository, refusal
from bot.store.guild_settings import SettingsRepository
from bot.store.history import HistoryRepository
from bot.store.idle_ping import ping_idle_connections
from bot.store.json_codec import JSON_CODEC
from bot.store.public_posts import PublicPostRepository
from bot.store.ratings import RatingRepository
from bot.store.sqlite_writer import (
    SQLITE_BEGIN,
    SQLiteWriter,
    configure_sqlite,
    is_sqlite_file,
)
from bot.store.stats import StatsRepository, write_totals

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Times a unit PostgreSQL rolled back for a deadlock or a serialization failure is run again.
RETRIES = 3


#: A database server's connections kept open per process (DATABASE_POOL_SIZE), and how many
#: more a burst may open (closed again as they come back). SQLAlchemy's 5 + 10 opened and
#: closed about 25 connections a second under 1,000 games, each a TLS handshake and a password
#: check for the bot and a new process for PostgreSQL (docs/benchmarks.md, "A thousand games
#: per token"); PostgreSQL's default of 100 connections leaves room for three processes of the
#: bot (docs/operating.md).
SERVER_POOL: Final = {"pool_size": 20, "max_overflow": 10}


def create_engine(url: str, *, pool_size: int | None = None, **kwargs: Any) -> AsyncEngine:
    """An async engine for `url`; a SQLite file gets its folder, WAL and per-connection PRAGMAs,
    a database server a pool of `pool_size` connections (default: SERVER_POOL's)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            folder = Path(database).expanduser().parent
            if folder.exists() and not folder.is_dir():  # mkdir would say "File exists"
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
            folder.mkdir(parents=True, exist_ok=True)
    else:
        kwargs = {**SERVER_POOL, **({"pool_size": pool_size} if pool_size else {}), **kwargs}
    kwargs = {**JSON_CODEC, **kwargs}
    engine = create_async_engine(parsed, **kwargs)
    if engine.dialect.name == "sqlite":
        configure_sqlite(engine)
    elif not kwargs.get("pool_pre_ping"):  # (a caller's every-time check stands)
        ping_idle_connections(engine)
    return engine


@dataclass(frozen=True, slots=True)
class UnitOfWork:
    """The repositories of one transaction; they all share `session`."""

    session: AsyncSession
    games: GameRepository
    history: HistoryRepository
    stats: StatsRepository
    settings: SettingsRepository
    ratings: RatingRepository
    posts: PublicPostRepository

    @classmethod
    def on(cls, session: AsyncSession) -> UnitOfWork:
        return cls(
            session,
            GameRepository(session),
            HistoryRepository(session),
            StatsRepository(session),
            SettingsRepository(session),
            RatingRepository(session),
            PublicPostRepository(session),
        )


class Database:
    """The engine and its session factories; hand one of these to the bot at start-up.

    `write()` is one transaction that commits at the end of the block and rolls back if the block
    raises; `read()` is for queries. Do not nest them in one task, and do not share a unit of work
    between tasks. Keep a write unit to store calls: on SQLite it holds the file's only writer
    from its first line to its commit (`SQLiteWriter`), so awaiting anything else inside it
    makes every other save wait too. `transact(work)` is a write unit that PostgreSQL may run
    twice: use it for saves, so a deadlock or serialization failure is retried, not reported.

    Expected driver faults (a locked, full or failing SQLite file, a lost or deadlocked
    PostgreSQL connection) leave every one of these as `StorageBusy` or `StorageUnavailable`,
    rolled back and logged once per episode (`faults`); anything else propagates unchanged.
    """

    def __init__(self, engine: AsyncEngine, *, busy_timeout_ms: int | None = None) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self._read_sessions = async_sessionmaker(engine, expire_on_commit=False)
        # A SQLite file gets its single, queued, inline write connection; PostgreSQL writes
        # through the pool like it reads. (An in-memory SQLite database has one connection.)
        self._sqlite_writer = (
            SQLiteWriter(engine, busy_timeout_ms=busy_timeout_ms)
            if is_sqlite_file(engine)
            else None
        )
        self._faults = FaultLog()
        writer = (
            engine.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"}) if self.is_sqlite else engine
        )
        self._write_sessions = async_sessionmaker(writer, expire_on_commit=False)
        # In-memory SQLite still has one writer at a time: queue ours rather than let them fail.
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        self._click_statements = ClickStatements(engine.dialect)

    @classmethod
    def from_url(cls, url: str, **engine_kwargs: Any) -> Database:
        return cls(create_engine(url, **engine_kwargs))

    async def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic `upgrade head`)."""
        from bot.store.upgrade import migrate

        await migrate(self.engine)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[UnitOfWork]:
        async with self._guarded(), self._write_unit() as unit:
            yield unit

    async def transact(self, work: Callable[[UnitOfWork], Awaitable[T]]) -> T:
        """`await work(unit)` in a write unit, committed if it returns; its result.

        On PostgreSQL a unit the server rolled back for a deadlock or a serialization failure
        is run once more from the start (so `work` must only touch the store), and the caller
        sees only the outcome of that second run.
        """

        async def once() -> T:
            async with self._write_unit() as unit:
                return await work(unit)

        return await self._retried(once)

    async def save_click(self, click: ClickSave) -> None:
        """Store one click (snapshot, action log, counters, timeouts) in one transaction.

        Raises StaleVersion, WrongStatus or GameNotFound, like `GameRepository.save_action`,
        when the game is not at `click.expected_version` any more; nothing is written then.
        On a SQLite file the statements run on the writer's sqlite3 connection; elsewhere on
        the unit of work's connection (see `click_save` for why not through the ORM).
        """
        await self._retried(lambda: self._save_click_once(click))

    async def _save_click_once(self, click: ClickSave) -> None:
        (update, update_args), batches = self._click_statements.plan(click)
        if self._sqlite_writer is not None:
            async with self._sqlite_writer.raw_transaction() as connection:
                if connection.execute(update, update_args).rowcount != 1:
                    row = connection.execute(self._click_statements.status.sql, (click.game_id,))
                    raise refusal(click.game_id, click.expected_version, row.fetchone())
                for batch in batches:
                    connection.executemany(batch.sql, batch.rows)
            return
        async with self._write_unit() as unit:
            conn = await unit.session.connection()
            result = await conn.exec_driver_sql(update, update_args)
            if result.rowcount != 1:
                args = self._click_statements.status.args({"game": click.game_id})
                status = await conn.exec_driver_sql(self._click_statements.status.sql, args)
                raise refusal(click.game_id, click.expected_version, status.one_or_none())
            for batch in batches:
                await conn.exec_driver_sql(batch.sql, batch.rows)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[UnitOfWork]:
        async with self._guarded(writing=False):
            if self._sqlite_writer is not None:
                # A reader on a deleted file's path would create an empty database there, or
                # read a file that replaced ours: refuse as the writer does.
                self._sqlite_writer.guard.check()
            async with self._transaction(self._read_sessions) as unit:
                yield unit

    async def _retried(self, once: Callable[[], Awaitable[T]]) -> T:
        """`once()` (one whole transaction), run again if PostgreSQL rolled it back for a
        deadlock or serialization failure, up to `RETRIES` times, each after a short random
        pause (run again at once, the two units can meet in the same order and deadlock
        again: a loaded machine did); faults translated as in `write`."""
        async with self._guarded():
            for attempt in range(RETRIES):
                try:
                    return await once()
                except DBAPIError as error:
                    if self.is_sqlite or not is_retryable(error):
                        raise
                    log.info("a save was rolled back (%s); running it again", reason(error))
                await asyncio.sleep(random.uniform(0.01, 0.05) * (attempt + 1))
            return await once()

    @asynccontextmanager
    async def _guarded(self, *, writing: bool = True) -> AsyncIterator[None]:
        """Expected driver faults out as `StorageBusy`/`StorageUnavailable`, logged once per
        episode; the transaction inside has been rolled back by the time they get here. Only a
        write ends an episode: a full disk still lets reads through."""
        try:
            yield
        except Exception as error:
            fault = storage_fault(error)
            if fault is None:
                raise  # a bug, or one of the store's own refusals: as it is
            if fault is not error:
                self._faults.failed(fault)
                raise fault from error
            raise  # StorageUnavailable from the file guard, which logs for itself
        if writing:
            self._faults.succeeded()

    @asynccontextmanager
    async def _write_unit(self) -> AsyncIterator[UnitOfWork]:
        """One write transaction, untranslated; the totals it added are written last (in one
        sorted statement, see `stats.add_to_totals`), just before it commits."""
        if self._sqlite_writer is not None:
            async with self._sqlite_writer.transaction() as session:
                yield UnitOfWork.on(session)
                await write_totals(session)
            return
        async with (
            self._write_lock or nullcontext(),
            self._transaction(self._write_sessions) as unit,
        ):
            yield unit
            await write_totals(unit.session)

    @staticmethod
    @asynccontextmanager
    async def _transaction(
        sessions: async_sessionmaker[AsyncSession],
    ) -> AsyncIterator[UnitOfWork]:
        async with sessions() as session, session.begin():
            yield UnitOfWork.on(session)

    async def close(self) -> None:
        if self._sqlite_writer is not None:
            await self._sqlite_writer.close()
        await self.engine.dispose()


async def open_database(url: str, *, migrate: bool = True, **engine_kwargs: Any) -> Database:
    """The bot's entry point: a migrated Database for `url` (Settings.resolved_database_url).

    Raises StorageUnavailable, naming the database (without its password) and the reason, when
    it cannot be opened or written: better to stop at start-up than to refuse every move.
    """
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        database = Database.from_url(url, **engine_kwargs)
    except OSError as error:  # the SQLite file's folder cannot be made
        raise StorageUnavailable(f"{shown}: {_reason(error)}") from error
    try:
        if database._sqlite_writer is not None:
            database._sqlite_writer.probe()
        if migrate:
            await database.migrate()
        async with database._write_unit():
            pass  # on SQLite, BEGIN IMMEDIATE: the file can be written (untranslated: see below)
    except BaseException as error:
        await database.close()
        if isinstance(error, OSError | DBAPIError | sqlite3.Error):
            raise StorageUnavailable(f"{shown}: {_reason(error)}") from error
        raise
    return database


def _reason(error: BaseException) -> str:
    """The driver's own words for `error`, without SQLAlchemy's wrapping and links."""
    if isinstance(error, DBAPIError) and error.orig is not None:
        error = error.orig
    if isinstance(error, OSError) and error.strerror:
        where = error.filename or ""
        return f"{error.strerror}: {where}" if where else error.strerror
    return reason(error)
