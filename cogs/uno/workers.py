"""Work kept off the event loop in a worker process: card pictures (pictures.py) and computer
players that think (thinking.py).

Pure Python work in a thread holds the interpreter lock against the event loop, so every answer
waiting for the loop would wait for it too. A worker process does the work instead, and the loop
only sends it a small value and gets a small value back. Each worker is a fresh "spawn"
interpreter (it inherits none of the bot's sockets or threads), started in the background and
warmed up by a function of its own, and it dies with the bot (`exit_with_parent`). Until it is
up, and whenever it fails, a thread does the work: the result is the same, only the rest of the
bot waits a little meanwhile.

Every call has a deadline (`run(..., deadline=)`): a call without its result by then raises
`WorkerLate`, and the caller does without (a picture left out, a simpler computer move). A
process that finished nothing at all while a call waited its whole deadline is stuck (stopped,
swapping, looping): it is killed and a new one started in the background, and meanwhile a thread
does the work. Closing kills the process too, so a stuck one never holds the bot's exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.child_process import exit_with_parent

log = logging.getLogger(__name__)

T = TypeVar("T")

#: New processes started in place of ones that died or were stuck, per worker, in the bot's life.
MAX_RESTARTS = 3
#: Seconds a new process has to start and warm up (a fresh interpreter importing Pillow or the
#: engine takes about a second; a loaded machine several): later, it is killed and the work
#: stays in a thread.
START_DEADLINE = 30.0


class WorkerLate(TimeoutError):
    """The work's result did not come within its deadline (the caller does without it)."""


def process_ids(pool: ProcessPoolExecutor) -> list[int]:
    """The pids of a pool's processes. `ProcessPoolExecutor` does not say them: this reads its
    private `_processes` (pid -> Process; the same name in CPython 3.8-3.13), the one place that
    does, so a change there breaks only this (tests/cogs/test_workers.py kills through it)."""
    processes = getattr(pool, "_processes", None) or {}
    return [int(pid) for pid in list(processes)]


def kill(pool: ProcessPoolExecutor) -> None:
    """End a pool at once: no new work, queued work cancelled, its processes SIGKILLed (a
    stopped or looping process would never read a polite request to exit)."""
    pids = process_ids(pool)
    pool.shutdown(wait=False, cancel_futures=True)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


class WorkerProcess:
    """One worker process, started on demand in the background, with a thread as fallback."""

    def __init__(self, name: str, warm_up: Callable[[], object]) -> None:
        self.name = name
        self._warm_up = warm_up
        self._pool: ProcessPoolExecutor | None = None  # once it is ready
        self._starting: asyncio.Task[None] | None = None
        self._restarts_left = MAX_RESTARTS
        self._finished = 0  # calls the current process answered (its sign of life)

    @property
    def ready(self) -> bool:
        return self._pool is not None

    @property
    def pids(self) -> list[int]:
        """The ready process's pid (tests, logs); empty while there is none."""
        return [] if self._pool is None else process_ids(self._pool)

    def start(self) -> None:
        """Start the process in the background (the bot answers meanwhile)."""
        if self._starting is None:
            log.info("starting the %s process", self.name)
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
            warming = asyncio.get_running_loop().run_in_executor(pool, self._warm_up)
            warmed = await asyncio.wait_for(warming, START_DEADLINE)
        except asyncio.CancelledError:
            kill(pool)
            raise
        except Exception:
            log.warning(
                "the %s process did not start; working in a thread", self.name, exc_info=True
            )
            kill(pool)
            return
        self._finished = 0
        self._pool = pool
        pid = ", ".join(map(str, process_ids(pool)))
        log.info("%s process ready (pid %s; %s)", self.name, pid, warmed)

    async def run(
        self, fn: Callable[..., T], *args: Any, deadline: float, thread: bool = True
    ) -> T:
        """`fn(*args)` in the process (`fn` and the arguments are pickled), or in a thread while
        there is no process; `WorkerLate` if the result is not there within `deadline` seconds
        (a stuck process is then replaced). `thread=False`: work too long to hold the
        interpreter lock against the event loop (a replay) is never done in a thread: without
        a process, `WorkerLate` at once."""
        loop = asyncio.get_running_loop()
        until = loop.time() + deadline
        pool = self._pool
        if pool is not None:
            finished = self._finished
            future = loop.run_in_executor(pool, fn, *args)
            try:
                try:
                    done, _ = await asyncio.wait({future}, timeout=deadline)
                except asyncio.CancelledError:  # (the caller gave up: so does the work)
                    _abandon(future)
                    raise
                if not done:
                    _abandon(future)
                    if self._pool is pool and self._finished == finished:
                        self._replace(pool, f"answered nothing in {deadline:g} s: killed")
                    raise WorkerLate(f"{self.name}: no result within {deadline:g} s")
                if self._pool is pool:
                    self._finished += 1  # (an answer, even `fn`'s own error, is a sign of life)
                return future.result()
            except BrokenProcessPool:
                if self._pool is pool:  # the process died (killed, out of memory): a new one
                    self._replace(pool, "died")
                # (else it was replaced already, stuck: this work, queued behind, goes on here)
            except pickle.PicklingError:  # (a value that cannot travel: this once, a thread)
                log.warning("the %s process cannot take %r", self.name, fn, exc_info=True)
        # (Any other exception is `fn`'s own: it propagates, as it would from a thread.)
        if not thread:
            raise WorkerLate(f"{self.name}: no process to do the work")
        left = until - loop.time()
        threaded = asyncio.ensure_future(asyncio.to_thread(fn, *args))
        done, _ = await asyncio.wait({threaded}, timeout=max(0.0, left))
        if not done:  # (a thread cannot be stopped: its result is dropped when it comes)
            _abandon(threaded)
            raise WorkerLate(f"{self.name}: no result within {deadline:g} s (in a thread)")
        return threaded.result()

    def _replace(self, pool: ProcessPoolExecutor, why: str) -> None:
        """Stop sending work to this process (a thread does it), kill it, and start a new one in
        its place, a few times in the bot's life (a process that keeps dying or sticking is not
        worth a new start for every piece of work)."""
        log.warning(
            "the %s process %s (pid %s); working in a thread%s",
            self.name,
            why,
            ", ".join(map(str, process_ids(pool))) or "?",
            " until a new one is up" if self._restarts_left > 0 else "",
        )
        self._pool = None
        kill(pool)
        if self._restarts_left > 0:
            self._restarts_left -= 1
            self._starting = None
            self.start()

    async def close(self) -> None:
        """Stop the process at once, stuck or not (it holds no state worth waiting for)."""
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            await asyncio.gather(self._starting, return_exceptions=True)
        self._starting = None
        pool, self._pool = self._pool, None
        if pool is not None:
            kill(pool)


def _abandon(future: asyncio.Future[Any]) -> None:
    """Give up on work: cancelled if it has not started; else its outcome, when it comes, is
    read and dropped (a killed process's BrokenProcessPool is no error worth a log line)."""
    future.cancel()
    future.add_done_callback(_drop_outcome)


def _drop_outcome(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
