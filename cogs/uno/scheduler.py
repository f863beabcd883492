"""Delayed jobs keyed by what they are for: one per key, a new one replaces the old.

Turn timers, computer players' moves and lobby expiry all use it. A job that is running is no
longer registered, so it may schedule its own successor under the same key without cancelling
itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Scheduler:
    def __init__(self) -> None:
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}

    def at(self, key: Hashable, delay: float, job: Job) -> None:
        """Run `job` in `delay` seconds (now if not positive), replacing `key`'s pending job."""
        self.cancel(key)
        self._tasks[key] = asyncio.create_task(self._run(key, delay, job), name=f"uno-{key}")

    def pending(self, key: Hashable) -> bool:
        return key in self._tasks

    def cancel(self, key: Hashable) -> None:
        task = self._tasks.pop(key, None)
        if task is not None:
            task.cancel()

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()

    async def _run(self, key: Hashable, delay: float, job: Job) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if self._tasks.get(key) is asyncio.current_task():
            del self._tasks[key]
        try:
            await job()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("scheduled job %s failed", key)
