"""INSERT ... ON CONFLICT for the two supported backends (SQLite and PostgreSQL spell it alike).

An upsert is one statement, so two writers adding to the same total can never lose an update or
collide on the primary key, with no read-then-write race.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

_INSERTS: dict[str, Callable[[Any], Any]] = {
    "sqlite": sqlite.insert,
    "postgresql": postgresql.insert,
}

Statement = TypeVar("Statement")


def _dialect_name(session: AsyncSession) -> str:
    name = session.get_bind().dialect.name
    if name not in _INSERTS:
        raise NotImplementedError(f"the store supports SQLite and PostgreSQL, not {name}")
    return name


def insert_for(session: AsyncSession, entity: Any) -> Any:
    """The dialect's own `insert(entity)`, which has `on_conflict_do_update`."""
    return _INSERTS[_dialect_name(session)](entity)


class PerDialect(Generic[Statement]):
    """A hot-path statement built once per backend from that backend's `insert`.

    Building an upsert is costly (its `excluded` namespace copies the table's columns), so
    statements run on every save are made at import time and only picked per session.
    """

    def __init__(self, build: Callable[[Callable[[Any], Any]], Statement]) -> None:
        self._built = {name: build(insert) for name, insert in _INSERTS.items()}

    def for_session(self, session: AsyncSession) -> Statement:
        return self._built[_dialect_name(session)]

    def for_dialect(self, name: str) -> Statement:
        if name not in self._built:
            raise NotImplementedError(f"the store supports SQLite and PostgreSQL, not {name}")
        return self._built[name]
