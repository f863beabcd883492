"""Engine set-up: SQLite PRAGMAs on every connection, write locks taken up front, default URL,
and the SQLite writer: it never blocks the event loop on another process's lock."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.settings import Settings
from bot.store import Database, StorageBusy, create_engine, open_database, sqlite_writer
from bot.store.sqlite_writer import SQLiteWriter


async def test_sqlite_connections_get_wal_busy_timeout_and_foreign_keys(tmp_path: Path) -> None:
    db = Database.from_url(f"sqlite+aiosqlite:///{tmp_path / 'deep' / 'er' / 'x.db'}")
    try:
        async with db.engine.connect() as first, db.engine.connect() as second:
            for conn in (first, second):
                assert (await conn.scalar(text("PRAGMA journal_mode"))) == "wal"
                assert (await conn.scalar(text("PRAGMA foreign_keys"))) == 1
                assert (await conn.scalar(text("PRAGMA busy_timeout"))) == 5000
    finally:
        await db.close()
    assert (tmp_path / "deep" / "er" / "x.db").exists()


async def test_a_write_unit_holds_the_sqlite_write_lock_from_its_start(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    try:
        async with db.write() as unit:
            await unit.settings.get_value("anything")  # only a read so far
            other = sqlite3.connect(path, timeout=0, isolation_level=None)
            try:
                with pytest.raises(sqlite3.OperationalError, match="locked"):
                    other.execute("BEGIN IMMEDIATE")
            finally:
                other.close()
        async with db.read() as unit:  # readers take no write lock
            await unit.settings.get_value("anything")
            other = sqlite3.connect(path, timeout=0, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            other.close()
    finally:
        await db.close()


async def test_savepoints_roll_back_inside_the_unit_of_work(tmp_path: Path) -> None:
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    try:
        with pytest.raises(RuntimeError):
            async with db.write() as unit:
                async with unit.session.begin_nested():
                    await unit.settings.set_value("k", "v")
                raise RuntimeError
        async with db.read() as unit:
            assert await unit.settings.get_value("k") is None
    finally:
        await db.close()


def test_the_default_url_is_a_sqlite_file_in_the_data_dir(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", database_url=None, _env_file=None)
    url = settings.resolved_database_url
    assert url.startswith("sqlite+aiosqlite:///") and url.endswith("uno.db")
    assert (tmp_path / "data").is_dir()
    engine = create_engine(url)
    assert engine.dialect.name == "sqlite"


def test_postgresql_urls_need_no_sqlite_set_up() -> None:
    engine = create_engine("postgresql+asyncpg://user:secret@localhost/uno")
    assert engine.dialect.name == "postgresql" and engine.dialect.driver == "asyncpg"


async def test_the_sqlite_writer_never_waits_inside_sqlite(tmp_path: Path) -> None:
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    try:
        async with db.write() as unit:
            pragma = unit.session.scalar
            assert await pragma(text("PRAGMA busy_timeout")) == 0
            assert await pragma(text("PRAGMA wal_autocheckpoint")) == 0
            assert await pragma(text("PRAGMA journal_mode")) == "wal"
            assert await pragma(text("PRAGMA synchronous")) == 1  # NORMAL
            assert await pragma(text("PRAGMA foreign_keys")) == 1
    finally:
        await db.close()


async def test_a_writer_waits_for_another_process_without_blocking_the_loop(
    tmp_path: Path,
) -> None:
    path = tmp_path / "x.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")

        async def write() -> None:
            async with db.write() as unit:
                await unit.settings.set_value("k", "v")

        writer = asyncio.create_task(write())
        ticks = 0
        for _ in range(20):  # the loop keeps running while the writer waits
            await asyncio.sleep(0.005)
            ticks += 1
        assert ticks == 20 and not writer.done()
        other.execute("COMMIT")
        await asyncio.wait_for(writer, 5)
        async with db.read() as unit:
            assert await unit.settings.get_value("k") == "v"
    finally:
        other.close()
        await db.close()


async def test_a_writer_gives_up_after_the_busy_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_writer, "SQLITE_BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "x.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StorageBusy, match="locked"):
            async with db.write() as unit:
                await unit.settings.set_value("k", "v")
        other.execute("ROLLBACK")
        async with db.write() as unit:  # the connection is usable again
            await unit.settings.set_value("k", "v")
    finally:
        other.close()
        await db.close()


async def test_wal_checkpoints_run_off_the_loop_every_so_many_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_writer, "CHECKPOINT_EVERY", 3)
    threads: list[int] = []
    checkpoint = SQLiteWriter._checkpoint_now

    def spy(self: SQLiteWriter) -> None:
        threads.append(threading.get_ident())
        checkpoint(self)

    monkeypatch.setattr(SQLiteWriter, "_checkpoint_now", spy)
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    try:
        for number in range(7):
            async with db.write() as unit:
                await unit.settings.set_value("k", str(number))
            await asyncio.sleep(0.01)
    finally:
        await db.close()  # waits for a checkpoint still running
    assert len(threads) == 2
    assert threading.get_ident() not in threads


async def test_an_in_memory_database_writes_through_its_one_connection() -> None:
    db = await open_database("sqlite+aiosqlite://")
    try:
        async with db.write() as unit:
            await unit.settings.set_value("k", "v")
        async with db.read() as unit:
            assert await unit.settings.get_value("k") == "v"
    finally:
        await db.close()


async def test_every_write_lets_other_tasks_run(tmp_path: Path) -> None:
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    running = asyncio.create_task(ticker())
    try:
        for number in range(20):
            async with db.write() as unit:
                await unit.settings.set_value("k", str(number))
        assert ticks >= 20
    finally:
        running.cancel()
        await db.close()


def test_a_server_pool_keeps_its_connections_open() -> None:
    """PostgreSQL's pool keeps DATABASE_POOL_SIZE connections (20) open between clicks rather
    than opening and closing them under load; a burst may open 10 more."""
    pool = create_engine("postgresql+asyncpg://user:secret@localhost/uno").sync_engine.pool
    assert (pool.size(), getattr(pool, "_max_overflow", None)) == (20, 10)
    sized = create_engine("postgresql+asyncpg://u:p@localhost/uno", pool_size=35).sync_engine.pool
    assert sized.size() == 35
