"""Processes of one token share its request budget through PostgreSQL (bot/budget_sharing.py).

Each "process" here is a `BudgetSharing` with an engine of its own on one real PostgreSQL server
(TEST_DATABASE_URL), beating faster than in production (every 0.1 s, dead after 3 s) so the
tests stay short; what they check does not depend on the speed. A watcher samples every 10 ms
that the shares in effect and the claims written never add up to more than the budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.budget_sharing import BudgetSharing, fair_share, token_identity
from bot.request_budget import RequestBudget
from bot.store import create_engine, migrate
from bot.store.token_budget import Member, TokenBudgetTable

from .conftest import PG_URL

pytestmark = pytest.mark.skipif(not PG_URL, reason="needs PostgreSQL: set TEST_DATABASE_URL")

TOTAL = 40
TOKEN = "user:1234567890123456789"


@dataclass
class Server:
    """One PostgreSQL schema of this test's: engines on it, as separate processes would have."""

    schema: str
    engines: list[AsyncEngine] = field(default_factory=list)

    def engine(self) -> AsyncEngine:
        engine = create_engine(
            PG_URL, connect_args={"server_settings": {"search_path": self.schema}}
        )
        self.engines.append(engine)
        return engine

    def process(
        self,
        total: int = TOTAL,
        token: str = TOKEN,
        *,
        pid: int | None = None,
        host: str | None = None,
        every: float = 0.1,
    ) -> BudgetSharing:
        """A process of `token`: this test's own pid, on a host of its own unless told."""
        table = TokenBudgetTable(
            self.engine(),
            token_id=token,
            process_key=uuid.uuid4().hex,
            pid=os.getpid() if pid is None else pid,
            host=host or f"host-{uuid.uuid4().hex[:8]}",
        )
        return BudgetSharing(
            RequestBudget(total), table, every=every, dead_after=3.0, healthy=0.6, deadline=0.5
        )


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = create_async_engine(PG_URL, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    here = Server(schema)
    try:
        await migrate(here.engine())
        yield here
    finally:
        for engine in here.engines:
            await engine.dispose()
        async with admin.connect() as conn:
            await conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.dispose()


async def until(condition: Callable[[], bool], seconds: float, what: str) -> float:
    """Wait for `condition` (checked every 10 ms) at most `seconds`; the seconds it took."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not condition():
        if loop.time() - start > seconds:
            raise AssertionError(f"not within {seconds} s: {what}")
        await asyncio.sleep(0.01)
    return loop.time() - start


async def claims(server: Server, token: str = TOKEN) -> int:
    async with server.engines[0].connect() as conn:
        found = await conn.execute(
            text("SELECT coalesce(sum(claim), 0) FROM token_budget_members WHERE token_id = :t"),
            {"t": token},
        )
        return int(found.scalar_one())


@contextlib.asynccontextmanager
async def watched(processes: list[BudgetSharing]) -> AsyncIterator[list[int]]:
    """Samples, every 10 ms, the shares in effect together; fails if they ever exceed TOTAL.
    (A process counts from its first beat: before its start it sends nothing, and from its
    start to its first beat its share is none.)"""
    seen: list[int] = []

    async def watch() -> None:
        while True:
            shares = [p.budget.per_second for p in processes if p.beats]
            seen.append(sum(shares))
            assert seen[-1] <= TOTAL, shares
            await asyncio.sleep(0.01)

    task = asyncio.create_task(watch())
    try:
        yield seen
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


class Load:
    """Requests asked of each process's budget without pause (three at a time per process),
    every start's moment noted on the one clock all of them share here: the moment the budget
    let it start (its own `_start`), not when the waiting task next ran, which a loaded
    machine delays by a varying amount (two starts 1.4 s apart would look closer)."""

    def __init__(self) -> None:
        self.starts: list[float] = []
        self._tasks: dict[int, list[asyncio.Task[None]]] = {}
        self._noted: set[int] = set()  # the budgets whose starts are noted

    def on(self, process: BudgetSharing) -> None:
        budget = process.budget
        if id(budget) not in self._noted:
            self._noted.add(id(budget))
            granted = budget._start

            def noted(now: float) -> None:
                granted(now)
                self.starts.append(now)

            vars(budget)["_start"] = noted  # this budget's starts, noted as it lets them start

        async def ask() -> None:
            while True:
                await budget.acquire()

        self._tasks[id(process)] = [asyncio.create_task(ask()) for _ in range(3)]

    async def off(self, process: BudgetSharing | None = None) -> None:
        """Stop the load on `process` (every process: None), as if it had died."""
        keys = list(self._tasks) if process is None else [id(process)]
        for key in keys:
            for task in self._tasks.pop(key):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def most_in_a_window(self, window: float) -> int:
        """The most starts, all processes together, within any `window` seconds."""
        starts, most, first = sorted(self.starts), 0, 0
        for last, at in enumerate(starts):
            while at - starts[first] >= window - 1e-6:
                first += 1
            most = max(most, last - first + 1)
        return most


def test_the_token_is_named_by_the_bot_s_id_never_by_itself() -> None:
    # A Discord token begins with the bot's user id in base64.
    assert token_identity("MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.secret-part") == (
        "user:123456789012345678"
    )
    other = token_identity("fake-discord-token-0123")
    assert other.startswith("sha256:") and "0123" not in other


def test_equal_shares_hand_out_the_whole_budget() -> None:
    def others(n: int) -> list[Member]:
        return [Member(f"k{i}", i, "h", 0, 0.0) for i in range(n)]

    for count in range(1, 8):
        keys = [f"k{i}" for i in range(count)]
        shares = [
            fair_share(TOTAL, k, [o for o in others(count) if o.process_key != k]) for k in keys
        ]
        assert sum(shares) == TOTAL and max(shares) - min(shares) <= 1


async def test_two_processes_take_half_each_and_a_dead_one_s_share_comes_back(
    server: Server,
) -> None:
    """Both asking for requests all the time: the first alone uses the whole budget, gives
    half to the newcomer, and has it back once the second dies; all along, their requests
    together never exceed the budget in any of its windows."""
    first, second = server.process(), server.process()
    processes = [first]  # (those started: the others send nothing yet)
    load = Load()
    async with watched(processes):
        await first.start()
        assert first.budget.per_second == TOTAL and first.processes == 1
        load.on(first)
        await asyncio.sleep(first.budget.window)  # a full window of the first at full speed
        await second.start()  # the first holds it all: the newcomer waits for its half
        processes.append(second)
        assert second.budget.per_second == 0
        load.on(second)
        await until(
            lambda: first.budget.per_second == second.budget.per_second == TOTAL // 2,
            3,
            "half each",
        )
        assert await claims(server) <= TOTAL
        # The second dies (no goodbye): the first has all of it back after `dead_after`.
        assert second._task is not None
        processes.remove(second)  # (its share: what a dead process no longer uses)
        second._task.cancel()
        await load.off(second)
        took = await until(lambda: first.budget.per_second == TOTAL, 5, "the whole budget back")
        assert 2.9 <= took <= 5, took
        assert first.processes == 1 and await claims(server) == TOTAL
        await asyncio.sleep(first.budget.window)
    await load.off()
    await first.stop()
    assert len(load.starts) > 2 * TOTAL  # busy: the budget was the limit
    assert load.most_in_a_window(first.budget.window) == TOTAL  # full, never over


async def test_a_process_that_stops_gives_its_share_back_at_once(server: Server) -> None:
    first, second = server.process(), server.process()
    async with watched([first, second]):
        await first.start()
        await second.start()
        await until(lambda: second.budget.per_second == TOTAL // 2, 3, "half each")
        await second.stop()
        took = await until(lambda: first.budget.per_second == TOTAL, 1, "the whole budget")
        assert took < 0.5  # its next beat, not after `dead_after`
    await first.stop()


async def test_a_restart_in_a_killed_process_s_place_has_its_share_at_once(
    server: Server,
) -> None:
    """A process of this host whose pid is gone (killed, restarted) is dropped at the new one's
    start instead of after `dead_after`; one whose pid runs is not."""
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], stdout=subprocess.PIPE, check=True
    )
    dead_pid = int(gone.stdout)  # a process that ran here and is gone
    killed = server.process(pid=dead_pid, host="here")
    running = server.process(pid=os.getpid(), host="here")
    await killed.start()
    await running.start()
    await until(lambda: running.budget.per_second == TOTAL // 2, 3, "half each")
    assert killed._task is not None
    killed._task.cancel()  # killed: its row stays, its heartbeat fresh
    # Another live pid of this host (a process's own pid in the table is its predecessor's).
    restarted = server.process(pid=os.getppid(), host="here")
    await restarted.start()
    await until(
        lambda: restarted.budget.per_second == running.budget.per_second == TOTAL // 2,
        1.0,  # not after `dead_after` (3 s)
        "the killed one's half to the restart",
    )
    assert restarted.processes == running.processes == 2
    await running.stop()
    await restarted.stop()


async def test_the_requests_a_stopping_process_just_made_stay_counted(server: Server) -> None:
    """A process that stops leaves its share, but the 5 requests it started in the window not
    over yet stay claimed until the window is (the others take 35 at once, 40 a window later)."""
    first, second = server.process(), server.process()
    await first.start()
    await second.start()
    await until(lambda: second.budget.per_second == TOTAL // 2, 3, "half each")
    for _ in range(5):
        await second.budget.acquire()
    await second.stop()
    await until(lambda: first.budget.per_second == TOTAL - 5, 1, "all but the 5")
    took = await until(lambda: first.budget.per_second == TOTAL, 3, "the whole budget")
    assert took >= 1.0, took
    await first.stop()


async def test_a_locked_table_keeps_the_shares_and_never_holds_a_request(
    server: Server,
) -> None:
    """The shared table locked for 3.5 s (longer than `dead_after`): the beats fail and each
    process keeps its share, requests go on starting within it, and when the lock goes nobody
    is taken for dead (each saw its own beat was late too), so nobody takes all."""
    first, second = server.process(), server.process()
    async with watched([first, second]) as seen:
        await first.start()
        await second.start()
        await until(lambda: second.budget.per_second == TOTAL // 2, 3, "half each")
        failures = first.failures + second.failures
        locker = server.engine()
        async with locker.connect() as conn:
            locked_at = asyncio.get_running_loop().time()
            await conn.execute(text("LOCK TABLE token_budget_members IN ACCESS EXCLUSIVE MODE"))
            await until(
                lambda: first.failures + second.failures >= failures + 4, 3, "beats failing"
            )
            # Requests still start at once, within the share.
            for _ in range(5):
                await asyncio.wait_for(first.budget.acquire(), 0.2)
            assert first.budget.per_second == second.budget.per_second == TOTAL // 2
            # The lock outlives `dead_after`.
            await asyncio.sleep(max(0.0, locked_at + 3.5 - asyncio.get_running_loop().time()))
            await conn.rollback()
        beats = first.beats + second.beats
        await until(lambda: first.beats + second.beats >= beats + 6, 3, "beating again")
        assert first.processes == second.processes == 2
        assert first.budget.per_second == second.budget.per_second == TOTAL // 2
        assert max(seen) <= TOTAL and await claims(server) <= TOTAL
    await first.stop()
    await second.stop()


async def test_a_global_429_at_one_process_pauses_the_others_at_once(server: Server) -> None:
    """Told through the database (NOTIFY), not at the next beat: the others beat only every
    5 s here, and pause within half a second."""
    first, second = server.process(every=5.0), server.process(every=5.0)
    await first.start()
    await second.start()
    for process in (first, first, second):  # half each, sooner than their own beats
        await process.beat()
    assert second.budget.per_second == TOTAL // 2 and not second.budget.paused()
    first.budget.refused(1.5)  # Discord answered the first a global 429
    took = await until(second.budget.paused, 0.5, "the second paused too")
    assert took < 0.5 and second.budget.share() == 0
    blocked = asyncio.create_task(second.budget.acquire())
    await asyncio.sleep(0.3)
    assert not blocked.done()
    await asyncio.wait_for(blocked, 2)
    assert second.budget.share() < 1  # it resumes slower, then recovers
    await first.stop()
    await second.stop()


async def test_a_global_429_reaches_a_process_that_does_not_listen_at_its_beat(
    server: Server,
) -> None:
    first, second = server.process(), server.process()
    await first.start()
    await second.start()
    assert second._stop_listening is not None
    await second._stop_listening()  # (its connection lost, say)
    second._stop_listening = None
    first.budget.refused(1.5)
    await until(second.budget.paused, 1, "the second paused at its beat")
    await first.stop()
    await second.stop()


async def test_another_token_s_processes_are_not_counted(server: Server) -> None:
    mine, theirs = server.process(), server.process(token="user:999999999999999999")
    await mine.start()
    await theirs.start()
    await until(lambda: mine.beats >= 3 and theirs.beats >= 3, 3, "a few beats")
    assert mine.budget.per_second == theirs.budget.per_second == TOTAL
    assert mine.processes == theirs.processes == 1
    await mine.stop()
    await theirs.stop()


async def test_after_a_stall_for_everyone_the_first_to_beat_again_waits_for_the_others(
    server: Server,
) -> None:
    """The database stalled for both processes longer than `dead_after` (their heartbeats aged
    here by hand: the stall itself is test_a_locked_table_...). The first to beat again beats
    twice before the second had its turn (a late loop catches up): it must not take the second
    for dead, whose heartbeat is old only because nobody could beat. The second, beating again,
    keeps its half; one that never beats again is dropped once the first has beaten without a
    gap for `dead_after` (3 s here), not before."""
    first, second = server.process(every=60.0), server.process(every=60.0)  # beats by hand
    for process in (first, second):
        await process.start()
    for process in (first, first, second):  # (the first claims its half at its second beat)
        await process.beat()
    assert first.budget.per_second == second.budget.per_second == TOTAL // 2

    async def stall(seconds: float) -> None:
        async with server.engines[0].begin() as conn:
            await conn.execute(
                text(
                    "UPDATE token_budget_members "
                    "SET heartbeat_at = heartbeat_at - make_interval(secs => :s)"
                ),
                {"s": seconds},
            )

    await stall(4.0)
    for _ in range(2):  # the first, twice, before the second beats again
        beat = await first.beat()
        assert beat is not None and beat.dropped == 0 and first.processes == 2
    await second.beat()
    assert second.budget.per_second == TOTAL // 2 and second.processes == 2

    # The second now stalls alone (dies): the first drops it only 3 s into its own run of
    # beats, however old the second's heartbeat already is.
    await stall(4.0)  # (the first's own heartbeat aged too: a gap, a new run from its next beat)
    loop = asyncio.get_running_loop()
    began = loop.time()
    while (beat := await first.beat()) is not None and beat.dropped == 0:
        assert first.processes == 2
        await asyncio.sleep(0.2)
    assert beat is not None and beat.dropped == 1
    assert loop.time() - began >= 3.0 - 0.2  # (this test's clock against the server's)
    assert first.processes == 1
    await first.stop()
    await second.stop()
