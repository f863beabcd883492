"""One request budget for every process of a bot token, shared through PostgreSQL by itself.

Discord's global limit is the token's, across all its processes (shards, or several bots on one
database). REQUEST_BUDGET is the token's whole budget; on PostgreSQL each process registers in
`token_budget_members` (bot/store/token_budget.py) and beats every `BEAT_EVERY` s: it takes an
equal share of the budget (the remainder to the first keys), and a process whose heartbeat is
`DEAD_AFTER` s old is dropped, so that its share returns to the others within about
`DEAD_AFTER + BEAT_EVERY` s. A global 429 seen by any process is written to
`token_budget_pauses` and told to the others at once (NOTIFY; their next beat reads it too):
every process pauses and slows down.

Why it provably stays within the budget: each process writes a `claim`, the most it may start
in a window not over yet (its share, or the starts already in the window if more:
`RequestBudget.claim`), and only ever raises its share to what it has claimed, in the beat's
transaction, locked per token, that saw the others' claims: it claims at most what they leave
free. A newcomer therefore starts with what is free (nothing while the others hold it all) and
gets its share once they have lowered theirs and their window has passed: a few seconds. A dead
process's claim is dropped `DEAD_AFTER` after its last heartbeat; its share's lease
(`RequestBudget.lease`) ended a window and a margin before, so that a process only asleep (its
event loop stood still) has no request in the window when the others take its share.
(tests/test_request_budget.py plays any order of joins, beats, deaths and stops against it.)

A database that is slow or down never holds a request: the beat runs beside the sending, with
a deadline, and a failed one keeps the last share (never more than the budget) and renews its
lease, logged once. The dead are dropped only by a process that has itself beaten without a gap
(`HEALTHY_BEAT`) for `DEAD_AFTER`, so a database stalled for everyone, which makes every
heartbeat old at once, does not make the first survivor to beat again take all: the others
have as long to beat again as the dead are given. (What is not covered: one process cut off
from a database the others still reach keeps its share while they take it; docs/operating.md
says so.)
SQLite (one process): nothing of this runs, the process has the whole budget.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import hashlib
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Sequence

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.request_budget import RequestBudget
from bot.store.token_budget import Beat, Member, TokenBudgetTable

log = logging.getLogger(__name__)

#: Seconds between two beats of a process.
BEAT_EVERY = 1.0
#: A process whose heartbeat is this old is dead: its share goes back to the others.
DEAD_AFTER = 5.0
#: A gap between two of its own beats longer than this, and a process waits `DEAD_AFTER` before
#: it drops the dead (its own beats were late: the others' may have been too).
HEALTHY_BEAT = 3.0
#: Seconds a beat may take before it is given up (the last share is kept).
BEAT_DEADLINE = 1.5
#: A share's lease lasts `DEAD_AFTER` less the budget's window and this margin from the start
#: of the beat that renewed it (3.1 s): the others may take the share `DEAD_AFTER` after that
#: beat's heartbeat, when this process's last requests must be out of the window. Only a
#: process whose event loop stood still that long stops (until its next beat, a moment later);
#: each beat given up for a database that does not answer renews the lease too.
LEASE_MARGIN = 0.5


def token_identity(token: str) -> str:
    """What names a token in the shared table without revealing it: the bot's user id (a
    Discord token's first part is that id in base64), else a digest of the token."""
    first = token.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        decoded = ""
    if decoded.isdigit() and 15 <= len(decoded) <= 20:
        return f"user:{decoded}"
    return "sha256:" + hashlib.sha256(token.encode()).hexdigest()[:32]


def host_identity() -> str:
    """Where this process's pid means something: the host's name, its kernel's boot and its pid
    namespace (two containers of one name, or two hosts, never take each other's pids for
    their own: `TokenBudgetTable.drop_gone_here`)."""
    parts = [socket.gethostname()]
    with (
        contextlib.suppress(OSError),
        open("/proc/sys/kernel/random/boot_id", encoding="ascii") as boot,
    ):
        parts.append("boot " + boot.read().strip()[:8])
    with contextlib.suppress(OSError):
        parts.append(os.readlink("/proc/self/ns/pid"))
    if len(parts) == 1:  # nothing tells this host apart: a key no other process has
        parts.append(uuid.uuid4().hex)
    return " ".join(parts)


def pid_alive(pid: int) -> bool:
    """Whether a process `pid` runs on this host (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def fair_share(total: int, me: str, others: Sequence[Member]) -> int:
    """`total` split equally between this process (key `me`) and the `others` still running
    (not leaving); the remainder goes one each to the first keys in order."""
    keys = sorted([me, *(o.process_key for o in others if not o.leaving)])
    share, extra = divmod(total, len(keys))
    return share + (1 if keys.index(me) < extra else 0)


class BudgetSharing:
    """Keeps `budget`'s share of the token's budget in step with the token's live processes."""

    def __init__(
        self,
        budget: RequestBudget,
        table: TokenBudgetTable,
        *,
        every: float = BEAT_EVERY,
        dead_after: float = DEAD_AFTER,
        healthy: float = HEALTHY_BEAT,
        deadline: float = BEAT_DEADLINE,
    ) -> None:
        self.budget = budget
        self.table = table
        self.every = every
        self.dead_after = dead_after
        self.healthy = healthy
        self.deadline = deadline
        #: The token's live processes at the last beat (this one included), 0 before it.
        self.processes = 0
        self.beats = 0
        self.failures = 0
        self._failing = False
        self._pause_end: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._in_flight: asyncio.Future[Beat] | None = None
        self._stop_listening: Callable[[], Awaitable[None]] | None = None
        self._told: set[asyncio.Task[None]] = set()
        budget.on_refused = self._refused

    @classmethod
    def for_token(cls, budget: RequestBudget, engine: AsyncEngine, token: str) -> BudgetSharing:
        table = TokenBudgetTable(
            engine,
            token_id=token_identity(token),
            process_key=uuid.uuid4().hex,
            pid=os.getpid(),
            host=host_identity(),
        )
        return cls(budget, table)

    def _choose(self, others: Sequence[Member]) -> int:
        """This process's share: the equal one, at most what the others' claims leave free."""
        total = self.budget.total
        free = total - sum(o.claim for o in others)
        return max(0, min(fair_share(total, self.table.process_key, others), free))

    def _lease(self, since: float) -> None:
        """The share holds a lease from `since` (the budget's clock)."""
        # (At least a beat's interval and deadline, or a slow database would stop sending:
        # true of the defaults, 3.1 s against 2.5 s.)
        held = max(self.every + self.deadline, self.dead_after - self.budget.window - LEASE_MARGIN)
        self.budget.lease(since + held)

    async def beat(self) -> Beat | None:
        """One beat: the heartbeat, the share taken, a pause seen elsewhere applied. None when
        the database did not answer within `deadline` (the share is kept meanwhile). A slow
        beat is not given up: it goes on beside the sending (the server ends it after its lock
        and statement timeouts) and is applied when it ends, since it is a heartbeat too (cut
        short each time, a process slowed down would stop beating and be taken for dead); the
        next beat waits for it."""
        if self._in_flight is None:
            self._in_flight = asyncio.ensure_future(self._beat_and_apply(self.budget.now()))
        in_flight = self._in_flight
        done, _ = await asyncio.wait({in_flight}, timeout=self.deadline)
        if not done:
            self._failed("TimeoutError")
            self._lease(self.budget.now())  # the database is slow: the last share is kept
            return None
        self._in_flight = None
        try:
            return in_flight.result()
        except Exception as exc:  # any driver fault: the share is kept
            self._failed(type(exc).__name__)
            self._lease(self.budget.now())
            return None

    def _failed(self, why: str) -> None:
        self.failures += 1
        if not self._failing:
            self._failing = True
            log.warning(
                "request budget: the shared table did not answer (%s): keeping this "
                "process's share, %d of %d",
                why,
                self.budget.per_second,
                self.budget.total,
            )

    async def _beat_and_apply(self, began: float) -> Beat:
        chosen: list[int] = []

        def choose(others: Sequence[Member]) -> int:
            chosen.append(self._choose(others))
            return chosen[-1]

        beat = await self.table.beat(
            self.budget.claim(), choose, dead_after=self.dead_after, healthy=self.healthy
        )
        if self._failing:
            self._failing = False
            log.info("request budget: the shared table answers again")
        self.beats += 1
        before = (self.budget.per_second, self.processes)
        # What the transaction claimed, whenever it ends: a larger share than the last one
        # only once claimed, a smaller one at once; held from the heartbeat's time at most.
        self.budget.set_share(chosen[-1])
        self._lease(began)
        self.processes = 1 + sum(1 for o in beat.others if not o.leaving)
        if beat.pause_left > 0 and beat.pause_end != self._pause_end:
            self._pause_end = beat.pause_end
            if not self.budget.paused():
                self.budget.pause(beat.pause_left)
                log.warning(
                    "request budget: another process of this token drew a global 429: "
                    "pausing %.2f s",
                    beat.pause_left,
                )
        if beat.dropped:
            log.info("request budget: %d process(es) of this token stopped beating", beat.dropped)
        if (self.budget.per_second, self.processes) != before:
            log.info(
                "request budget share: %d of %d in any %.1f s (%d processes of this token)",
                self.budget.per_second,
                self.budget.total,
                self.budget.window,
                self.processes,
            )
        return beat

    def _refused(self, retry_after: float) -> None:
        """A global 429 here: written to the shared table, so every process pauses."""
        task = asyncio.get_running_loop().create_task(self._tell(retry_after))
        self._told.add(task)
        task.add_done_callback(self._told.discard)

    async def _tell(self, retry_after: float) -> None:
        try:
            await asyncio.wait_for(self.table.pause_all(retry_after), self.deadline)
        except Exception as exc:  # a timeout or any driver fault
            log.warning("request budget: could not tell the others of a global 429 (%s)", exc)

    async def start(self) -> None:
        """Register and take a first share (the budget holds none until then: the others may
        hold all of it), then beat every `every` s until `stop`. A process of this host that
        is gone (a predecessor killed and restarted) is dropped first, not waited for."""
        self.budget.set_share(0)
        try:
            gone = await asyncio.wait_for(self.table.drop_gone_here(pid_alive), self.deadline)
        except Exception as exc:  # a timeout or any driver fault: they age out instead
            log.warning("request budget: could not look for gone processes here (%s)", exc)
        else:
            if gone:
                log.info("request budget: %d gone process(es) of this host dropped", gone)
        if await self.beat() is None:
            # The database did not answer: half the budget, a safe guess only while at most
            # one other process runs; the next beat corrects it.
            self.budget.set_share(self.budget.total // 2)
        try:
            self._stop_listening = await asyncio.wait_for(
                self.table.listen(self._heard), self.deadline
            )
        except Exception as exc:  # a timeout or any driver fault: the beats read the pauses
            log.warning("request budget: not listening for the others' 429s (%s)", exc)
        self._task = asyncio.create_task(self._run())

    def _heard(self, seconds: float) -> None:
        """A process of the token drew a global 429 (told through the database): pause now."""
        if not self.budget.paused():
            self.budget.pause(seconds)
            log.warning(
                "request budget: another process of this token drew a global 429: pausing %.2f s",
                seconds,
            )

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        next_at = loop.time()
        while True:
            next_at += self.every
            await asyncio.sleep(max(0.0, next_at - loop.time()))
            next_at = max(next_at, loop.time() - self.every)  # a late beat does not bunch up
            await self.beat()

    async def stop(self) -> None:
        """Stop beating and leave (the client is closed): this process's share goes back to
        the others, so it starts no more requests itself."""
        for task in (self._task, self._in_flight):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._task = self._in_flight = None
        if self._stop_listening is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._stop_listening(), self.deadline)
            self._stop_listening = None
        self.budget.set_share(0)
        try:
            await asyncio.wait_for(
                self.table.leave(
                    self.budget.claim(),
                    for_seconds=self.budget.window,
                    dead_after=self.dead_after,
                ),
                self.deadline,
            )
        except Exception as exc:  # a timeout or any driver fault
            log.warning("request budget: could not leave the shared table (%s)", exc)
