"""Fixtures: every store test runs on a fresh SQLite file, and on PostgreSQL too when
TEST_DATABASE_URL names a server (each test then gets its own throw-away schema)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.engine.rules import RuleSet
from bot.store import Database, GameRecord, NewAction, create_engine

PG_URL = os.environ.get("TEST_DATABASE_URL", "")
BACKENDS = ["sqlite", *(["postgresql"] if PG_URL else [])]

GUILD = 1_000_000_000_000_000_001
CHANNEL = 2_000_000_000_000_000_002
HOST = 3_000_000_000_000_000_003


@dataclass
class Backend:
    """Where a test's database lives: a URL plus engine options (PostgreSQL's search_path)."""

    name: str
    url: str
    engine_kwargs: dict[str, Any] = field(default_factory=dict)

    def engine(self) -> AsyncEngine:
        return create_engine(self.url, **self.engine_kwargs)

    def database(self) -> Database:
        return Database(self.engine())


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        yield Backend("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'store.db'}")
        return
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = create_async_engine(PG_URL, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        yield Backend(
            "postgresql",
            PG_URL,
            {"connect_args": {"server_settings": {"search_path": schema}}},
        )
    finally:
        async with admin.connect() as conn:
            await conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.dispose()


@pytest.fixture
async def db(backend: Backend) -> AsyncIterator[Database]:
    database = backend.database()
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()


async def new_running_game(
    db: Database,
    players: dict[int, str],
    *,
    bots: dict[int, str] | None = None,
    channel_id: int = CHANNEL,
    guild_id: int = GUILD,
    state: dict[str, Any] | None = None,
    rules: RuleSet | None = None,
    moved: bool = False,
) -> GameRecord:
    """A started game: the first of `players` hosts; `bots` are computer players. `moved`: its
    host has made a move (a match may be rated once somebody moved)."""
    (host_id, host_name), *others = players.items()
    async with db.write() as unit:
        game = await unit.games.open_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            host_name=host_name,
            rules=rules or RuleSet(),
        )
        for user_id, name in others:
            await unit.games.seat(game.id, user_id, name)
        for user_id, name in (bots or {}).items():
            await unit.games.seat(game.id, user_id, name, is_bot=True, bot_level="normal")
        started = await unit.games.start(game.id, state=state or {"turn": 0}, version=1)
        if not moved:
            return started
        await unit.games.save_action(
            game.id,
            expected_version=1,
            state=state or {"turn": 1},
            actions=NewAction(version=2, action="draw", actor_id=host_id),
        )
        return await unit.games.get(game.id)
