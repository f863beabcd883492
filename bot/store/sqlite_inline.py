"""An aiosqlite look-alike that runs sqlite3 on the event loop's own thread: the SQLite writer.

aiosqlite sends every call (cursor, execute, fetch, close, commit) to a worker thread and waits
for the answer: about 11 hand-offs for one save, each a thread wake-up plus a wait for the GIL
behind whatever the event loop is busy with. Under load that cost dwarfs SQLite's own, which is
tens of microseconds for a save. So the store's single write connection calls sqlite3 directly:
the coroutines below finish without ever suspending.

Blocking the loop is acceptable only because nothing here waits: the caller holds the write lock
(BEGIN IMMEDIATE succeeded) before any statement runs, SQLite's busy handler is off on this
connection (`SQLiteWriter` retries a busy BEGIN with asyncio.sleep instead), and automatic
WAL checkpoints, the one slow step of a commit, run on a worker thread (`SQLiteWriter` does
them, sqlite_writer.py).
Reads keep using aiosqlite, so a long query never stalls the loop.

SQLAlchemy drives these objects through its aiosqlite adapter (`async_creator=`), so they offer
exactly the aiosqlite calls it makes; exceptions are sqlite3's own, as with aiosqlite.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import URL
from sqlalchemy.engine.interfaces import Dialect


class InlineCursor:
    """An aiosqlite-style cursor over a sqlite3 cursor."""

    __slots__ = ("_cursor",)

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    async def __aenter__(self) -> InlineCursor:
        return self

    async def __aexit__(self, *_: object) -> None:
        self._cursor.close()

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    @property
    def arraysize(self) -> int:
        return self._cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value

    async def execute(self, sql: str, parameters: Any = ()) -> InlineCursor:
        self._cursor.execute(sql, parameters)
        return self

    async def executemany(self, sql: str, parameters: Iterable[Any]) -> InlineCursor:
        self._cursor.executemany(sql, parameters)
        return self

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        return self._cursor.fetchmany(self._cursor.arraysize if size is None else size)

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def close(self) -> None:
        self._cursor.close()


class InlineConnection:
    """An aiosqlite-style connection over a sqlite3 connection used on the loop's thread."""

    __slots__ = ("_connection",)

    def __init__(self, connection: sqlite3.Connection) -> None:
        # The name is the one SQLAlchemy's aiosqlite adapter checks before commit and rollback.
        self._connection: sqlite3.Connection | None = connection

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._connection is None:
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
        return self._connection

    @property
    def closed(self) -> bool:
        return self._connection is None

    @property
    def sqlite3_connection(self) -> sqlite3.Connection:
        """The connection itself, for the click's save (`click_save`), which needs no adapter."""
        return self._conn

    @property
    def isolation_level(self) -> str | None:
        return self._conn.isolation_level

    def cursor(self) -> InlineCursor:
        return InlineCursor(self._conn.cursor())

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> InlineCursor:
        return InlineCursor(self._conn.execute(sql, parameters))

    async def commit(self) -> None:
        self._conn.commit()

    async def rollback(self) -> None:
        self._conn.rollback()

    async def create_function(
        self, name: str, arity: int, func: Callable[..., Any], **kw: Any
    ) -> None:
        self._conn.create_function(name, arity, func, **kw)

    async def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def stop(self) -> None:
        """aiosqlite's forced close, used when SQLAlchemy terminates a broken connection."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def inline_connector(dialect: Dialect, url: URL) -> Callable[[], Any]:
    """An `async_creator` opening `url` the way the dialect would, but in autocommit mode.

    isolation_level=None is given here because SQLAlchemy's adapter sets it through aiosqlite's
    worker queue, which this connection does not have; the store emits BEGIN itself anyway.
    """
    # sqlite3.connect's (database, ...) and options; SQLAlchemy types them as strings.
    connect_args: tuple[Sequence[Any], Mapping[str, Any]] = dialect.create_connect_args(url)
    args, options = connect_args
    kwargs = {**options, "isolation_level": None}

    async def connect() -> InlineConnection:
        return InlineConnection(sqlite3.connect(*args, **kwargs))

    return connect
