"""Work kept off the event loop in a worker process: card pictures (pictures.py) and computer
players that think (thinking.py).

Pure Python work in a thread holds the interpreter lock against the event loop, so every answer
waiting for the loop would wait for it too. A worker process does the work instead, and the loop
only sends it a small value and gets a small value back. Each worker is a fresh "spawn"
interpreter (it inherits none of the bot's sockets or threads), started in the background and
warmed up by a function of its own, and it dies with the bot (`exit_with_parent`). Until it is
up, and whenever it fails, a thread does the work: the result is the same, only the rest of the
bot waits a little meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.ui.art.worker import exit_with_parent

log = logging.getLogger(__name__)

T = TypeVar("T")

#: New processes started in place of ones that died, per worker, in the bot's life.
MAX_RESTARTS = 3


class WorkerProcess:
    """One worker process, started on demand in the background, with a thread as fallback."""

    def __init__(self, name: str, warm_up: Callable[[], object]) -> None:
        self.name = name
        self._warm_up = warm_up
        self._pool: ProcessPoolExecutor | None = None  # once it is ready
        self._starting: asyncio.Task[None] | None = None
        self._restarts_left = MAX_RESTARTS

    @property
    def ready(self) -> bool:
        return self._pool is not None

    def start(self) -> None:
        """Start the process in the background (the bot answers meanwhile)."""
        if self._starting is None:
            self._starting = asyncio.create_task(self._start(), name=f"{self.name}-start")

    async def wait_ready(self) -> bool:
        """Wait for a start under way (tests and benchmarks); whether the process is up."""
        if self._starting is not None:
            await asyncio.gather(self._starting, return_exceptions=True)
        return self.ready

    async def _start(self) -> None:
        pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=exit_with_parent,  # a killed bot leaves no orphan behind
        )
        try:
            warmed = await asyncio.get_running_loop().run_in_executor(pool, self._warm_up)
        except asyncio.CancelledError:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        except Exception:
            log.warning(
                "the %s process did not start; working in a thread", self.name, exc_info=True
            )
            pool.shutdown(wait=False, cancel_futures=True)
            return
        self._pool = pool
        log.info("%s process ready (%s)", self.name, warmed)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in the process (`fn` and the arguments are pickled), or in a thread while
        there is no process."""
        pool = self._pool
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
            except BrokenProcessPool:  # the process died (killed, out of memory): a new one
                log.warning("the %s process died; working in a thread", self.name, exc_info=True)
                if self._pool is pool:
                    self._pool = None
                    self._restart()
                pool.shutdown(wait=False, cancel_futures=True)
            except pickle.PicklingError:  # (a value that cannot travel: this once, a thread)
                log.warning("the %s process cannot take %r", self.name, fn, exc_info=True)
        # (Any other exception is `fn`'s own: it propagates, as it would from a thread.)
        return await asyncio.to_thread(fn, *args)

    def _restart(self) -> None:
        """Start a new process in place of one that died, a few times in the bot's life (a
        process that keeps dying is not worth a new start for every piece of work)."""
        if self._restarts_left > 0:
            self._restarts_left -= 1
            self._starting = None
            self.start()

    async def close(self) -> None:
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            await asyncio.gather(self._starting, return_exceptions=True)
        self._starting = None
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
