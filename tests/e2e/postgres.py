"""PostgreSQL for e2e tests: TEST_DATABASE_URL (set by .ci/run), in a schema of its own.

Without TEST_DATABASE_URL a test that needs PostgreSQL is skipped, except under CI=true, where
a missing database is a failure. The bot's tables go into a schema named after the database
role, which PostgreSQL's default search_path ("$user", public) puts first; it is dropped
afterwards, so every test starts from an empty database.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

PG_URL = os.environ.get("TEST_DATABASE_URL", "")


def require_postgres() -> str:
    if not PG_URL:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but TEST_DATABASE_URL is not set: PostgreSQL is required")
        pytest.skip("needs PostgreSQL: set TEST_DATABASE_URL (.ci/run shows how)")
    return PG_URL


async def _reset_role_schema(url: str, *, create: bool) -> None:
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            role = (await conn.exec_driver_sql("SELECT current_user")).scalar_one()
            await conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{role}" CASCADE')
            if create:
                await conn.exec_driver_sql(f'CREATE SCHEMA "{role}"')
                # Alembic's own table, empty: found before any public.alembic_version that
                # another user may have left in a shared test database.
                await conn.exec_driver_sql(
                    f'CREATE TABLE "{role}".alembic_version '
                    "(version_num VARCHAR(32) NOT NULL PRIMARY KEY)"
                )
    finally:
        await engine.dispose()


@asynccontextmanager
async def empty_postgres() -> AsyncIterator[str]:
    """The URL of an empty PostgreSQL database for one test (skips without one)."""
    url = require_postgres()
    await _reset_role_schema(url, create=True)
    try:
        yield url
    finally:
        await _reset_role_schema(url, create=False)
