"""Alembic: the migrations build exactly the models' schema, go down and up again, and run
from the bot (any working directory) as well as from `alembic` at the repository root."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.store import migrate
from bot.store.models import Base
from bot.store.upgrade import SCRIPT_LOCATION, alembic_config, run_in_migration_transaction
from tests.store.conftest import Backend

REPO = Path(__file__).resolve().parents[2]
TABLES = set(Base.metadata.tables)


async def alembic(engine: AsyncEngine, operation: Callable[[Config], None]) -> None:
    def run(connection: Connection) -> None:
        config = alembic_config(connection)
        run_in_migration_transaction(connection, lambda: operation(config))

    async with engine.connect() as connection:
        await connection.run_sync(run)


async def tables(engine: AsyncEngine) -> set[str]:
    async with engine.connect() as connection:
        return set(await connection.run_sync(lambda c: inspect(c).get_table_names()))


async def test_upgrade_check_downgrade_upgrade(backend: Backend) -> None:
    engine = backend.engine()
    try:
        await migrate(engine)
        assert await tables(engine) == TABLES | {"alembic_version"}
        await alembic(engine, command.check)  # raises if models and migrations disagree
        await alembic(engine, lambda config: command.downgrade(config, "base"))
        assert await tables(engine) == {"alembic_version"}
        await migrate(engine)
        await alembic(engine, command.check)
        await migrate(engine)  # already at head: nothing to do
        assert await tables(engine) == TABLES | {"alembic_version"}
    finally:
        await engine.dispose()


async def test_sqlite_foreign_keys_are_back_on_after_migrating(tmp_path: Path) -> None:
    engine = Backend("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'x.db'}").engine()
    try:
        await migrate(engine)
        async with engine.connect() as connection:  # the same pooled connection
            assert await connection.scalar(text("PRAGMA foreign_keys")) == 1
    finally:
        await engine.dispose()


async def test_the_migrations_are_found_from_any_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert SCRIPT_LOCATION == REPO / "migrations"
    engine = Backend("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'x.db'}").engine()
    try:
        await migrate(engine)
        assert "games" in await tables(engine)
    finally:
        await engine.dispose()


def test_an_operator_can_run_alembic_from_the_repository_root(tmp_path: Path) -> None:
    database = tmp_path / "operator.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{database}"}
    for args in (["upgrade", "head"], ["check"], ["current"]):
        done = subprocess.run(
            [sys.executable, "-m", "alembic", *args],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
    assert "(head)" in done.stdout
    import sqlite3

    with sqlite3.connect(database) as connection:
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    assert names >= TABLES


async def test_english_by_default_becomes_the_servers_own_language(backend: Backend) -> None:
    """0006: before it English was the only language, so a stored "en" was no choice: it
    becomes "auto" (the server's Discord language); a real choice stays; down, it is "en" again."""
    engine = backend.engine()
    insert = text(
        "INSERT INTO guild_settings (guild_id, turn_timeout_seconds, language, start_policy,"
        " updated_at) VALUES (:id, 60, :language, 'host', CURRENT_TIMESTAMP)"
    )
    read = text("SELECT guild_id, language FROM guild_settings ORDER BY guild_id")
    try:
        await alembic(engine, lambda config: command.upgrade(config, "0004"))
        async with engine.begin() as connection:
            await connection.execute(
                insert, [{"id": 1, "language": "en"}, {"id": 2, "language": "de"}]
            )
        await migrate(engine)
        async with engine.connect() as connection:
            assert (await connection.execute(read)).all() == [(1, "auto"), (2, "de")]
        await alembic(engine, lambda config: command.downgrade(config, "0004"))
        async with engine.connect() as connection:
            assert (await connection.execute(read)).all() == [(1, "en"), (2, "de")]
    finally:
        await engine.dispose()


async def test_servers_stored_before_0012_get_a_15_second_round_break(backend: Backend) -> None:
    """0012: a server's row from before the setting gets the default break, 15 s; down and up
    again, the column goes and comes back with the default."""
    engine = backend.engine()
    insert = text(
        "INSERT INTO guild_settings (guild_id, turn_timeout_seconds, language, start_policy,"
        " updated_at) VALUES (1, 300, 'auto', 'host', CURRENT_TIMESTAMP)"
    )
    read = text("SELECT guild_id, round_break_seconds FROM guild_settings")
    try:
        await alembic(engine, lambda config: command.upgrade(config, "0011"))
        async with engine.begin() as connection:
            await connection.execute(insert)
        await migrate(engine)
        async with engine.connect() as connection:
            assert (await connection.execute(read)).all() == [(1, 15)]
        await alembic(engine, lambda config: command.downgrade(config, "0011"))
        async with engine.connect() as connection:
            columns = await connection.run_sync(
                lambda c: {col["name"] for col in inspect(c).get_columns("guild_settings")}
            )
        assert "round_break_seconds" not in columns and "turn_ping_seconds" in columns
        await migrate(engine)
        async with engine.connect() as connection:
            assert (await connection.execute(read)).all() == [(1, 15)]
    finally:
        await engine.dispose()
