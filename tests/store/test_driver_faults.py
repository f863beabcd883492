"""Expected driver faults leave the store as StorageBusy or StorageUnavailable, rolled back and
logged once per episode; a bug's error (an IntegrityError) still propagates as it is.

Real SQLite files: another connection holds the write lock past the busy timeout, and a file
whose page limit is reached answers "database or disk is full" (SQLITE_FULL), as a full disk does.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from bot.store import (
    ClickSave,
    Database,
    NewAction,
    StorageBusy,
    StorageUnavailable,
    create_engine,
)
from tests.store.conftest import GUILD, new_running_game

ANN, BEN = 41, 42
FAULTS_LOG = "bot.store.faults"


@pytest.fixture
async def sqlite_db(tmp_path: Path) -> AsyncIterator[tuple[Database, Path]]:
    path = tmp_path / "uno.db"
    db = Database(create_engine(f"sqlite+aiosqlite:///{path}"), busy_timeout_ms=100)
    await db.migrate()
    try:
        yield db, path
    finally:
        await db.close()


def _click(game_id: int, expected: int, cards: int = 1, state: object = None) -> ClickSave:
    return ClickSave(
        game_id=game_id,
        guild_id=GUILD,
        expected_version=expected,
        state={"turn": expected, "pad": state},
        actions=[NewAction(expected + 1, "play", ANN)],
        counters={ANN: {"cards_played": cards}},
        names={ANN: "Ann"},
    )


def _stored(path: Path) -> tuple[int, int, int]:
    """(game version, logged actions, Ann's cards played) as another process reads them."""
    with sqlite3.connect(path) as conn:
        version = conn.execute("SELECT version FROM games").fetchone()[0]
        actions = conn.execute("SELECT count(*) FROM game_actions").fetchone()[0]
        cards = conn.execute("SELECT coalesce(sum(cards_played), 0) FROM player_totals")
        return version, actions, cards.fetchone()[0]


def _warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == FAULTS_LOG and r.levelno >= logging.WARNING]


async def test_a_lock_held_past_the_busy_timeout_is_storage_busy(
    sqlite_db: tuple[Database, Path], caplog: pytest.LogCaptureFixture
) -> None:
    db, path = sqlite_db
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    before = _stored(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        caplog.set_level(logging.WARNING, FAULTS_LOG)
        for _ in range(3):  # clicks keep coming while the lock is held
            with pytest.raises(StorageBusy, match="database is locked") as refused:
                await db.save_click(_click(game.id, 1))
            assert refused.value.__traceback__ is not None
        with pytest.raises(StorageBusy):
            async with db.write() as unit:
                await unit.games.finish_round(game.id, 1, winner_id=ANN, points={ANN: 9})
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert _stored(path) == before
    [logged] = _warnings(caplog)  # once for the episode, not once per click
    assert "database is locked" in logged.getMessage() and logged.exc_info is None
    await db.save_click(_click(game.id, 1))
    assert _stored(path) == (2, before[1] + 1, 1)
    assert [r.getMessage() for r in _warnings(caplog)][1:] == ["the database works again"]


async def test_a_full_database_is_storage_unavailable_and_changes_nothing(
    sqlite_db: tuple[Database, Path], caplog: pytest.LogCaptureFixture
) -> None:
    db, path = sqlite_db
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    await db.save_click(_click(game.id, 1))
    before = _stored(path)
    # The page limit is a setting of the connection that writes: the store's own writer.
    writer = db._sqlite_writer
    assert writer is not None
    connection = await writer._raw_connection()
    pages = connection.execute("PRAGMA page_count").fetchone()[0]
    connection.execute(f"PRAGMA max_page_count = {pages}")
    caplog.set_level(logging.WARNING, FAULTS_LOG)
    big = "x" * 200_000  # needs pages the file may not grow by
    for _ in range(3):
        with pytest.raises(StorageUnavailable, match="full") as refused:
            await db.save_click(_click(game.id, 2, state=big))
        assert not isinstance(refused.value, StorageBusy)
    with pytest.raises(StorageUnavailable, match="full"):
        async with db.write() as unit:
            await unit.settings.set_value("big", big)
    assert _stored(path) == before
    assert len(_warnings(caplog)) == 1
    async with db.read() as unit:
        assert await unit.settings.get_value("big") is None
    connection.execute(f"PRAGMA max_page_count = {2**30}")  # room again
    await db.save_click(_click(game.id, 2, state=big))
    assert _stored(path) == (3, before[1] + 1, 2)


async def test_a_bugs_integrity_error_is_not_swallowed(db: Database) -> None:
    async with db.write() as unit:
        await unit.settings.set_value("k", "v")
    with pytest.raises(IntegrityError):
        async with db.write() as unit:
            await unit.session.execute(
                text(
                    "INSERT INTO bot_state (key, value, updated_at)"
                    " VALUES ('k', 'w', CURRENT_TIMESTAMP)"
                )
            )
    async with db.read() as unit:
        assert await unit.settings.get_value("k") == "v"
