"""The request budget: at most N starts per second, waiting requests by priority, pacing."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import aiohttp
import pytest
from aiohttp import web
from hypothesis import given, settings
from hypothesis import strategies as st
from multidict import CIMultiDict

from bot.budget_sharing import BudgetSharing
from bot.request_budget import (
    ARRIVAL_JITTER,
    EXEMPT,
    LIMITED,
    PACING_MAX,
    WINDOW,
    Priority,
    RequestBudget,
    RequestCounter,
    priority,
    route_class,
    trace_config,
)
from bot.store.token_budget import Beat, Member
from testing.fakediscord.global_limit import global_429
from tests.conftest import examples


class FakeTime:
    """A clock and a `call_later` the test advances by hand."""

    def __init__(self) -> None:
        self.now = 100.0
        self.timers: list[tuple[float, Callable[[], None]]] = []

    def __call__(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> object:
        self.timers.append((self.now + delay, callback))
        return callback  # a handle, as the loop's (the budget arms one timer at a time)

    async def sleep(self, seconds: float) -> None:
        """asyncio.sleep on this clock."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.call_later(seconds, lambda: done.done() or done.set_result(None))
        await done

    async def advance(self, seconds: float) -> None:
        """Move the clock on, run the timers due, and let the woken tasks run."""
        self.now += seconds
        due = [t for t in self.timers if t[0] <= self.now]
        self.timers = [t for t in self.timers if t[0] > self.now]
        for _, callback in sorted(due, key=lambda t: t[0]):
            callback()
        for _ in range(5):
            await asyncio.sleep(0)


def budget(per_second: int, time: FakeTime, burst: int = 1, window: float = 1.0) -> RequestBudget:
    """A budget on the fake clock; a one-second window unless told (the mechanics are the same
    for the real one, `WINDOW`)."""
    return RequestBudget(
        per_second, burst=burst, window=window, clock=time, call_later=time.call_later
    )


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
    # 80 % of the budget's rate for the tables: 40 requests in any `WINDOW`
    assert b.rate() == 40 / WINDOW
    assert b.pacing(1.0, tables=200) == pytest.approx(200 / (0.8 * 40 / WINDOW))
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


def most_in_a_window(times: list[float], window: float) -> int:
    """The most of `times` within any half-open window of `window` seconds."""
    times, most, first = sorted(times), 0, 0
    for last, t in enumerate(times):
        while times[first] <= t - window:
            first += 1
        most = max(most, last - first + 1)
    return most


async def load(b: RequestBudget, time: FakeTime, rng: random.Random) -> list[float]:
    """30 s of bursts (a hundred requests at once every 5 s), a steady overload (about 50
    requests a second) and discord.py's retries (a fifth of them answered 429 or 5xx, started
    again after up to a second) through `b`; the moment of every start."""
    starts: list[float] = []

    async def request(retries: int) -> None:
        for attempt in range(retries + 1):
            await b.acquire()
            starts.append(time.now)
            if attempt < retries:
                await time.sleep(rng.uniform(0.0, 1.0))

    tasks: list[asyncio.Task[None]] = []
    for step in range(6000):  # steps of 5 ms
        if step % 1000 == 0:
            tasks += [asyncio.create_task(request(0)) for _ in range(100)]
        if rng.random() < 0.25:
            tasks.append(asyncio.create_task(request(1 if rng.random() < 0.2 else 0)))
        await time.advance(0.005)
    while not all(t.done() for t in tasks):
        await time.advance(0.005)
    return starts


async def test_no_second_at_discord_holds_more_than_the_budget() -> None:
    """Under bursts, overload and retries every start counts: no window of the budget holds
    more than 40, and however each request's arrival at Discord is delayed (by up to
    `ARRIVAL_JITTER`, differently for each) no second of Discord's holds more than 40; with
    delays differing by up to 0.7 s, none more than Discord's 50."""
    time, rng = FakeTime(), random.Random(36)
    b = RequestBudget(40, clock=time, call_later=time.call_later)
    assert b.burst == 2
    starts = await load(b, time, rng)
    assert len(starts) > 900
    assert most_in_a_window(starts, WINDOW) == 40  # full, never over
    for spread, limit in ((ARRIVAL_JITTER, 40), (0.7, 50)):
        for _ in range(20):
            arrivals = [t + rng.uniform(0.0, spread) for t in starts]
            assert most_in_a_window(arrivals, 1.0) <= limit, spread


async def test_a_one_second_window_is_overrun_by_the_jitter() -> None:
    """What the longer window is for: the same load through a budget counting Discord's own
    second holds 40 per second at the start, and some second at Discord's end sees more."""
    time, rng = FakeTime(), random.Random(36)
    b = RequestBudget(40, window=1.0, clock=time, call_later=time.call_later)
    starts = await load(b, time, rng)
    assert most_in_a_window(starts, 1.0) == 40
    arrivals = [t + rng.uniform(0.0, ARRIVAL_JITTER) for t in starts]
    assert most_in_a_window(arrivals, 1.0) > 40


async def test_a_global_429_pauses_the_budget_then_resumes_slower_and_recovers() -> None:
    time = FakeTime()
    b = budget(40, time, burst=2, window=WINDOW)
    assert b.rate() == 40 / WINDOW
    b.refused(1.0)
    b.refused(1.0)  # the 429s of requests already under way: one cut
    assert b.global_429s == 2 and b.share() == 0
    paused = asyncio.create_task(b.acquire())
    await time.advance(0.99)
    assert not paused.done()
    await time.advance(0.01)
    assert paused.done()
    assert b.rate() == 20 / WINDOW  # half the rate
    starts: list[float] = []

    async def busy(seconds: float) -> None:
        end = time.now + seconds
        while time.now < end:
            tasks = [asyncio.create_task(b.acquire()) for _ in range(5)]
            await time.advance(0.005)
            for t in tasks:
                if t.done():
                    starts.append(time.now)
                else:
                    t.cancel()

    await busy(1.0)
    assert 14 <= len(starts) <= 21  # half the rate (40 a window, at most 20 of them now)
    await time.advance(5.0)
    assert b.share() == 1.0 and b.rate() == 40 / WINDOW  # recovered: a tenth of the rate a second
    starts.clear()
    await busy(WINDOW)
    assert len(starts) == 40
    # A 429 after the pause cuts again, from the rate of the moment.
    b.refused(0.5)
    await time.advance(0.5)
    assert b.share() == 0.5


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


def test_the_counter_tells_the_busiest_second_by_its_own_clock() -> None:
    time = FakeTime()
    counter = RequestCounter(clock=time)
    for _ in range(3):  # 3 at once, then one every 0.3 s: at most 6 within a second
        counter.started()
    for _ in range(6):
        time.now += 0.3
        counter.started()
    assert counter.busiest_second == 6
    assert "busiest second 6 by this process's clock" in counter.summary()
    assert counter.busiest_second == 0  # counted again from the summary on


async def test_a_global_429_through_the_session_pauses_every_request() -> None:
    """Through a real aiohttp session with the bot's hooks, against a server answering
    Discord's global 429 (Retry-After 1 s) once: the budget learns of it, and the requests made
    next reach the server only after the pause, at half the rate."""
    arrived: list[float] = []
    answered_429: list[float] = []

    async def handler(request: web.Request) -> web.Response:
        now = asyncio.get_running_loop().time()
        if not answered_429:
            answered_429.append(now)
            headers, body = global_429(0.4)
            return web.json_response(body, status=429, headers=headers)
        arrived.append(now)
        return web.json_response({})

    app = web.Application()
    app.router.add_route("POST", "/api/v10/channels/1/messages", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/api/v10/channels/1/messages"
    b, counter = RequestBudget(40), RequestCounter()
    try:
        async with aiohttp.ClientSession(trace_configs=[trace_config(b, counter)]) as session:
            async with session.post(url) as refused:
                assert refused.status == 429
            assert b.global_429s == 1 and counter.total["global_429"] == 1
            assert b.share() == 0  # paused

            async def post() -> int:
                async with session.post(url) as response:
                    return response.status

            assert await asyncio.gather(post(), post(), post()) == [200, 200, 200]
    finally:
        await runner.cleanup()
    assert min(arrived) >= answered_429[0] + 1.0  # the header's whole second
    assert b.rate() < 0.6 * 40 / WINDOW  # half the rate, recovering by a tenth a second


# One step of a schedule: requests arriving (how many, at what priority, how many of them given
# up while they wait), time passing, the process's share changing, a global 429.
_steps = st.one_of(
    st.tuples(
        st.just("requests"),
        st.integers(1, 30),
        st.sampled_from(list(Priority)),
        st.integers(0, 3),
    ),
    st.tuples(st.just("advance"), st.floats(0.0, 0.6)),
    st.tuples(st.just("share"), st.integers(0, 12)),
    st.tuples(st.just("refused"), st.floats(0.0, 1.5)),
)


async def _run_schedule(
    steps: list[tuple[object, ...]], window: float
) -> tuple[list[float], list[tuple[float, int]], list[tuple[float, int, int]]]:
    """Play `steps` through a budget of 12 per `window`: every start's moment, the share in
    effect from each moment on, and the claim the budget made at each step (with its moment
    and the starts made by then)."""
    time = FakeTime()
    b = RequestBudget(12, burst=3, window=window, clock=time, call_later=time.call_later)
    starts: list[float] = []
    shares = [(time.now, b.per_second)]
    claims: list[tuple[float, int, int]] = []
    waiting: list[asyncio.Task[None]] = []

    async def request(level: Priority) -> None:
        await b.acquire(level)
        starts.append(time.now)

    for step in steps:
        kind = step[0]
        if kind == "requests":
            _, count, level, give_up = step
            tasks = [asyncio.create_task(request(level)) for _ in range(int(count))]
            waiting += tasks
            await time.advance(0)
            for task in [t for t in tasks if not t.done()][: int(give_up)]:
                task.cancel()
        elif kind == "advance":
            await time.advance(float(step[1]))
        elif kind == "share":
            b.set_share(int(step[1]))
            shares.append((time.now, b.per_second))
            await time.advance(0)
        else:
            b.refused(float(step[1]))
        claims.append((time.now, len(starts), b.claim()))
    b.set_share(12)  # what still waits goes, within the whole budget
    shares.append((time.now, 12))
    for _ in range(2000):
        if all(t.done() for t in waiting):
            break
        await time.advance(0.05)
    return starts, shares, claims


def _share_at(shares: list[tuple[float, int]], moment: float) -> int:
    """The share in effect at `moment` (the last one set at or before it)."""
    return [share for at, share in shares if at <= moment][-1]


@settings(max_examples=examples(150), deadline=None)
@given(steps=st.lists(_steps, max_size=40), window=st.sampled_from([1.0, WINDOW]))
def test_no_schedule_lets_more_than_the_share_start_in_any_window(
    steps: list[tuple[object, ...]], window: float
) -> None:
    """Whatever the requests, their priorities and cancellations, the pauses of global 429s and
    the changes of the process's share: no window of the budget holds more starts than the
    largest share in effect during it (12, the whole budget, when it never changes), and the
    claim the budget makes at any moment covers the starts of the window ending then (what the
    processes sharing a token add up: bot/budget_sharing.py). (To a microsecond: the budget
    rounds a wait shorter than a nanosecond, the fake clock's rounding, to none.)"""
    starts, shares, claims = asyncio.run(_run_schedule(steps, window))
    for i, first in enumerate(starts):
        inside = [t for t in starts[i:] if t < first + window - 1e-6]
        during = [share for at, share in shares if first <= at < first + window]
        largest = max([_share_at(shares, first), *during])
        assert len(inside) <= largest, (first, inside, shares)
        assert len(inside) <= 12
    for moment, made, claim in claims:
        assert sum(1 for t in starts[:made] if t > moment - window + 1e-6) <= claim


class _SharedTable:
    """`TokenBudgetTable`'s rules on a dict and a fake clock (the SQL itself is tested on
    PostgreSQL: tests/store/test_token_budget.py): what the protocol relies on, one beat at a
    time as the advisory lock makes them."""

    def __init__(self, time: FakeTime) -> None:
        self.time = time
        self.rows: dict[str, tuple[int, float, bool]] = {}  # key -> (claim, heartbeat, leaving)

    def door(self, key: str) -> _Door:
        return _Door(self, key)


class _Door:
    def __init__(self, shared: _SharedTable, key: str) -> None:
        self.shared, self.process_key = shared, key
        self.beating_since: float | None = None

    async def beat(self, in_use, choose, *, dead_after, healthy):
        rows, now = self.shared.rows, self.shared.time.now
        mine = rows.get(self.process_key)
        if self.beating_since is None or mine is None or now - mine[1] >= healthy:
            self.beating_since = now
        dropped = 0
        if now - self.beating_since >= dead_after:
            for key in [k for k, r in rows.items() if k != self.process_key]:
                if now - rows[key][1] > dead_after:
                    del rows[key]
                    dropped += 1
        others = tuple(
            Member(k, 0, "h", claim, 0.0, leaving)
            for k, (claim, _, leaving) in sorted(rows.items())
            if k != self.process_key
        )
        claim = max(0, in_use, choose(others))
        rows[self.process_key] = (claim, now, False)
        return Beat(others, claim, 0.0, None, dropped)

    async def leave(self, still_started=0, *, for_seconds=0.0, dead_after):
        if still_started <= 0:
            self.shared.rows.pop(self.process_key, None)
        else:
            aged = self.shared.time.now - max(0.0, dead_after - for_seconds)
            self.shared.rows[self.process_key] = (still_started, aged, True)


# One step: a process joins, dies or stops; or some of the processes beat, in this order (the
# same one twice, possibly), and then time passes.
_sharing_steps = st.one_of(
    st.tuples(st.just("join")),
    st.tuples(st.just("kill"), st.integers(0, 3)),
    st.tuples(st.just("stop"), st.integers(0, 3)),
    st.tuples(st.just("beats"), st.lists(st.integers(0, 3), max_size=4), st.floats(0.0, 0.7)),
)


async def _share_a_token(steps: list[tuple[object, ...]]) -> list[float]:
    """Processes of one token (a budget of 12 a second), each asking for requests without
    pause from its start, joining, beating, dying and stopping in the order `steps` say; every
    start's moment."""
    time = FakeTime()
    table = _SharedTable(time)
    running: list[BudgetSharing] = []
    pumps: dict[int, list[asyncio.Task[None]]] = {}
    starts: list[float] = []

    async def pump(budget: RequestBudget) -> None:
        while True:
            await budget.acquire()
            starts.append(time.now)
            await asyncio.sleep(0)  # (a start granted at once: let the others run)

    def pick(index: object) -> BudgetSharing | None:
        return running[int(index) % len(running)] if running else None

    joined = 0
    for step in steps:
        kind, *args = step
        if kind == "join" and len(running) < 4:
            joined += 1
            budget = RequestBudget(12, burst=3, window=1.0, clock=time, call_later=time.call_later)
            sharing = BudgetSharing(budget, table.door(f"p{joined}"), dead_after=4.0, healthy=1.5)
            running.append(sharing)
            budget.set_share(0)
            await sharing.beat()
            pumps[id(sharing)] = [asyncio.create_task(pump(budget)) for _ in range(3)]
            await time.advance(0)
        elif kind == "beats":
            for index in args[0]:
                if (sharing := pick(index)) is not None:
                    await sharing.beat()
                    await time.advance(0)
            for _ in range(round(float(args[1]) / 0.01)):  # timers fire on time
                await time.advance(0.01)
        elif kind in ("kill", "stop") and (sharing := pick(args[0])) is not None:
            running.remove(sharing)
            for task in pumps.pop(id(sharing)):  # it sends nothing more
                task.cancel()
            if kind == "stop":
                sharing.budget.set_share(0)
                await sharing.table.leave(sharing.budget.claim(), for_seconds=1.0, dead_after=4.0)
    for task in [t for tasks in pumps.values() for t in tasks]:
        task.cancel()
    await asyncio.sleep(0)
    return starts


@settings(max_examples=examples(150), deadline=None)
@given(steps=st.lists(_sharing_steps, max_size=30))
def test_processes_sharing_a_token_never_start_more_than_its_budget_in_any_window(
    steps: list[tuple[object, ...]],
) -> None:
    """However processes of one token join, beat (in any order, as rarely as they like: one
    that does not beat for long is a process whose loop stood still), ask for requests, die
    without a word or stop: their starts together never exceed the token's budget in any window
    (bot/budget_sharing.py's claims; a process is taken for dead only `dead_after` after its
    last heartbeat, and its share's lease ended before, its last starts out of the window)."""
    starts = sorted(asyncio.run(_share_a_token(steps)))
    for i, first in enumerate(starts):
        inside = [t for t in starts[i:] if t < first + 1.0 - 1e-6]
        assert len(inside) <= 12, (first, inside)


def test_a_process_whose_loop_stood_still_stops_before_its_share_is_taken() -> None:
    """The first process stops beating (its event loop stood still) but, woken, would go on
    asking at its share; the second beats every half second, takes the first for dead after
    `dead_after` and its whole share: by then the first's lease is over, so the two never
    exceed the budget together."""
    steps: list[tuple[object, ...]] = [("join",), ("join",), ("beats", [0, 0, 1, 1], 0.5)]
    steps += [("beats", [1], 0.5)] * 12  # only the second beats: 6 s
    starts = sorted(asyncio.run(_share_a_token(steps)))
    for i, first in enumerate(starts):
        assert len([t for t in starts[i:] if t < first + 1.0 - 1e-6]) <= 12
