"""PostgreSQL's passing faults: a deadlocked unit run once more by `transact` and `save_click`,
and a deadlock or a lost connection inside a plain `write` reported as StorageBusy."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.store import Database, StorageBusy, UnitOfWork
from tests.store.conftest import Backend


@pytest.fixture
def postgres(backend: Backend) -> Backend:
    if backend.name != "postgresql":
        pytest.skip("PostgreSQL only: row locks, deadlocks and server-side connections")
    return backend


async def _opposite_orders(db: Database, *, transact: bool) -> tuple[list[object], Counter[str]]:
    """Two units writing keys a and b in opposite orders, each held after its first write until
    the other got there too (the first run only): a certain deadlock."""
    async with db.write() as unit:
        for key in "ab":
            await unit.settings.set_value(key, "-")
    barrier = asyncio.Barrier(2)
    runs: Counter[str] = Counter()

    async def body(unit: UnitOfWork, name: str, first: str, second: str) -> None:
        runs[name] += 1
        await unit.settings.set_value(first, name)
        if runs[name] == 1:
            await asyncio.wait_for(barrier.wait(), 10)
        await unit.settings.set_value(second, name)

    async def one(name: str, first: str, second: str) -> None:
        if transact:
            await db.transact(lambda unit: body(unit, name, first, second))
        else:
            async with db.write() as unit:
                await body(unit, name, first, second)

    results = await asyncio.gather(one("x", "a", "b"), one("y", "b", "a"), return_exceptions=True)
    return results, runs


async def test_transact_runs_a_deadlocked_unit_again(postgres: Backend, db: Database) -> None:
    results, runs = await _opposite_orders(db, transact=True)
    assert results == [None, None]
    once, again = sorted(runs.values())
    assert once == 1 and again >= 2  # the deadlock's victim ran again (at worst more than once)
    async with db.read() as unit:
        a, b = await unit.settings.get_value("a"), await unit.settings.get_value("b")
    assert a == b and a in ("x", "y")  # the unit that ran last wrote both keys


async def test_a_deadlock_in_a_plain_write_is_storage_busy(postgres: Backend, db: Database) -> None:
    results, _ = await _opposite_orders(db, transact=False)
    [failure] = [r for r in results if r is not None]
    assert isinstance(failure, StorageBusy) and "deadlock" in str(failure)


async def test_a_lost_connection_is_storage_busy_and_the_next_write_works(
    postgres: Backend, db: Database
) -> None:
    admin = create_async_engine(postgres.url, isolation_level="AUTOCOMMIT")
    try:
        with pytest.raises(StorageBusy):
            async with db.write() as unit:
                await unit.settings.set_value("k", "lost")
                pid = await unit.session.scalar(text("SELECT pg_backend_pid()"))
                async with admin.connect() as conn:
                    stopped = await conn.scalar(
                        text("SELECT pg_terminate_backend(:pid, 5000)"), {"pid": pid}
                    )
                assert stopped
                await unit.settings.set_value("k2", "lost")
    finally:
        await admin.dispose()
    async with db.write() as unit:
        assert await unit.settings.get_value("k") is None  # nothing of the lost unit was kept
        await unit.settings.set_value("k", "saved")
    async with db.read() as unit:
        assert await unit.settings.get_value("k") == "saved"
