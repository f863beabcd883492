"""Delayed jobs keyed by what they are for: one per key, a new one replaces the old.

The one clock of the bot: each running game's owner has one (running.py: its turn timer, its
computers' moves, a reload after a failed one, and its turn ping, pings.py), and the lobbies
share one for their expiry (lobby.py). A job that is running is no longer registered, so it may
schedule its own successor under the same key without cancelling itself; a job that fails is
logged, never lost silently, and takes no other job with it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Clock:
    def __init__(self, name: str = "uno") -> None:
        """`name`: what the clock is for, in its tasks' names and its log lines."""
        self.name = name
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}

    def at(self, key: Hashable, delay: float, job: Job) -> None:
        """Run `job` in `delay` seconds (now if not positive), replacing `key`'s pending job."""
        self.cancel(key)
        self._tasks[key] = asyncio.create_task(
            self._run(key, delay, job), name=f"{self.name}-{key}"
        )

    def cancel(self, key: Hashable) -> None:
        task = self._tasks.pop(key, None)
        if task is not None:
            task.cancel()

    def cancel_all(self) -> None:
        """Cancel every pending job (the ones running now finish)."""
        for key in list(self._tasks):
            self.cancel(key)

    async def _run(self, key: Hashable, delay: float, job: Job) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if self._tasks.get(key) is asyncio.current_task():
            del self._tasks[key]  # running now: what it arms next must not cancel it
        try:
            await job()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s: %s job failed", self.name, key)
