"""The write of every click, without the ORM: the store's own statements, run on the driver.

A click saves the engine snapshot (a version-checked UPDATE), its action-log rows, the players'
counters and sometimes their timeout counts. Through an ORM session that cost many times what SQLite
itself spends, and it was the largest share of the bot's CPU per interaction
(benchmarks/store_throughput.py --unit click; docs/benchmarks.md, "The store"). Here the very
statements the repositories use (`games._SAVE_STATE`, `games._LOG_ACTION`, `games._SET_TIMEOUTS`,
`stats._TOTALS_UPSERT`) are compiled once per dialect, with SQLAlchemy's own bind processors for
their types (JSON through the engine's serializer, enums, UTC timestamps), and executed on the
driver's connection: sqlite3 on the SQLite writer's inline connection, asyncpg on a pooled
PostgreSQL connection. One statement per write on both backends; only the executor differs. Rarer
writes (seats, rounds, the end of a match) keep going through the repositories in a unit of work.

The seat map (names, who is a computer) comes from the caller's live game instead of a roster
query: counters are only ever given for people seated in that game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise
from typing import Any

from sqlalchemy.engine import Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from bot.engine.game_kinds import CLASSIC
from bot.store.games import (
    _LOG_ACTION,
    _SAVE_STATE,
    _SAVE_STATE_AND_DEADLINE,
    _SET_TIMEOUTS,
    _STATUS_AND_VERSION,
    UNCHANGED,
    _Unchanged,
)
from bot.store.models import COUNTERS, utcnow
from bot.store.records import NewAction
from bot.store.stats import _TOTALS_UPSERT, SUMMED

_LOG_KEYS = ("game_id", "version", "actor_id", "action", "detail", "created_at")
_TOTAL_KEYS = ("guild_id", "user_id", "display_name", "updated_at", *SUMMED)


@dataclass(frozen=True, slots=True)
class ClickSave:
    """Everything one click writes (see `Database.save_click`)."""

    game_id: int
    guild_id: int
    expected_version: int
    state: Mapping[str, Any]
    actions: Sequence[NewAction]
    turn_deadline: datetime | _Unchanged | None = UNCHANGED
    #: {user: {counter: amount}}, people only (the caller leaves computers out).
    counters: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    #: Display names of the users in `counters`.
    names: Mapping[int, str] = field(default_factory=dict)
    #: {user: turns in a row lost to the timer}
    timeouts: Mapping[int, int] = field(default_factory=dict)
    #: The match's game (bot/engine/game_kinds.py `game_of` its rules): whose totals.
    game: str = CLASSIC

    def __post_init__(self) -> None:
        if not self.actions:
            raise ValueError("a click saves at least one action")
        versions = [self.expected_version, *(a.version for a in self.actions)]
        if any(later <= earlier for earlier, later in pairwise(versions)):
            raise ValueError(f"action versions must increase: {versions}")
        for counts in self.counters.values():
            for key, amount in counts.items():
                if key not in COUNTERS or type(amount) is not int or amount < 0:
                    raise ValueError(f"bad counter {key}={amount!r}")

    @property
    def new_version(self) -> int:
        return self.actions[-1].version


class CompiledWrite:
    """A Core statement compiled once for one dialect: its SQL, and how to order and convert
    a dict of values into the driver's positional parameters (SQLAlchemy's bind processors)."""

    __slots__ = ("_order", "sql")

    def __init__(
        self, statement: ClauseElement, dialect: Dialect, keys: Sequence[str] | None = None
    ) -> None:
        compiled = statement.compile(
            dialect=dialect, column_keys=list(keys) if keys else None, for_executemany=True
        )
        assert isinstance(compiled, SQLCompiler)  # a Core DML statement compiles to SQL
        self.sql = str(compiled)
        processors = compiled._bind_processors
        binds = compiled.binds
        names = compiled.positiontup or []
        self._order = [
            (
                name,
                not binds[name].required and binds[name].callable is None,
                binds[name].value,
                _scalar(processors.get(name)),
            )
            for name in names
        ]

    def args(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        out = []
        for name, fixed, constant, process in self._order:
            value = constant if fixed else values[name]
            out.append(value if process is None else process(value))
        return tuple(out)


def _scalar(process: object) -> Callable[[Any], Any] | None:
    """A bind processor of one value (SQLAlchemy gives a sequence for a tuple bind: none here)."""
    if process is None or callable(process):
        return process
    raise TypeError(f"a click statement with a tuple bind: {process!r}")


class ClickStatements:
    """The click's statements compiled for one dialect (built once per Database)."""

    def __init__(self, dialect: Dialect) -> None:
        self.save_state = CompiledWrite(_SAVE_STATE, dialect)
        self.save_state_and_deadline = CompiledWrite(_SAVE_STATE_AND_DEADLINE, dialect)
        self.log_action = CompiledWrite(_LOG_ACTION, dialect, _LOG_KEYS)
        self.set_timeouts = CompiledWrite(_SET_TIMEOUTS, dialect)
        self.add_totals = CompiledWrite(_TOTALS_UPSERT.for_dialect(dialect.name), dialect)
        self.status = CompiledWrite(_STATUS_AND_VERSION, dialect)

    def plan(self, click: ClickSave) -> tuple[tuple[str, tuple[Any, ...]], list[Batch]]:
        """(the version-checked UPDATE with its parameters, then the other statements' batches).

        The UPDATE goes first and alone: if it changes no row, nothing else may be written.
        """
        values: dict[str, Any] = {
            "game": click.game_id,
            "expected": click.expected_version,
            "new_state": dict(click.state),
            "new_version": click.new_version,
        }
        update = self.save_state
        if click.turn_deadline is not UNCHANGED:
            update = self.save_state_and_deadline
            values["new_deadline"] = click.turn_deadline
        now = utcnow()
        batches = [
            Batch(
                self.log_action.sql,
                [
                    self.log_action.args(
                        {
                            "game_id": click.game_id,
                            "version": a.version,
                            "actor_id": a.actor_id,
                            "action": a.action,
                            "detail": None if a.detail is None else dict(a.detail),
                            "created_at": now,
                        }
                    )
                    for a in click.actions
                ],
            )
        ]
        if click.timeouts:
            batches.append(
                Batch(
                    self.set_timeouts.sql,
                    [
                        self.set_timeouts.args({"game": click.game_id, "user": u, "count": n})
                        for u, n in sorted(click.timeouts.items())
                    ],
                )
            )
        rows = []
        for user_id in sorted(click.counters):  # a stable order: no deadlock between writers
            nonzero = {k: v for k, v in click.counters[user_id].items() if v}
            if not nonzero:
                continue
            row: dict[str, Any] = dict.fromkeys(SUMMED, 0)
            row.update(nonzero)
            row.update(
                guild_id=click.guild_id,
                game=click.game,
                user_id=user_id,
                display_name=click.names[user_id],
                updated_at=now,
            )
            rows.append(self.add_totals.args(row))
        if rows:
            batches.append(Batch(self.add_totals.sql, rows))
        return (update.sql, update.args(values)), batches


@dataclass(frozen=True, slots=True)
class Batch:
    """One statement and the parameter tuples to run it with (executemany)."""

    sql: str
    rows: list[tuple[Any, ...]]
