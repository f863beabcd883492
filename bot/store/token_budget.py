"""The shared table through which the processes of one bot token split its request budget.

PostgreSQL only: every process of a token runs `TokenBudgetTable.beat` about once a second, in
one transaction serialized per token by an advisory lock, so that two processes never decide
their shares from the same picture. A beat drops the processes whose heartbeat is older than
`dead_after`, but only once this process has itself beaten without a gap for `dead_after`: a
database that was stalled for everyone makes every heartbeat old at once, and the others must
have had as long as the dead are given to beat again before one survivor takes all (its first
beats after the stall, a moment apart, would otherwise drop the others that had not had their
turn yet),
writes this process's heartbeat and the claim `choose` picks from what the others claim, and
reads the pause a global 429 imposes on all of them. Timestamps are the server's
(`clock_timestamp()`), so the processes' own clocks never need to agree.

The policy (what share to claim) is the caller's: bot/budget_sharing.py.
"""

from __future__ import annotations

import contextlib
import zlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

#: The advisory lock key space of these beats (a bigint: this prefix and the token's CRC-32).
LOCK_PREFIX = 0x75_6E_6F_42 << 32


@dataclass(frozen=True)
class Member:
    """Another live process of the token, as its last beat left it."""

    process_key: str
    pid: int
    host: str
    claim: int
    joined_at: float  # seconds since the epoch (the server's clock)
    leaving: bool = False  # stopped: only its last requests are still claimed


@dataclass(frozen=True)
class Beat:
    """What one beat saw and decided: the others still alive, the claim written, the pause
    left (seconds, 0: none) with its end (an id of that pause), and how many dead were dropped."""

    others: tuple[Member, ...]
    claim: int
    pause_left: float
    pause_end: float | None
    dropped: int


_MY_LAST_BEAT = text(
    """
    SELECT extract(epoch FROM clock_timestamp()),
           (SELECT extract(epoch FROM heartbeat_at) FROM token_budget_members
            WHERE token_id = :token AND process_key = :me)
    """
)
_DROP_DEAD = text(
    """
    DELETE FROM token_budget_members
    WHERE token_id = :token AND process_key <> :me
      AND heartbeat_at < clock_timestamp() - make_interval(secs => :dead_after)
    """
)
_OTHERS = text(
    """
    SELECT process_key, pid, host, claim, extract(epoch FROM joined_at), leaving
    FROM token_budget_members WHERE token_id = :token AND process_key <> :me
    ORDER BY joined_at, process_key
    """
)
_WRITE_ME = text(
    """
    INSERT INTO token_budget_members
      (token_id, process_key, pid, host, claim, joined_at, heartbeat_at)
    VALUES (:token, :me, :pid, :host, :claim, clock_timestamp(), clock_timestamp())
    ON CONFLICT (token_id, process_key)
    DO UPDATE SET claim = excluded.claim, heartbeat_at = excluded.heartbeat_at
    RETURNING extract(epoch FROM joined_at)
    """
)
_PAUSE = text(
    """
    SELECT extract(epoch FROM paused_until - clock_timestamp()), extract(epoch FROM paused_until)
    FROM token_budget_pauses WHERE token_id = :token
    """
)
_SET_PAUSE = text(
    """
    INSERT INTO token_budget_pauses (token_id, paused_until)
    VALUES (:token, clock_timestamp() + make_interval(secs => :seconds))
    ON CONFLICT (token_id) DO UPDATE
    SET paused_until = greatest(token_budget_pauses.paused_until, excluded.paused_until)
    """
)
_LEAVE = text("DELETE FROM token_budget_members WHERE token_id = :token AND process_key = :me")
_LINGER = text(
    """
    UPDATE token_budget_members
    SET claim = :claim, leaving = true,
        heartbeat_at = clock_timestamp() - make_interval(secs => :aged)
    WHERE token_id = :token AND process_key = :me
    """
)


_HERE = text(
    """
    SELECT process_key, pid FROM token_budget_members
    WHERE token_id = :token AND host = :host AND process_key <> :me
    """
)
_DROP = text(
    "DELETE FROM token_budget_members WHERE token_id = :token AND process_key = :key AND pid = :pid"
)


class TokenBudgetTable:
    """One process's door to `token_budget_members` and `token_budget_pauses` (models.py)."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        token_id: str,
        process_key: str,
        pid: int,
        host: str,
        lock_timeout_ms: int = 1500,
    ) -> None:
        self.engine = engine
        self.token_id = token_id
        self.process_key = process_key
        self.pid = pid
        self.host = host[:255]
        self.lock_timeout_ms = lock_timeout_ms
        self._lock_key = LOCK_PREFIX | zlib.crc32(token_id.encode())
        #: The channel (LISTEN/NOTIFY) on which a global 429 is told to the token's processes.
        self.channel = f"uno_token_budget_{zlib.crc32(token_id.encode()):08x}"
        #: The server's clock at this process's registration (seconds since the epoch).
        self.joined_at: float | None = None
        #: Since when (the server's clock) this process's beats have followed each other
        #: without a gap of `healthy` s: the dead are dropped only `dead_after` after it.
        self.beating_since: float | None = None

    async def beat(
        self,
        in_use: int,
        choose: Callable[[Sequence[Member]], int],
        *,
        dead_after: float,
        healthy: float,
    ) -> Beat:
        """One heartbeat: drop the dead (heartbeat older than `dead_after` s, once this
        process's own beats have followed each other less than `healthy` s apart for
        `dead_after` s), then claim the larger of `in_use` (what this process may still be
        using in the current window) and `choose(others)`."""
        params = {"token": self.token_id, "me": self.process_key}
        async with self.engine.begin() as conn:
            timeout = f"{int(self.lock_timeout_ms)}ms"
            await conn.execute(text(f"SET LOCAL lock_timeout = '{timeout}'"))
            await conn.execute(text(f"SET LOCAL statement_timeout = '{timeout}'"))
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": self._lock_key})
            now, last = (await conn.execute(_MY_LAST_BEAT, params)).one()
            now = float(now)
            if self.beating_since is None or last is None or now - float(last) >= healthy:
                self.beating_since = now  # a first beat, or one after a gap: a new run
            dropped = 0
            if now - self.beating_since >= dead_after:
                found = await conn.execute(_DROP_DEAD, {**params, "dead_after": dead_after})
                dropped = max(0, found.rowcount or 0)
            rows = (await conn.execute(_OTHERS, params)).all()
            others = tuple(
                Member(str(r[0]), int(r[1]), str(r[2]), int(r[3]), float(r[4]), bool(r[5]))
                for r in rows
            )
            claim = max(0, in_use, choose(others))
            joined = await conn.execute(
                _WRITE_ME, {**params, "pid": self.pid, "host": self.host, "claim": claim}
            )
            self.joined_at = float(joined.scalar_one())
            pause = (await conn.execute(_PAUSE, params)).first()
        left, end = (0.0, None) if pause is None else (max(0.0, float(pause[0])), float(pause[1]))
        return Beat(others, claim, left, end, dropped)

    async def drop_gone_here(self, alive: Callable[[int], bool]) -> int:
        """Drop the rows of this host's processes of the token that are gone (`alive(pid)`
        false, or this very pid: a predecessor restarted in its place), without waiting for
        their heartbeat to age: a restart has its share at once. How many were dropped."""
        params = {"token": self.token_id, "host": self.host, "me": self.process_key}
        dropped = 0
        async with self.engine.begin() as conn:
            for key, pid in (await conn.execute(_HERE, params)).all():
                if int(pid) == self.pid or not alive(int(pid)):
                    found = await conn.execute(
                        _DROP, {"token": self.token_id, "key": key, "pid": pid}
                    )
                    dropped += max(0, found.rowcount or 0)
        return dropped

    async def pause_all(self, seconds: float) -> None:
        """Every process of the token pauses for `seconds` (a global 429's Retry-After) from
        now, unless a longer pause is already on: written for their next beat, and told at
        once to those listening (`listen`)."""
        async with self.engine.begin() as conn:
            await conn.execute(_SET_PAUSE, {"token": self.token_id, "seconds": float(seconds)})
            await conn.execute(
                text("SELECT pg_notify(:channel, :seconds)"),
                {"channel": self.channel, "seconds": f"{float(seconds):.3f}"},
            )

    async def listen(self, told: Callable[[float], None]) -> Callable[[], Awaitable[None]]:
        """Hear at once of a global 429 at any process of the token (`told(seconds)`), on a
        connection of its own held until the returned function closes it. (A lost connection
        is not noticed: the beats still read the pause.)"""
        conn = await self.engine.connect()
        try:
            driver: Any = (await conn.get_raw_connection()).driver_connection

            def heard(_: object, __: object, ___: object, payload: str) -> None:
                with contextlib.suppress(ValueError):
                    told(float(payload))

            await driver.add_listener(self.channel, heard)
        except BaseException:
            await conn.close()
            raise

        async def close() -> None:
            with contextlib.suppress(Exception):
                await driver.remove_listener(self.channel, heard)
            await conn.close()

        return close

    async def leave(
        self, still_started: int = 0, *, for_seconds: float = 0.0, dead_after: float
    ) -> None:
        """This process stops: its share goes back to the others at their next beat, but for
        the `still_started` requests it started in the window not over yet, which stay claimed
        `for_seconds` more (its heartbeat is aged so that it is dead by then)."""
        params = {"token": self.token_id, "me": self.process_key}
        async with self.engine.begin() as conn:
            if still_started <= 0:
                await conn.execute(_LEAVE, params)
                return
            aged = max(0.0, dead_after - for_seconds)
            await conn.execute(_LINGER, {**params, "claim": still_started, "aged": aged})
