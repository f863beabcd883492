"""Applying the Alembic migrations from inside the bot (and from Alembic's own command line).

Alembic's async template calls asyncio.run(), which cannot run inside the bot's event loop, so the
bot hands Alembic a connection instead (the cookbook's "connection sharing"). The whole upgrade is
one transaction; on SQLite foreign keys are off meanwhile, because a batch migration recreates
tables and a recreated parent would otherwise cascade-delete its children.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

import migrations

#: The migrations folder, found from the installed package rather than the working directory.
#: (`__path__`, not `__file__`: an editable install can import it as a namespace package.)
SCRIPT_LOCATION = Path(next(iter(migrations.__path__))).resolve()
#: Any 64-bit number, the same in every process: PostgreSQL serialises concurrent upgrades on it.
_PG_MIGRATION_LOCK = 0x756E6F5F6D696772


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic Config pointing at our migrations, optionally sharing `connection`."""
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@contextmanager
def _sqlite_foreign_keys_off(connection: Connection) -> Iterator[None]:
    # The PRAGMA is a no-op inside a transaction, so it goes straight to the driver, before
    # SQLAlchemy begins one, and is restored before the connection returns to the pool.
    if connection.dialect.name != "sqlite":
        yield
        return
    dbapi_connection = connection.connection.dbapi_connection
    assert dbapi_connection is not None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=OFF")
        yield
    finally:
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def run_in_migration_transaction(connection: Connection, work: Callable[[], None]) -> None:
    """Run `work` in one transaction on `connection`: SQLite foreign keys off, PostgreSQL locked."""
    with _sqlite_foreign_keys_off(connection), connection.begin():
        if connection.dialect.name == "postgresql":
            # Shards start together and share one database: let one of them migrate at a time.
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_MIGRATION_LOCK})")
        work()


def _upgrade(connection: Connection, revision: str) -> None:
    config = alembic_config(connection)
    run_in_migration_transaction(connection, lambda: command.upgrade(config, revision))


async def migrate(engine: AsyncEngine, revision: str = "head") -> None:
    """`alembic upgrade head` on the bot's own engine, from inside its event loop."""
    async with engine.connect() as connection:
        await connection.run_sync(_upgrade, revision)
