"""The click's save (`Database.save_click`): the same rows as the repositories write, on the
driver's connection; version-checked, all or nothing, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.store import (
    ClickSave,
    Database,
    GameNotFound,
    NewAction,
    StaleVersion,
    StorageUnavailable,
    WrongStatus,
)
from tests.store.conftest import GUILD, new_running_game

ANN, BEN, ROBOT = 41, 42, -3


def click(game_id: int, expected: int = 1, **changes) -> ClickSave:
    values = {
        "game_id": game_id,
        "guild_id": GUILD,
        "expected_version": expected,
        "state": {"turn": expected + 1, "hands": {"41": ["R7"]}},
        "actions": [NewAction(expected + 1, "play:R7", ANN)],
        "counters": {ANN: {"cards_played": 1}},
        "names": {ANN: "Ann"},
        **changes,
    }
    return ClickSave(**values)


async def test_a_click_writes_snapshot_log_counters_and_timeouts(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "Robot"})
    deadline = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    await db.save_click(
        click(
            game.id,
            actions=[NewAction(2, "play:R7:uno", ANN), NewAction(3, "draw", ROBOT, {"n": 1})],
            counters={ANN: {"cards_played": 1, "uno_calls": 1}, BEN: {"catches": 0}},
            names={ANN: "Ann", BEN: "Ben"},
            timeouts={BEN: 2},
            turn_deadline=deadline,
        )
    )
    async with db.read() as unit:
        saved = await unit.games.load(game.id)
        log = await unit.history.actions(game.id)
        ann = await unit.stats.player(GUILD, ANN)
        ben = await unit.stats.player(GUILD, BEN)
        record = await unit.games.get(game.id)
    assert saved.version == 3 and saved.state == {"turn": 2, "hands": {"41": ["R7"]}}
    assert record.turn_deadline == deadline
    assert [(e.version, e.action, e.actor_id, e.detail) for e in log[1:]] == [
        (2, "play:R7:uno", ANN, None),
        (3, "draw", ROBOT, {"n": 1}),
    ]
    assert log[1].created_at.tzinfo is not None
    assert ann is not None and (ann.cards_played, ann.uno_calls, ann.display_name) == (1, 1, "Ann")
    assert ben is None  # a zero counter creates no total
    assert record.seat_of(BEN).timeouts == 2


async def test_the_deadline_is_kept_cleared_or_set(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    later = datetime.now(UTC) + timedelta(minutes=1)
    await db.save_click(click(game.id, 1, turn_deadline=later))
    await db.save_click(click(game.id, 2))  # UNCHANGED
    async with db.read() as unit:
        assert (await unit.games.get(game.id)).turn_deadline == later
    await db.save_click(click(game.id, 3, turn_deadline=None))
    async with db.read() as unit:
        assert (await unit.games.get(game.id)).turn_deadline is None


async def test_a_stale_or_ended_game_is_refused_and_nothing_is_written(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    await db.save_click(click(game.id, 1))
    with pytest.raises(StaleVersion):
        await db.save_click(click(game.id, 1, state={"lost": True}))
    with pytest.raises(GameNotFound):
        await db.save_click(click(987_654, 1))
    async with db.write() as unit:
        await unit.games.abandon(game.id)
    with pytest.raises(WrongStatus):
        await db.save_click(click(game.id, 2))
    async with db.read() as unit:
        saved = await unit.games.load(game.id)
        log = await unit.history.actions(game.id)
        ann = await unit.stats.player(GUILD, ANN)
    assert saved.version == 2 and "lost" not in saved.state
    assert [e.version for e in log] == [1, 2]
    assert ann is not None and ann.cards_played == 1


async def test_of_two_concurrent_clicks_on_one_version_one_is_stored(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    results = await asyncio.gather(
        db.save_click(click(game.id, 1, state={"who": "first"})),
        db.save_click(click(game.id, 1, state={"who": "second"})),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "StaleVersion"]
    async with db.read() as unit:
        assert len(await unit.history.actions(game.id)) == 2
        assert (await unit.stats.player(GUILD, ANN)).cards_played == 1


async def test_the_same_rows_as_the_repository_path(db: Database) -> None:
    """save_action through a unit of work and save_click store identical rows."""
    one = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    two = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, channel_id=77)
    state = {"nested": {"a": [1, 2, None]}, "text": "ünï"}
    actions = [NewAction(2, "play:W4", ANN, {"x": None}), NewAction(3, "color:R", ANN)]
    async with db.write() as unit:
        await unit.games.save_action(one.id, expected_version=1, state=state, actions=actions)
    await db.save_click(click(two.id, state=state, actions=actions, counters={}, names={}))
    async with db.read() as unit:
        rows = [
            [(a.version, a.action, a.actor_id, a.detail) for a in await unit.history.actions(g)]
            for g in (one.id, two.id)
        ]
        states = [(await unit.games.load(g)).state for g in (one.id, two.id)]
    assert rows[0] == rows[1] and states[0] == states[1] == state


async def test_in_memory_sqlite_saves_a_click_too() -> None:
    db = Database.from_url("sqlite+aiosqlite:///:memory:")
    await db.migrate()
    try:
        game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
        await db.save_click(click(game.id))
        with pytest.raises(StaleVersion):
            await db.save_click(click(game.id))
        async with db.read() as unit:
            assert (await unit.games.load(game.id)).version == 2
    finally:
        await db.close()


async def test_a_deleted_file_refuses_the_click(tmp_path: Path) -> None:
    path = tmp_path / "gone.db"
    db = Database.from_url(f"sqlite+aiosqlite:///{path}")
    await db.migrate()
    try:
        game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
        await db.save_click(click(game.id))
        os.rename(path, tmp_path / "elsewhere.db")
        with pytest.raises(StorageUnavailable):
            await db.save_click(click(game.id, 2))
        os.rename(tmp_path / "elsewhere.db", path)
        await db.save_click(click(game.id, 2))
        async with db.read() as unit:
            assert (await unit.games.load(game.id)).version == 3
    finally:
        await db.close()
