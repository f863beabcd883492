"""INSERT ... ON CONFLICT for the two supported backends (SQLite and PostgreSQL spell it alike).

An upsert is one statement, so two writers adding to the same total can never lose an update or
collide on the primary key, with no read-then-write race.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


def insert_for(session: AsyncSession, entity: Any) -> Any:
    """The dialect's own `insert(entity)`, which has `on_conflict_do_update`."""
    name = session.get_bind().dialect.name
    if name == "sqlite":
        return sqlite.insert(entity)
    if name == "postgresql":
        return postgresql.insert(entity)
    raise NotImplementedError(f"the store supports SQLite and PostgreSQL, not {name}")
