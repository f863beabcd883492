"""Game records built and verified in a worker process (drawing/workers.py), never on the event
loop.

A record is the whole action log replayed (bot/engine/record.py), and `/uno verify` replays it
once more (bot/engine/verify.py): for a long match (14,000 actions) a tenth of a second or more
of pure Python each, and ten members asking at once would hold every game of the bot for
seconds. In a thread it would still hold the interpreter lock against the loop in bursts, so
the work goes to a process of its own: the loop sends it the record's parts (plain data,
cogs/uno/records/exports.py `record_parts`) and gets back the finished file's bytes or the verdict.

Every call has a deadline (`DEADLINE`, the process's start included): a record not done by then
is `RecordLate`, and the asker is told so in their language. The process starts the first time
a record is asked for (a bot nobody asks never pays for it). It never falls back to a thread:
that is the stall this module is here to avoid.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, TypeVar

from bot.engine.record import build_record
from bot.engine.verify import Verdict, verify
from cogs.uno.drawing.workers import WorkerLate, WorkerProcess

T = TypeVar("T")

#: Seconds a record may take, the process's start included: a 14,000-action match is built in
#: a fraction of a second (benchmarks/record_loop_stall.py, docs/benchmarks.md); ten asked at
#: once queue behind each other, and a fresh process imports the engine in about a second.
DEADLINE = 20.0


class RecordLate(TimeoutError):
    """The record was not done within `DEADLINE` (the asker is told to try again)."""


def record_file(parts: dict[str, Any]) -> tuple[bytes, int]:
    """The record built from `parts` as the JSON file `/uno export` attaches, and its number
    of rounds (runs in the worker)."""
    record = build_record(**parts)
    return json.dumps(record, indent=1, ensure_ascii=False).encode(), len(record["rounds"])


def record_verdict(parts: dict[str, Any]) -> Verdict:
    """The record built from `parts`, replayed by the verifier (runs in the worker)."""
    return verify(build_record(**parts))


def warm_up() -> str:
    """Import the engine and build and verify a record once, so the first asked is not slow."""
    return f"engine loaded ({record_verdict(_tiny_parts()).message})"


def _tiny_parts() -> dict[str, Any]:
    from bot.engine import Game, RuleSet

    game, _ = Game.start([1, 2], RuleSet(), seed=0)
    return dict(
        rules=game.rules.to_dict(),
        players=[(1, "a"), (2, "b")],
        first_dealer=game.dealer,
        actions=[],
        commitments={1: game.commitment} if game.commitment else {},
        revealed={},
        results={},
        totals=None,
    )


class RecordWork:
    """The process records are built in, started the first time one is asked for."""

    def __init__(self) -> None:
        self.worker = WorkerProcess("record", warm_up)

    async def file(self, parts: dict[str, Any]) -> tuple[bytes, int]:
        """`record_file(parts)` in the process; `RecordLate` past the deadline."""
        return await self._run(record_file, parts)

    async def verdict(self, parts: dict[str, Any]) -> Verdict:
        """`record_verdict(parts)` in the process; `RecordLate` past the deadline."""
        return await self._run(record_verdict, parts)

    async def _run(self, fn: Callable[[dict[str, Any]], T], parts: dict[str, Any]) -> T:
        loop = asyncio.get_running_loop()
        until = loop.time() + DEADLINE
        self.worker.start()  # (once: later calls find it started, or given up)
        starting = asyncio.ensure_future(self.worker.wait_ready())
        await asyncio.wait({starting}, timeout=DEADLINE)
        if not self.worker.ready:
            raise RecordLate("no record process")
        try:
            return await self.worker.run(
                fn, parts, deadline=max(0.1, until - loop.time()), thread=False
            )
        except WorkerLate as exc:
            raise RecordLate(str(exc)) from exc

    async def close(self) -> None:
        await self.worker.close()


#: The bot's one record process (closed with the app, cogs/uno/app.py).
RECORDS = RecordWork()
