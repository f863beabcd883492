"""SQLite set-up for a bot: PRAGMAs on every connection, and the single in-process writer.

SQLite lets one connection write at a time. The store therefore keeps exactly one write
connection per Database and queues its own writers on an asyncio.Lock: fair, cheap, and no
spinning in SQLite's busy handler. That connection runs sqlite3 on the event loop's thread (see
`sqlite_inline`), which makes a save cost SQLite's tens of microseconds plus SQLAlchemy, instead
of a dozen thread hand-offs; the rules that keep this from ever stalling the loop are here.

Durability: WAL with synchronous=NORMAL. A commit that returned survives any crash or restart of
the bot process; only an OS crash or power cut can lose the last commits (SQLite's documented
trade-off), which is the right one for game state that is saved on every click.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager, closing
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

from bot.store.errors import StorageUnavailable
from bot.store.json_codec import JSON_CODEC
from bot.store.sqlite_inline import InlineConnection, inline_connector

log = logging.getLogger(__name__)

#: How long a writer waits for another process's write lock before failing, in milliseconds.
SQLITE_BUSY_TIMEOUT_MS = 5000
#: Write units between two WAL checkpoints (SQLite's own default is about every 1000 pages;
#: a save writes 3 to 5).
CHECKPOINT_EVERY = 200
#: Execution option naming the BEGIN flavour of a SQLite transaction (DEFERRED or IMMEDIATE).
SQLITE_BEGIN = "uno_sqlite_begin"


def configure_sqlite(
    engine: AsyncEngine, *, busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS, inline: bool = False
) -> None:
    """Give every connection of `engine` WAL, NORMAL sync, foreign keys and our own BEGIN."""

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # Take BEGIN away from the sqlite3 driver (which skips it for SELECT and DDL) and emit it
        # ourselves below, so SELECTs, DDL and SAVEPOINTs are really transactional. (The inline
        # connection is opened that way already.)
        if dbapi_connection.isolation_level is not None:
            dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
            cursor.execute("PRAGMA foreign_keys=ON")
            if inline:
                # A checkpoint copies ~4 MB and syncs: SQLiteWriter runs it off the loop.
                cursor.execute("PRAGMA wal_autocheckpoint=0")
        finally:
            cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # IMMEDIATE takes the write lock up front: a read-then-write transaction can otherwise
        # fail with SQLITE_BUSY when it upgrades its lock, whatever the busy timeout.
        statement = f"BEGIN {conn.get_execution_options().get(SQLITE_BEGIN, 'DEFERRED')}"
        # Straight to the driver (exec_driver_sql would cost a sixth of a save), so wrap its
        # errors the way SQLAlchemy does: callers see sqlalchemy.exc.OperationalError.
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None  # a connection in use (it is beginning) is open
        cursor = dbapi.cursor()
        try:
            cursor.execute(statement)
        except sqlite3.Error as error:
            raise DBAPIError.instance(statement, None, error, sqlite3.Error) from error
        finally:
            cursor.close()


def is_sqlite_file(engine: AsyncEngine) -> bool:
    """A SQLite database in a file (an in-memory one lives and dies with its one connection)."""
    database = engine.url.database or ""
    return (
        engine.dialect.name == "sqlite"
        and database not in ("", ":memory:")
        and engine.url.query.get("mode") != "memory"
    )


def _is_busy(error: OperationalError) -> bool:
    return getattr(error.orig, "sqlite_errorcode", None) == sqlite3.SQLITE_BUSY


class FileGuard:
    """The identity (device, inode) of the file the writer opened, checked before every commit.

    The writer keeps its connection open for the life of the bot, and SQLite writes happily into
    a file that was deleted or renamed away (the open descriptor still points at it): without
    this check every move would be "saved" into a file nobody will ever open again. A stat is
    about a microsecond, so every unit of work pays it. The first identity seen is the one that
    counts: a reconnect must not silently adopt an empty file SQLite created in the old one's
    place. Only changes of state are logged, so a click per second does not flood the log.
    """

    def __init__(self, path: str | None) -> None:
        self.path = os.path.abspath(path) if path else None
        self._identity: tuple[int, int] | None = None
        self._lost = False

    def current(self) -> tuple[int, int] | None:
        assert self.path is not None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def remember(self) -> None:
        """Called once the writer's connection is open: the file it has open is the database."""
        if self.path is not None and self._identity is None:
            self._identity = self.current()

    def check(self) -> None:
        """Raise StorageUnavailable if the path no longer names the file the writer opened."""
        if self.path is None or self._identity is None:
            return
        same = self.current() == self._identity
        if same and self._lost:
            log.warning("the database file %s is back: saving again", self.path)
        elif not same and not self._lost:
            log.error(
                "the database file %s was deleted or replaced while the bot runs: nothing is "
                "saved until it is put back or the bot restarts",
                self.path,
            )
        self._lost = not same
        if not same:
            raise StorageUnavailable(f"the database file {self.path} was deleted or replaced")


class SQLiteWriter:
    """The one write connection of a SQLite file, with its queue of writers.

    Nothing on this connection may wait inside SQLite, since it runs on the loop's thread: its
    busy timeout is 0 and a BEGIN refused because another process (or another Database on the
    same file) is writing is retried with asyncio.sleep; once BEGIN IMMEDIATE succeeded, no
    statement of the unit can be refused. Automatic checkpoints are off on it and run every
    CHECKPOINT_EVERY units on a worker thread (PASSIVE: they never block a writer).
    """

    def __init__(self, engine: AsyncEngine, *, busy_timeout_ms: int | None = None) -> None:
        #: How long a BEGIN waits for another process's write lock before the unit fails
        #: (default SQLITE_BUSY_TIMEOUT_MS).
        self.busy_timeout_ms = (
            SQLITE_BUSY_TIMEOUT_MS if busy_timeout_ms is None else busy_timeout_ms
        )
        # Made from the read engine's URL and echo flag; its other options apply to reads only.
        self.engine = create_async_engine(
            engine.url,
            async_creator=inline_connector(engine.dialect, engine.url),
            poolclass=StaticPool,  # one connection: the lock below lets one unit at a time in
            echo=engine.echo,
            **JSON_CODEC,
        )
        configure_sqlite(self.engine, busy_timeout_ms=0, inline=True)
        # sqlite3.connect's (database, ...) and options; SQLAlchemy types them as strings.
        self._connect_args: tuple[Sequence[Any], Mapping[str, Any]]
        self._connect_args = engine.dialect.create_connect_args(engine.url)
        args, kwargs = self._connect_args
        self.guard = FileGuard(None if kwargs.get("uri") or not args else str(args[0]))
        event.listen(self.engine.sync_engine, "connect", lambda *_: self.guard.remember())
        self._sessions = async_sessionmaker(
            self.engine.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"}), expire_on_commit=False
        )
        self._lock = asyncio.Lock()
        self._units_since_checkpoint = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._inline: InlineConnection | None = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session in a BEGIN IMMEDIATE transaction, committed if the block returns."""
        # Let other tasks run first: nothing below suspends when the lock is free, and callers
        # (written when each statement was an aiosqlite round trip) rely on a save letting
        # others in; a task saving in a loop would otherwise starve the loop.
        await asyncio.sleep(0)
        async with self._lock, self._sessions() as session:
            await self._begin(session)
            yield session
            self.guard.check()  # the file is still the one we write into, or nothing is saved
            await session.commit()  # an exception skips this; closing the session rolls back
        self._unit_done()

    def _unit_done(self) -> None:
        """Count a committed unit; every CHECKPOINT_EVERY units, checkpoint the WAL off-loop."""
        self._units_since_checkpoint += 1
        if self._units_since_checkpoint >= CHECKPOINT_EVERY and self._checkpoint is None:
            self._units_since_checkpoint = 0
            self._checkpoint = asyncio.create_task(self._run_checkpoint())

    @asynccontextmanager
    async def raw_transaction(self) -> AsyncIterator[sqlite3.Connection]:
        """The writer's own sqlite3 connection in a BEGIN IMMEDIATE transaction, committed if
        the block returns (the click's save, `click_save`): the same queue, lock, busy retry,
        file check and checkpoints as `transaction`, without a session."""
        await asyncio.sleep(0)  # as in `transaction`: a saving loop must not starve the others
        async with self._lock:
            connection = await self._raw_connection()
            await self._begin_raw(connection)
            try:
                yield connection
                self.guard.check()
                connection.execute("COMMIT")
            except BaseException:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise
        self._unit_done()

    async def _raw_connection(self) -> sqlite3.Connection:
        """The sqlite3 connection under the writer's single pooled connection (opened once)."""
        inline = self._inline
        if inline is None or inline.closed:
            async with self.engine.connect() as connection:
                raw = await connection.get_raw_connection()
                driver = raw.driver_connection
                assert isinstance(driver, InlineConnection)  # the engine's inline_connector's
                inline = self._inline = driver
        return inline.sqlite3_connection

    async def _begin_raw(self, connection: sqlite3.Connection) -> None:
        """BEGIN IMMEDIATE, waiting without blocking the loop while another process writes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.busy_timeout_ms / 1000
        pause = 0.001
        while True:
            try:
                connection.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or loop.time() + pause > deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(2 * pause, 0.05)

    async def _begin(self, session: AsyncSession) -> None:
        """Take the write lock, waiting without blocking the loop while someone else holds it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.busy_timeout_ms / 1000
        pause = 0.001
        while True:
            try:
                await session.connection()  # BEGIN IMMEDIATE
                return
            except OperationalError as error:
                if not _is_busy(error) or loop.time() + pause > deadline:
                    raise
            await session.rollback()
            await asyncio.sleep(pause)
            pause = min(2 * pause, 0.05)

    def probe(self) -> None:
        """Open the file as the writer will and take its write lock once (start-up only).

        Raises sqlite3.Error for a file that cannot be opened, read or written. Done with plain
        sqlite3 because a failed aiosqlite connect leaves a worker thread that reports to the
        event loop after it closed: a traceback on exit instead of one line.
        """
        args, kwargs = self._connect_args
        with closing(sqlite3.connect(*args, **{**kwargs, "timeout": 0})) as connection:
            connection.isolation_level = None
            connection.execute("PRAGMA schema_version")  # reads the header: is it a database?
            try:
                connection.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_BUSY:
                    raise  # busy: another writer has it, so it can be written
            else:
                connection.execute("ROLLBACK")

    async def _run_checkpoint(self) -> None:
        try:
            await asyncio.to_thread(self._checkpoint_now)
        except sqlite3.Error:
            # Not fatal: the WAL just grows until the next checkpoint gets through.
            log.warning("WAL checkpoint failed", exc_info=True)
        finally:
            self._checkpoint = None

    def _checkpoint_now(self) -> None:
        if self.guard.path is not None and self.guard.current() is None:
            return  # connecting would create an empty database where the old one was
        args, kwargs = self._connect_args
        with closing(sqlite3.connect(*args, **kwargs)) as connection:
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def close(self) -> None:
        if self._checkpoint is not None:
            await self._checkpoint
        await self.engine.dispose()
