"""PostgreSQL's pooled connections (bot/store/idle_ping.py): one that died while it sat idle is
replaced before any work is given to it; one taken again at once is not checked (no round
trips of its own under load)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store import Database, StorageBusy, create_engine, idle_ping
from tests.store.conftest import Backend


@pytest.fixture
async def one_connection(backend: Backend) -> AsyncIterator[Database]:
    """A database whose pool holds a single connection (so the test knows which one it is)."""
    if backend.name != "postgresql":
        pytest.skip("PostgreSQL only: its connections can die while idle")
    engine = create_engine(backend.url, pool_size=1, max_overflow=0, **backend.engine_kwargs)
    database = Database(engine)
    await database.migrate()
    try:
        yield database
    finally:
        await database.close()


async def _kill_the_idle_connection(db: Database, url: str) -> None:
    """End the pool's connection on the server while it is back in the pool (a restart, a
    proxy's idle timeout)."""
    async with db.write() as unit:
        pid = await unit.session.scalar(text("SELECT pg_backend_pid()"))
    admin = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            stopped = await conn.scalar(
                text("SELECT pg_terminate_backend(:pid, 5000)"), {"pid": pid}
            )
        assert stopped
    finally:
        await admin.dispose()


async def test_a_connection_dead_after_idling_is_replaced(
    one_connection: Database, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(idle_ping, "PING_AFTER_IDLE", 0.0)  # (idle long enough at once)
    await _kill_the_idle_connection(one_connection, backend.url)
    async with one_connection.write() as unit:
        await unit.settings.set_value("k", "saved")
    async with one_connection.read() as unit:
        assert await unit.settings.get_value("k") == "saved"


async def test_without_the_check_the_dead_connection_fails_the_work(
    one_connection: Database, backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the check is for: taken unchecked, the dead connection fails the write given to it
    (and only then is the pool renewed)."""
    monkeypatch.setattr(idle_ping, "PING_AFTER_IDLE", 1e9)
    await _kill_the_idle_connection(one_connection, backend.url)
    with pytest.raises(StorageBusy):
        async with one_connection.write() as unit:
            await unit.settings.set_value("k", "lost")
    async with one_connection.write() as unit:
        await unit.settings.set_value("k", "saved")


async def test_a_connection_taken_again_at_once_is_not_checked(
    one_connection: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialect = one_connection.engine.sync_engine.dialect
    pings: list[Any] = []
    real = dialect.do_ping
    monkeypatch.setattr(dialect, "do_ping", lambda c: pings.append(c) or real(c))
    monkeypatch.setattr(idle_ping, "PING_AFTER_IDLE", 1e9)
    for n in range(5):
        async with one_connection.write() as unit:
            await unit.settings.set_value("k", str(n))
    assert pings == []
    monkeypatch.setattr(idle_ping, "PING_AFTER_IDLE", 0.0)
    async with one_connection.read() as unit:
        assert await unit.settings.get_value("k") == "4"
    assert len(pings) == 1
