"""Alembic environment: shares the bot's connection when given one, else opens its own (async).

`alembic upgrade head` from the repository root uses `sqlalchemy.url` from alembic.ini if set,
otherwise the bot's Settings (DATABASE_URL, or the SQLite file in DATA_DIR).
"""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from bot.store.database import create_engine
from bot.store.models import Base
from bot.store.upgrade import run_in_migration_transaction

config = context.config
target_metadata = Base.metadata


def _database_url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    if url:
        return url
    from bot.settings import Settings

    return Settings().resolved_database_url


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite can barely ALTER: autogenerate batch operations (they are plain ALTERs elsewhere).
        render_as_batch=True,
        compare_type=True,
    )


def _run_with(connection: Connection) -> None:
    _configure(connection)
    with context.begin_transaction():
        context.run_migrations()


async def _run_online() -> None:
    engine = create_engine(_database_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(
                lambda conn: run_in_migration_transaction(conn, lambda: _run_with(conn))
            )
    finally:
        await engine.dispose()


def run_migrations_offline() -> None:
    context.configure(
        url=_database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    shared = config.attributes.get("connection")
    if shared is not None:
        # Called from bot.store.upgrade (or a test): the caller owns the transaction.
        _run_with(shared)
        return
    if config.config_file_name is not None:
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    asyncio.run(_run_online())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
