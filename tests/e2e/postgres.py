"""PostgreSQL for e2e tests: TEST_DATABASE_URL (set by .ci/run), in a schema of its own.

Without TEST_DATABASE_URL a test that needs PostgreSQL is skipped, except under CI=true, where
a missing database is a failure. The bot's tables go into a schema named after the database
role, which PostgreSQL's default search_path ("$user", public) puts first; it is dropped
afterwards, so every test starts from an empty database. A role has one such schema, so a test
holds an advisory lock on the database while it uses it: two test processes (pytest-xdist's
workers, tests/e2e/conftest.py) take turns instead of emptying each other's tables.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from testing.postgres_schema import reset_role_schema

PG_URL = os.environ.get("TEST_DATABASE_URL", "")


def require_postgres() -> str:
    if not PG_URL:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but TEST_DATABASE_URL is not set: PostgreSQL is required")
        pytest.skip("needs PostgreSQL: set TEST_DATABASE_URL (.ci/run shows how)")
    return PG_URL


#: The advisory lock (a bigint key of this project's choosing) held while a test owns the role's
#: schema.
ROLE_SCHEMA_LOCK = 0x756E6F_0E2E


@asynccontextmanager
async def empty_postgres() -> AsyncIterator[str]:
    """The URL of an empty PostgreSQL database for one test (skips without one), the role's
    schema this test's alone until it ends."""
    url = require_postgres()
    locker = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with locker.connect() as lock:
            # Waits (without blocking the event loop) while another process's test holds it;
            # released when this connection closes, even if the test process dies.
            await lock.exec_driver_sql(f"SELECT pg_advisory_lock({ROLE_SCHEMA_LOCK})")
            await reset_role_schema(url, create=True)
            try:
                yield url
            finally:
                await reset_role_schema(url, create=False)
    finally:
        await locker.dispose()
