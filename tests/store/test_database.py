"""Engine set-up: SQLite PRAGMAs on every connection, write locks taken up front, default URL."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.settings import Settings
from bot.store import Database, create_engine, open_database


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
