"""A SQLite file deleted, renamed away or replaced while the bot runs: the writer keeps its
connection open, so without a check every save would "succeed" into a file nobody reads."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot.store import Database, StorageUnavailable, open_database


async def _open(tmp_path: Path) -> tuple[Database, Path]:
    path = tmp_path / "uno.db"
    db = await open_database(f"sqlite+aiosqlite:///{path}")
    async with db.write() as unit:
        await unit.settings.set_value("move", "1")
    return db, path


def _stored(path: Path) -> str | None:
    """The value as another process would read it from `path` (WAL included)."""
    with sqlite3.connect(path) as conn:
        row = conn.execute("SELECT value FROM bot_state WHERE key = 'move'").fetchone()
    return row[0] if row else None


async def _save(db: Database, value: str) -> None:
    async with db.write() as unit:
        await unit.settings.set_value("move", value)


async def test_a_file_renamed_away_refuses_saves_until_it_is_back(tmp_path: Path) -> None:
    db, path = await _open(tmp_path)
    try:
        for suffix in ("", "-wal", "-shm"):
            os.rename(f"{path}{suffix}", f"{path}.away{suffix}")
        with pytest.raises(StorageUnavailable):
            await _save(db, "2")
        with pytest.raises(StorageUnavailable):
            async with db.read():
                pass
        for suffix in ("", "-wal", "-shm"):
            os.rename(f"{path}.away{suffix}", f"{path}{suffix}")
        async with db.read() as unit:
            assert await unit.settings.get_value("move") == "1"  # the refused save left no trace
        await _save(db, "3")
    finally:
        await db.close()
    assert _stored(path) == "3"


async def test_a_deleted_file_refuses_saves_and_reads_without_recreating_it(
    tmp_path: Path,
) -> None:
    db, path = await _open(tmp_path)
    try:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        with pytest.raises(StorageUnavailable):
            await _save(db, "2")
        with pytest.raises(StorageUnavailable):
            async with db.read():
                pass
        assert not path.exists()
    finally:
        await db.close()


async def test_a_file_swapped_for_another_refuses_saves(tmp_path: Path) -> None:
    db, path = await _open(tmp_path)
    try:
        with sqlite3.connect(path) as conn:  # checkpoint: the copy below then holds "1"
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        shutil.copy(path, tmp_path / "restored.db")
        os.replace(tmp_path / "restored.db", path)  # e.g. a backup put back in place
        with pytest.raises(StorageUnavailable):
            await _save(db, "2")
        with pytest.raises(StorageUnavailable):
            await _save(db, "3")
    finally:
        await db.close()
    assert _stored(path) == "1"


async def test_a_lost_file_is_logged_once_not_once_per_save(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db, path = await _open(tmp_path)
    try:
        os.rename(path, tmp_path / "moved.db")
        with caplog.at_level(logging.WARNING, logger="bot.store"):
            for value in "234":
                with pytest.raises(StorageUnavailable):
                    await _save(db, value)
            os.rename(tmp_path / "moved.db", path)
            await _save(db, "5")
            await _save(db, "6")
    finally:
        await db.close()
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2, messages
    assert "deleted or replaced" in messages[0] and "is back" in messages[1]
