"""The process's share of Discord's global rate limit: counted, scheduled by priority, paced.

Discord allows a bot token 50 requests per second in all, across its shards and processes;
interaction routes (the callback, and followups and edits through an interaction's token) are
exempt. Every request discord.py makes passes through one aiohttp session, whose trace hooks
(`discord.Client(http_trace=...)`, a public option) see it before it is sent: `trace_config`
counts each by class and makes each global-limited one wait for its turn in `RequestBudget`.

The budget lets at most `per_second` global-limited requests start in any window of
`WINDOW` (1.4) seconds, 0.4 s longer than Discord's, so that they still arrive as at
most `per_second` in any one of Discord's seconds when the network and the far side delay them by
different amounts (see `ARRIVAL_JITTER`): Discord never answers a global 429, which would also
count as an invalid request (10,000 of those in 10 minutes get the address banned). A global 429
that comes all the same (another process of the token, Discord's own hiccup) pauses the budget
for its Retry-After and resumes it at half the rate, which recovers over the next seconds.
When requests must wait, they go by priority: results,
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
#: Seconds by which the delays of two requests between their start here and their count at
#: Discord may differ (the network, a new connection, the far side's own pauses). Measured
#: against the emulator on a loaded machine (docs/benchmarks.md): the arrival at the far side
#: up to 0.5 s late while its loop is busy (a window 0.25 s longer still let 50 land in one
#: second once); spread by the budget, requests stay within 50 in any second up to 0.75 s.
ARRIVAL_JITTER = 0.4
#: The budget's window: Discord's second plus the jitter.
WINDOW = 1.0 + ARRIVAL_JITTER
#: After a global 429 the budget's rate drops to this share of itself (at most once per pause,
#: never below `LOWEST_SHARE`) and climbs back by `RECOVERY` of the full rate per second.
CUT_SHARE = 0.5
LOWEST_SHARE = 0.1
RECOVERY = 0.1
#: The longest pause a global 429's Retry-After imposes (discord.py waits it out anyway).
LONGEST_PAUSE = 60.0
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
    """At most `per_second` requests start in any window of `window` seconds (`WINDOW`, longer
    than Discord's second by the arrival jitter), and they are spread: at most `burst` at once,
    then one per `window`/`per_second` s (a leaky bucket); the burst is counted in the window
    like every other start, a retry too (it passes through here again). The others wait, by
    priority and then in arrival order. `clock` and `call_later` default to the running loop's
    (tests pass fake ones).

    Why the longer window: Discord counts a request when it arrives, some milliseconds to some
    tenths of a second after it started here, more or less for each. Starts that fill one
    second of our clock can land inside a shorter second of Discord's together with the next
    ones; measured against the emulator with a one-second window, a peak of 50 reached it in
    one second while the budget held 40. Held to 40 in any 1.4 s, they arrive as at most 40
    in any second while their delays differ by up to 0.4 s, and at most 50 up to about 0.75 s.

    `refused(retry_after)`, told of a global 429 all the same, pauses every start for
    `retry_after` and then resumes at a `CUT_SHARE` of the rate, which recovers by `RECOVERY`
    a second (additive increase, multiplicative decrease, as TCP does with its window).
    """

    def __init__(
        self,
        per_second: float,
        *,
        burst: int | None = None,
        window: float = WINDOW,
        clock: Callable[[], float] | None = None,
        call_later: Callable[[float, Callable[[], None]], Any] | None = None,
    ) -> None:
        #: The token's budget (REQUEST_BUDGET), and this process's share of it now: the whole
        #: of it, unless processes of one token share it (bot/budget_sharing.py `set_share`).
        self.total = max(1, int(per_second))
        self.per_second = self.total
        self.burst = burst if burst is not None else max(1, self.total // BURST_SHARE)
        self.window = window
        self._next_at = float("-inf")  # when the bucket is empty again (one spacing per start)
        self._clock = clock
        self._call_later = call_later
        self._starts: deque[float] = deque()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: Any = None
        self._ticket: object | None = None  # the armed timer's (a stale one fires for nothing)
        #: Told of each global 429 with its Retry-After (the processes sharing the token's
        #: budget: bot/budget_sharing.py tells the others).
        self.on_refused: Callable[[float], None] | None = None
        #: When the share stops holding unless renewed (`lease`): never, unless shared.
        self.lease_until = float("inf")
        self._factor = 1.0
        self._paced_at: float | None = None
        # After a global 429: no start before `_resume_at`, then `_cut_share` of the rate,
        # growing by `RECOVERY` a second.
        self._resume_at = float("-inf")
        self._cut_share = 1.0
        #: Requests that had to wait, the longest queue seen, and global 429s told of.
        self.waited = 0
        self.longest_queue = 0
        self.global_429s = 0

    def now(self) -> float:
        """The budget's clock (the running loop's, unless a test gave another)."""
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    _now = now

    def _later(self, delay: float, callback: Callable[[], None]) -> Any:
        if self._call_later is not None:
            return self._call_later(delay, callback)
        return asyncio.get_running_loop().call_later(delay, callback)

    def share(self, now: float | None = None) -> float:
        """The share of the full rate allowed now: 1 but for the seconds after a global 429
        (0 while its pause lasts)."""
        now = self._now() if now is None else now
        if now < self._resume_at:
            return 0.0
        return min(1.0, self._cut_share + RECOVERY * (now - self._resume_at))

    def _allowed(self, now: float) -> int:
        """Starts allowed in one window now (at least one, unless the share is none or its
        lease is over)."""
        if self.per_second <= 0 or now >= self.lease_until:
            return 0
        return max(1, int(self.per_second * max(self.share(now), LOWEST_SHARE)))

    def set_share(self, per_window: int) -> None:
        """This process may now start `per_window` requests in any window (0 to `total`): its
        share of the token's budget. A smaller share holds at once for the next starts (those
        in the window still count); a larger one is `claim`ed first (bot/budget_sharing.py)."""
        per_window = min(self.total, max(0, int(per_window)))
        if per_window == self.per_second:
            return
        self.per_second = per_window
        self._rearm(self._now())

    def lease(self, until: float) -> None:
        """The share holds until `until` (the clock's time) unless renewed: past it no request
        starts (bot/budget_sharing.py: a process whose event loop stood still so long may have
        been taken for dead, and its share given to the others)."""
        self.lease_until = until
        self._rearm(self._now())

    def claim(self, now: float | None = None) -> int:
        """The most starts this process may have in any window not over yet, while its share
        is not raised: the starts already in the window now, or its share. (A window whose
        last start is still to come holds at most the share; one whose last start is past, at
        most the starts of the window ending now.)"""
        now = self._now() if now is None else now
        return max(self.per_second, self._used(now))

    def rate(self, now: float | None = None) -> float:
        """Starts per second the budget sustains now."""
        now = self._now() if now is None else now
        return self._allowed(now) / self.window

    def _wait(self, now: float) -> float:
        """Seconds until one more request may start (0: now; without a share, a window: the
        share's change wakes the queue sooner)."""
        allowed = self._allowed(now)
        if allowed <= 0:
            return self.window
        spacing = self.window / allowed
        wait = self._next_at - (min(self.burst, allowed) - 1) * spacing - now
        if self._used(now) >= allowed:
            wait = max(wait, self._starts[-allowed] + self.window - now)
        wait = max(wait, self._resume_at - now)
        return wait if wait > 1e-9 else 0.0  # rounding must not hold a request back

    def _start(self, now: float) -> None:
        self._starts.append(now)
        self._next_at = max(self._next_at, now) + self.window / self._allowed(now)

    def _used(self, now: float) -> int:
        starts = self._starts
        while starts and now - starts[0] >= self.window:
            starts.popleft()
        return len(starts)

    def refused(self, retry_after: float) -> None:
        """Discord answered a global 429: no start for `retry_after` seconds, then a lower rate
        that recovers. The 429s of requests already on their way when the first came (within
        its pause) do not cut it again. `on_refused` is told (the other processes pause too)."""
        self.global_429s += 1
        pause = self.pause(retry_after)
        log.warning(
            "Discord answered a global 429: the request budget pauses %.2f s, then resumes at "
            "%.0f%% of its rate",
            pause,
            100 * self._cut_share,
        )
        if self.on_refused is not None:
            self.on_refused(pause)

    def pause(self, seconds: float) -> float:
        """No start for `seconds` (at most `LONGEST_PAUSE`), then a `CUT_SHARE` of the rate,
        unless a pause already lasts that long: a global 429 here or, told through the shared
        table, at another process of the token. The pause's length."""
        now = self._now()
        pause = min(LONGEST_PAUSE, max(0.0, seconds))
        if now >= self._resume_at:
            self._cut_share = max(LOWEST_SHARE, self.share(now) * CUT_SHARE)
        self._resume_at = max(self._resume_at, now + pause)
        return pause

    def paused(self, now: float | None = None) -> bool:
        return (self._now() if now is None else now) < self._resume_at

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
        ticket = self._ticket = object()
        self._timer = self._later(self._wait(now), lambda: self._fire(ticket))

    def _rearm(self, now: float) -> None:
        """The share changed: the waiting requests' timer is set anew (the old one, when it
        fires, does nothing)."""
        cancel = getattr(self._timer, "cancel", None)
        if cancel is not None:
            cancel()
        self._timer = self._ticket = None
        self._arm(now)

    def _fire(self, ticket: object) -> None:
        if ticket is self._ticket:
            self._release()

    def _release(self) -> None:
        """Let the waiting requests start, best first, as far as the window allows."""
        self._timer = self._ticket = None
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
            elif self._used(now) < EASY_SHARE * self._allowed(now):
                self._factor = max(1.0, self._factor / PACING_STEP)
        need = tables / (max(self.rate(now), 1e-9) * TABLE_SHARE)
        return min(base * PACING_MAX, max(base, need) * self._factor)


class RequestCounter:
    """Requests by class per minute (global-limited, exempt), global 429s and invalid answers,
    and the most global-limited requests started in one second by this process's own clock
    (what the budget promises, whatever delays them on the way to Discord)."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self._clock = clock
        self.total: Counter[str] = Counter()
        self._last_second: deque[float] = deque()  # global-limited starts in the last second
        #: The most global-limited starts within one second since the last summary.
        self.busiest_second = 0
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

    def started(self) -> None:
        """A global-limited request starts now (its turn in the budget came)."""
        now = self._now()
        recent = self._last_second
        recent.append(now)
        while now - recent[0] >= 1.0:
            recent.popleft()
        self.busiest_second = max(self.busiest_second, len(recent))

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
        busiest_second, self.busiest_second = self.busiest_second, 0
        self._since, self._at_summary = now, Counter(self.total)
        per_game = ""
        if games:
            per_game = f", {delta[LIMITED] / minutes / games:.1f}/min per running game of {games}"
        return (
            f"requests in the last {minutes:.1f} min: global-limited {delta[LIMITED]} "
            f"({delta[LIMITED] / minutes:.0f}/min{per_game}, busiest minute {peak}, busiest "
            f"second {busiest_second} by this process's clock), exempt "
            f"{delta[EXEMPT]} ({delta[EXEMPT] / minutes:.0f}/min), waited for the budget "
            f"{delta['waited']}, global 429s {delta['global_429']}, invalid {delta['invalid']}"
        )


def retry_after(headers: Any) -> float:
    """The seconds a 429's headers ask to wait (Retry-After; 1 when it is missing or unreadable)."""
    try:
        return float(headers.get("Retry-After", 1.0))
    except ValueError:
        return 1.0


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
        if kind == LIMITED:
            counter.started()

    async def on_end(_: Any, ctx: Any, params: aiohttp.TraceRequestEndParams) -> None:
        if getattr(ctx, "kind", None) is None:
            return
        status, headers = params.response.status, params.response.headers
        counter.answered(status, headers)
        if budget is not None and status == 429 and headers.get("X-RateLimit-Global"):
            budget.refused(retry_after(headers))

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
