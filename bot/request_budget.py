"""The process's share of Discord's global rate limit: counted, scheduled by priority, paced.

Discord allows a bot token 50 requests per second in all, across its shards and processes;
interaction routes (the callback, and followups and edits through an interaction's token) are
exempt. Every request discord.py makes passes through one aiohttp session, whose trace hooks
(`discord.Client(http_trace=...)`, a public option) see it before it is sent: `trace_config`
counts each by class and makes each global-limited one wait for its turn in `RequestBudget`.

The budget lets at most `per_second` global-limited requests start in any one-second window, so
Discord never answers a global 429 (which would also count as invalid requests, 10,000 of which
in 10 minutes get the address banned). When requests must wait, they go by priority: results,
lobbies, new tables and anything not labelled first (`Priority.URGENT`), then table edits, then
turn pings; a flow labels its requests with `with priority(Priority.PING): ...`. Under pressure
`pacing` stretches the interval between two edits of one table (from the base, 1 s, towards
`PACING_MAX` times it) so that the busy tables share most of the budget, further while requests
queue, and shrinks it back when the pressure is gone: fewer, fuller edits fit the budget.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import re
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import IntEnum
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

#: Seconds between two summaries of the requests in the log.
SUMMARY_EVERY = 300.0
#: Requests that may start at once: a twentieth of the budget (see `RequestBudget`).
BURST_SHARE = 20
#: A table's edit interval grows at most to this many times the base (1 s -> 9 s): with the
#: wait for the budget and the edit itself, a table stays within 10 s of its game.
PACING_MAX = 9.0
#: Growth (and shrinking) factor of the table interval, applied at most once per second.
PACING_STEP = 1.5
#: The share of the budget the busy tables' edits are paced to use (the rest: results, new
#: tables, pings). The interval shrinks back when nothing waits and less than `EASY_SHARE` of
#: the last second's budget was used.
TABLE_SHARE = 0.8
EASY_SHARE = 0.8

LIMITED = "limited"
EXEMPT = "exempt"
#: An interaction route, below the API's base: exempt from the global limit.
_INTERACTION_ROUTE = re.compile(r"/api/v\d+/(interactions/\d+/[^/]+/callback|webhooks/\d+/[^/]+)")
_API_ROUTE = re.compile(r"/api/v\d+/")
INVALID_STATUSES = (401, 403, 429)


class Priority(IntEnum):
    """Which waiting request goes first (lower first)."""

    URGENT = 0  # round results, lobbies, new tables, deletions, anything not labelled
    TABLE_EDIT = 1
    PING = 2
    BACKGROUND = 3  # work no player waits for (uploading the card emojis at start-up)


_priority: ContextVar[Priority] = ContextVar("request_priority", default=Priority.URGENT)


@contextmanager
def priority(level: Priority) -> Iterator[None]:
    """Label the requests made inside this block (in this task) with `level`."""
    token = _priority.set(level)
    try:
        yield
    finally:
        _priority.reset(token)


def route_class(path: str) -> str | None:
    """`EXEMPT` for an interaction route, `LIMITED` for any other REST route, None for what is
    not Discord's REST API (the gateway, the CDN)."""
    if _INTERACTION_ROUTE.match(path):
        return EXEMPT
    if _API_ROUTE.match(path):
        return LIMITED
    return None


class RequestBudget:
    """At most `per_second` requests start in any one-second window, and they are spread:
    at most `burst` at once, then one per 1/`per_second` s (a leaky bucket). The others wait,
    by priority and then in arrival order. `clock` and `call_later` default to the running
    loop's (tests pass fake ones).

    Why spread them: a request reaches Discord some milliseconds after it starts, more or
    fewer for each. A whole window's worth sent at once, then another just after the window,
    can land inside one of Discord's seconds; evenly spaced ones shifted by a jitter of j
    seconds put at most about `per_second` * (1 + j) + `burst` in one (46 for 40, 0.1 s, 2).
    """

    def __init__(
        self,
        per_second: float,
        *,
        burst: int | None = None,
        clock: Callable[[], float] | None = None,
        call_later: Callable[[float, Callable[[], None]], Any] | None = None,
    ) -> None:
        self.per_second = max(1, int(per_second))
        self.burst = burst if burst is not None else max(1, self.per_second // BURST_SHARE)
        self._spacing = 1.0 / self.per_second
        self._next_at = float("-inf")  # when the bucket is empty again (one spacing per start)
        self._clock = clock
        self._call_later = call_later
        self._starts: deque[float] = deque()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: Any = None
        self._factor = 1.0
        self._paced_at: float | None = None
        #: Requests that had to wait, and the longest queue seen.
        self.waited = 0
        self.longest_queue = 0

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def _later(self, delay: float, callback: Callable[[], None]) -> Any:
        if self._call_later is not None:
            return self._call_later(delay, callback)
        return asyncio.get_running_loop().call_later(delay, callback)

    def _wait(self, now: float) -> float:
        """Seconds until one more request may start (0: now)."""
        wait = self._next_at - (self.burst - 1) * self._spacing - now
        if self._used(now) >= self.per_second:
            wait = max(wait, self._starts[0] + 1.0 - now)
        return wait if wait > 1e-9 else 0.0  # rounding must not hold a request back

    def _start(self, now: float) -> None:
        self._starts.append(now)
        self._next_at = max(self._next_at, now) + self._spacing

    def _used(self, now: float) -> int:
        starts = self._starts
        while starts and now - starts[0] >= 1.0:
            starts.popleft()
        return len(starts)

    @property
    def queued(self) -> int:
        return sum(1 for *_, fut in self._waiting if not fut.done())

    async def acquire(self, level: Priority | None = None) -> None:
        """Wait until one more request may start now (the task's `priority` by default)."""
        now = self._now()
        if not self._waiting and self._wait(now) == 0:
            self._start(now)
            return
        level = _priority.get() if level is None else level
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (int(level), next(self._order), fut))
        self.waited += 1
        self.longest_queue = max(self.longest_queue, len(self._waiting))
        self._arm(now)
        await fut  # cancelled: its place is skipped (a slot granted meanwhile stays used)

    def _arm(self, now: float) -> None:
        if self._timer is not None or not self._waiting:
            return
        self._timer = self._later(self._wait(now), self._release)

    def _release(self) -> None:
        """Let the waiting requests start, best first, as far as the window allows."""
        self._timer = None
        now = self._now()
        while self._waiting and self._wait(now) == 0:
            *_, fut = heapq.heappop(self._waiting)
            if fut.done():
                continue
            self._start(now)
            fut.set_result(None)
        self._arm(now)

    def pacing(self, base: float, tables: int = 0) -> float:
        """The interval between two edits of one table, given the `tables` waiting for edits:
        long enough for all of them to share `TABLE_SHARE` of the budget, never below `base`,
        stretched further (by `PACING_STEP` a second) while requests queue for the budget and
        shrunk back once they do not; at most `PACING_MAX` times `base`."""
        now = self._now()
        if self._paced_at is None or now - self._paced_at >= 1.0:
            self._paced_at = now
            if self.queued:
                self._factor = min(PACING_MAX, self._factor * PACING_STEP)
            elif self._used(now) < EASY_SHARE * self.per_second:
                self._factor = max(1.0, self._factor / PACING_STEP)
        need = tables / (self.per_second * TABLE_SHARE)
        return min(base * PACING_MAX, max(base, need) * self._factor)


class RequestCounter:
    """Requests by class per minute (global-limited, exempt), global 429s and invalid answers."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self._clock = clock
        self.total: Counter[str] = Counter()
        self._minutes: deque[tuple[int, Counter[str]]] = deque(maxlen=60)
        self._since = 0.0  # clock at the last summary
        self._at_summary: Counter[str] = Counter()

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def note(self, what: str) -> None:
        minute = int(self._now() // 60)
        if not self._minutes or self._minutes[-1][0] != minute:
            self._minutes.append((minute, Counter()))
        self._minutes[-1][1][what] += 1
        self.total[what] += 1

    def answered(self, status: int, headers: Any) -> None:
        if status in INVALID_STATUSES:
            self.note("invalid")
        if status == 429 and headers.get("X-RateLimit-Global"):
            self.note("global_429")

    def per_minute(self) -> list[tuple[int, Counter[str]]]:
        """The last hour's minutes that saw requests: (minute since the clock's epoch, counts)."""
        return list(self._minutes)

    def summary(self, games: int | None = None) -> str:
        """One line about the requests since the previous summary (and per game, given the
        number of running `games`)."""
        now = self._now()
        minutes = max(1e-9, (now - self._since) / 60)
        delta = self.total - self._at_summary
        peak = max((c[LIMITED] for _, c in self._minutes), default=0)
        self._since, self._at_summary = now, Counter(self.total)
        per_game = ""
        if games:
            per_game = f", {delta[LIMITED] / minutes / games:.1f}/min per running game of {games}"
        return (
            f"requests in the last {minutes:.1f} min: global-limited {delta[LIMITED]} "
            f"({delta[LIMITED] / minutes:.0f}/min{per_game}, busiest minute {peak}), exempt "
            f"{delta[EXEMPT]} ({delta[EXEMPT] / minutes:.0f}/min), waited for the budget "
            f"{delta['waited']}, global 429s {delta['global_429']}, invalid {delta['invalid']}"
        )


def trace_config(budget: RequestBudget | None, counter: RequestCounter) -> aiohttp.TraceConfig:
    """aiohttp hooks for discord.py's session: count every request, and hold each
    global-limited one until `budget` lets it start (a retry after a 429 waits again)."""
    trace = aiohttp.TraceConfig()

    async def on_start(_: Any, ctx: Any, params: aiohttp.TraceRequestStartParams) -> None:
        kind = route_class(params.url.path)
        ctx.kind = kind
        if kind is None:
            return
        counter.note(kind)
        if kind == LIMITED and budget is not None:
            queued = budget.waited
            await budget.acquire()
            if budget.waited != queued:
                counter.note("waited")

    async def on_end(_: Any, ctx: Any, params: aiohttp.TraceRequestEndParams) -> None:
        if getattr(ctx, "kind", None) is not None:
            counter.answered(params.response.status, params.response.headers)

    trace.on_request_start.append(on_start)
    trace.on_request_end.append(on_end)
    return trace


async def log_summaries(
    counter: RequestCounter, games: Callable[[], int | None], every: float = SUMMARY_EVERY
) -> None:
    """Log `counter.summary()` at INFO every `every` seconds, until cancelled; `games()`: the
    number of running games (None: not known)."""
    counter.summary()  # starts the first period now
    while True:
        await asyncio.sleep(every)
        log.info("%s", counter.summary(games()))
