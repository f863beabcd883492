"""An empty PostgreSQL schema for one run of the bot: e2e tests and benchmarks.

Why a schema of the role's name: PostgreSQL's default search_path ("$user", public) finds it
first, so the bot's tables land there, and dropping it empties the database for the next run
without touching what other users keep in `public`.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import create_async_engine


async def reset_role_schema(url: str, *, create: bool) -> None:
    """Drop the role's schema (and everything the bot made in it); `create`: make it again,
    empty, with Alembic's own table."""
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
