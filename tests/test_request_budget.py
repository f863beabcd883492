"""The request budget: at most N starts per second, waiting requests by priority, pacing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from multidict import CIMultiDict

from bot.request_budget import (
    EXEMPT,
    LIMITED,
    PACING_MAX,
    Priority,
    RequestBudget,
    RequestCounter,
    priority,
    route_class,
)


class FakeTime:
    """A clock and a `call_later` the test advances by hand."""

    def __init__(self) -> None:
        self.now = 100.0
        self.timers: list[tuple[float, Callable[[], None]]] = []

    def __call__(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> None:
        self.timers.append((self.now + delay, callback))

    async def advance(self, seconds: float) -> None:
        """Move the clock on, run the timers due, and let the woken tasks run."""
        self.now += seconds
        due = [t for t in self.timers if t[0] <= self.now]
        self.timers = [t for t in self.timers if t[0] > self.now]
        for _, callback in sorted(due, key=lambda t: t[0]):
            callback()
        for _ in range(5):
            await asyncio.sleep(0)


def budget(per_second: int, time: FakeTime, burst: int = 1) -> RequestBudget:
    return RequestBudget(per_second, burst=burst, clock=time, call_later=time.call_later)


async def test_requests_within_the_window_start_at_once() -> None:
    time = FakeTime()
    b = budget(3, time, burst=3)
    for _ in range(3):
        await asyncio.wait_for(b.acquire(), 0.1)  # never suspends
    assert b.waited == 0


async def test_past_the_window_requests_wait_for_it_to_slide() -> None:
    time = FakeTime()
    b = budget(2, time, burst=2)
    await b.acquire()
    await time.advance(0.5)
    await b.acquire()
    late = asyncio.create_task(b.acquire())
    await time.advance(0)
    assert not late.done() and b.queued == 1
    await time.advance(0.49)
    assert not late.done()
    await time.advance(0.01)  # the first start leaves the window
    assert late.done()
    assert b.waited == 1


async def test_requests_are_spread_past_a_small_burst() -> None:
    time = FakeTime()
    b = budget(10, time, burst=2)
    tasks = [asyncio.create_task(b.acquire()) for _ in range(5)]
    await time.advance(0)
    assert [t.done() for t in tasks] == [True, True, False, False, False]
    await time.advance(0.1)
    assert [t.done() for t in tasks] == [True, True, True, False, False]
    await time.advance(0.2)
    assert all(t.done() for t in tasks)
    assert RequestBudget(40).burst == 2


async def test_waiting_requests_go_by_priority_then_in_order() -> None:
    time = FakeTime()
    b = budget(1, time)
    await b.acquire()
    started: list[str] = []

    async def request(name: str, level: Priority) -> None:
        with priority(level):
            await b.acquire()
        started.append(name)

    tasks = [
        asyncio.create_task(request(name, level))
        for name, level in [
            ("ping", Priority.PING),
            ("edit 1", Priority.TABLE_EDIT),
            ("result", Priority.URGENT),
            ("edit 2", Priority.TABLE_EDIT),
        ]
    ]
    await time.advance(0)
    for _ in range(4):
        await time.advance(1.0)
    assert started == ["result", "edit 1", "edit 2", "ping"]
    await asyncio.gather(*tasks)


async def test_a_cancelled_request_gives_its_turn_away() -> None:
    time = FakeTime()
    b = budget(1, time)
    await b.acquire()
    gone = asyncio.create_task(b.acquire(Priority.URGENT))
    kept = asyncio.create_task(b.acquire(Priority.PING))
    await time.advance(0)
    gone.cancel()
    await time.advance(1.0)
    assert kept.done() and gone.cancelled()


async def test_tables_are_paced_to_share_the_budget() -> None:
    b = RequestBudget(40)
    assert b.pacing(1.0, tables=10) == 1.0
    assert b.pacing(1.0, tables=250) == 250 / 32  # 80 % of 40 requests/s for the tables
    assert b.pacing(1.0, tables=1000) == PACING_MAX


async def test_table_pacing_grows_while_requests_queue_and_shrinks_back() -> None:
    time = FakeTime()
    b = budget(10, time, burst=10)
    assert b.pacing(1.0) == 1.0
    seen = []
    waiting: list[asyncio.Task[None]] = []
    for _ in range(8):  # two more requests than the budget every second
        await time.advance(1.0)
        waiting += [asyncio.create_task(b.acquire()) for _ in range(12)]
        await time.advance(0)
        seen.append(b.pacing(1.0))
    assert seen == sorted(seen) and seen[-1] == PACING_MAX
    assert b.pacing(1.0) == PACING_MAX  # adjusted at most once a second
    while not all(t.done() for t in waiting):
        await time.advance(1.0)
    for _ in range(12):  # nothing going on
        await time.advance(1.0)
        b.pacing(1.0)
    assert b.pacing(1.0) == 1.0


def test_routes_are_classed_like_discord_s_global_limit() -> None:
    assert route_class("/api/v10/channels/1/messages") == LIMITED
    assert route_class("/api/v10/channels/1/messages/2") == LIMITED
    assert route_class("/api/v10/interactions/1/tok/callback") == EXEMPT
    assert route_class("/api/v10/webhooks/1/tok/messages/@original") == EXEMPT
    assert route_class("/api/v10/webhooks/1/tok") == EXEMPT
    assert route_class("/ws") is None


def test_the_counter_sums_by_class_per_minute() -> None:
    time = FakeTime()
    counter = RequestCounter(clock=time)
    counter.summary()
    for _ in range(3):
        counter.note(LIMITED)
    counter.note(EXEMPT)
    counter.answered(429, CIMultiDict({"X-RateLimit-Global": "true"}))
    counter.answered(403, CIMultiDict())
    time.now += 60
    counter.note(LIMITED)
    assert [sum(c.values()) for _, c in counter.per_minute()] == [7, 1]
    line = counter.summary(games=2)
    assert "global-limited 4 (4/min, 2.0/min per running game of 2," in line
    assert "exempt 1" in line
    assert "global 429s 1" in line and "invalid 2" in line
    assert "global-limited 0" in counter.summary()
