"""A thread of the bot that draws card pictures, replaced when a picture is stuck.

A picture is almost all Pillow's C code (pasting sprites, mapping colours, zlib), which releases
the interpreter lock: drawn in a thread, it holds up the event loop for a few Python lines, and
it costs no pickling, no pipe and no process switch. Measured with the latency benchmark
(docs/benchmarks.md, issue 23): 0.91x the bot's CPU per interaction of drawing in a worker
process, and a lower p99.

A daemon thread, not a `ThreadPoolExecutor`: the interpreter joins an executor's threads at
exit, so one stuck drawing would hold the bot's exit. A picture not drawn within its deadline is
left out (`DrawingLate`); if the thread finished nothing meanwhile it is stuck, and a new thread
takes the next pictures (the stuck one is abandoned: it ends with its drawing, or with the bot).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

_Job = tuple[Callable[[], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


class DrawingLate(TimeoutError):
    """The picture was not drawn within its deadline."""


class _Thread:
    """One daemon thread taking jobs from a queue, in order."""

    def __init__(self, name: str) -> None:
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.finished = 0  # jobs done (its sign of life)
        self.thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while (job := self.jobs.get()) is not None:
            fn, loop, future = job
            try:
                outcome: tuple[bool, Any] = (True, fn())
            except BaseException as exc:  # the drawing's own error is its result
                outcome = (False, exc)
            self.finished += 1
            try:
                loop.call_soon_threadsafe(_settle, future, outcome)
            except RuntimeError:  # the loop is closed: nobody waits any more
                return

    def stop(self) -> None:
        self.jobs.put(None)


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():  # the caller gave up on it (late)
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class DrawingThread:
    """Draws in a thread of its own; a stuck thread is replaced (a few times in the bot's life)."""

    def __init__(self, name: str, restarts: int = 3) -> None:
        self.name = name
        self._restarts_left = restarts
        self._thread: _Thread | None = None

    def _current(self) -> _Thread:
        if self._thread is None:
            self._thread = _Thread(self.name)
        return self._thread

    async def run(self, fn: Callable[[], T], *, deadline: float) -> T:
        """`fn()` in the thread; `DrawingLate` if it is not done within `deadline` seconds."""
        loop = asyncio.get_running_loop()
        thread = self._current()
        finished = thread.finished
        future: asyncio.Future[T] = loop.create_future()
        thread.jobs.put((fn, loop, future))
        done, _ = await asyncio.wait({future}, timeout=deadline)
        if not done:
            future.cancel()
            if self._thread is thread and thread.finished == finished:
                self._replace(thread, deadline)
            raise DrawingLate(f"{self.name}: not drawn within {deadline:g} s")
        return future.result()

    def _replace(self, thread: _Thread, deadline: float) -> None:
        """The thread drew nothing while a picture waited its whole deadline: it is stuck.
        The next pictures go to a new one, a few times in the bot's life (one that keeps
        sticking is not worth a thread per picture: they then wait their deadline and go)."""
        if self._restarts_left <= 0:
            return
        self._restarts_left -= 1
        log.warning(
            "the %s thread drew nothing in %g s: stuck, a new one draws from now on",
            self.name,
            deadline,
        )
        thread.stop()  # (taken once it is unstuck, if ever)
        self._thread = _Thread(self.name)

    def close(self) -> None:
        """Let the thread end after its current job (never waited for: it is a daemon)."""
        if self._thread is not None:
            self._thread.stop()
            self._thread = None
