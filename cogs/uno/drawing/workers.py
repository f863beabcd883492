"""Work kept off the event loop in a worker process: replays (drawing/renderer.py) and computer
players
that think (game/computers.py), long stretches of Python that would hold the interpreter lock.

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
import multiprocessing.connection
import os
import pickle
import signal
import struct
from collections.abc import Callable
from typing import Any, TypeVar

from bot.child_process import serve_calls

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


class WorkerDied(Exception):
    """The process ended (killed, out of memory) before it answered."""


#: A message on either pipe: its length (4 bytes, big-endian, as `Connection.send_bytes`
#: frames it, so the process reads and writes with the standard `Connection`), then a pickle.
_HEADER = struct.Struct("!i")


class _Process:
    """One spawned process and its two pipes, driven from the event loop without a thread.

    `concurrent.futures.ProcessPoolExecutor` moves each call through a manager thread and a
    queue feeder thread of the bot, several pipe hops and interpreter-lock handovers: measured
    with the latency benchmark, about 0.85 ms of CPU per picture, more than drawing it. Here a
    call is one write of a small pickle and its answer one read, both by the loop itself on
    non-blocking pipes (a stopped process can never block the loop: what it does not read
    waits in `_out`)."""

    def __init__(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        child_in, self._requests = ctx.Pipe(duplex=False)
        self._results, child_out = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=serve_calls, args=(child_in, child_out), daemon=True)
        self.process.start()
        child_in.close()
        child_out.close()
        self._loop = asyncio.get_running_loop()
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._calls = 0
        self._out = bytearray()
        self._in = bytearray()
        self.dead = False
        os.set_blocking(self._requests.fileno(), False)
        os.set_blocking(self._results.fileno(), False)
        self._loop.add_reader(self._results.fileno(), self._readable)

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> asyncio.Future[Any]:
        """Send `fn(*args)`; its future. Raises pickling errors before anything is sent."""
        if self.dead:
            raise WorkerDied(self.pid)
        self._calls += 1
        data = pickle.dumps((self._calls, fn, args))
        future: asyncio.Future[Any] = self._loop.create_future()
        self._waiting[self._calls] = future
        pending = bool(self._out)
        self._out += _HEADER.pack(len(data)) + data
        if not pending:
            self._flush()
        return future

    def forget(self, future: asyncio.Future[Any]) -> None:
        """The caller gave up on this call: its answer, when it comes, is dropped."""
        for call, waiting in list(self._waiting.items()):
            if waiting is future:
                del self._waiting[call]

    def _flush(self) -> None:
        try:
            sent = os.write(self._requests.fileno(), self._out)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._died()
            return
        del self._out[:sent]
        if self._out:
            self._loop.add_writer(self._requests.fileno(), self._writable)

    def _writable(self) -> None:
        self._loop.remove_writer(self._requests.fileno())
        self._flush()

    def _readable(self) -> None:
        try:
            chunk = os.read(self._results.fileno(), 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._died()
            return
        self._in += chunk
        while len(self._in) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._in)
            end = _HEADER.size + size
            if len(self._in) < end:
                break
            call, ok, inner = pickle.loads(self._in[_HEADER.size : end])
            del self._in[:end]
            future = self._waiting.pop(call, None)
            if future is None or future.done():
                continue
            try:
                value = pickle.loads(inner)
            except Exception as exc:
                ok, value = False, RuntimeError(f"result not readable: {exc!r}")
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _died(self) -> None:
        """The process is gone: every call waiting on it fails with `WorkerDied`."""
        if self.dead:
            return
        self.dead = True
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self._results.fileno())
            self._loop.remove_writer(self._requests.fileno())
        waiting, self._waiting = self._waiting, {}
        for future in waiting.values():
            if not future.done():
                future.set_exception(WorkerDied(self.pid))
        self._requests.close()
        self._results.close()

    def kill(self) -> None:
        """End the process at once (SIGKILL: a stopped or looping one never reads a request
        to exit); calls still waiting fail with `WorkerDied`."""
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.pid, signal.SIGKILL)
        self._died()


class WorkerProcess:
    """One worker process, started on demand in the background, with a thread as fallback."""

    def __init__(self, name: str, warm_up: Callable[[], object]) -> None:
        self.name = name
        self._warm_up = warm_up
        self._process: _Process | None = None  # once it is ready
        self._starting: asyncio.Task[None] | None = None
        self._restarts_left = MAX_RESTARTS
        self._finished = 0  # calls the current process answered (its sign of life)

    @property
    def ready(self) -> bool:
        return self._process is not None

    @property
    def pids(self) -> list[int]:
        """The ready process's pid (tests, logs); empty while there is none."""
        pid = None if self._process is None else self._process.pid
        return [] if pid is None else [pid]

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
        process: _Process | None = None
        try:
            process = _Process()
            warming = process.submit(self._warm_up, ())
            warmed = await asyncio.wait_for(warming, START_DEADLINE)
        except asyncio.CancelledError:
            if process is not None:
                process.kill()
            raise
        except Exception:
            log.warning(
                "the %s process did not start; working in a thread", self.name, exc_info=True
            )
            if process is not None:
                process.kill()
            return
        self._finished = 0
        self._process = process
        log.info("%s process ready (pid %s; %s)", self.name, process.pid, warmed)

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
        process = self._process
        future: asyncio.Future[T] | None = None
        if process is not None:
            try:
                future = process.submit(fn, args)
            except WorkerDied:
                future = None
            except (pickle.PicklingError, TypeError, AttributeError):
                # a value that cannot travel: this once, a thread
                log.warning("the %s process cannot take %r", self.name, fn, exc_info=True)
        if process is not None and future is not None:
            finished = self._finished
            try:
                done, _ = await asyncio.wait({future}, timeout=deadline)
            except asyncio.CancelledError:  # (the caller gave up: so does the work)
                _abandon(process, future)
                raise
            if not done:
                _abandon(process, future)
                if self._process is process and self._finished == finished:
                    self._replace(process, f"answered nothing in {deadline:g} s: killed")
                raise WorkerLate(f"{self.name}: no result within {deadline:g} s")
            try:
                result = future.result()
            except WorkerDied:
                if self._process is process:  # the process died (killed, out of memory)
                    self._replace(process, "died")
                # (else it was replaced already, stuck: this work, queued behind, goes on here)
            except BaseException:  # `fn`'s own error: it propagates, as from a thread
                if self._process is process:
                    self._finished += 1  # (an answer, even an error, is a sign of life)
                raise
            else:
                if self._process is process:
                    self._finished += 1
                return result
        if not thread:
            raise WorkerLate(f"{self.name}: no process to do the work")
        left = until - loop.time()
        threaded = asyncio.ensure_future(asyncio.to_thread(fn, *args))
        done, _ = await asyncio.wait({threaded}, timeout=max(0.0, left))
        if not done:  # (a thread cannot be stopped: its result is dropped when it comes)
            threaded.cancel()
            threaded.add_done_callback(_drop_outcome)
            raise WorkerLate(f"{self.name}: no result within {deadline:g} s (in a thread)")
        return threaded.result()

    def _replace(self, process: _Process, why: str) -> None:
        """Stop sending work to this process (a thread does it), kill it, and start a new one in
        its place, a few times in the bot's life (a process that keeps dying or sticking is not
        worth a new start for every piece of work)."""
        log.warning(
            "the %s process %s (pid %s); working in a thread%s",
            self.name,
            why,
            process.pid or "?",
            " until a new one is up" if self._restarts_left > 0 else "",
        )
        self._process = None
        process.kill()
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
        process, self._process = self._process, None
        if process is not None:
            process.kill()


def _abandon(process: _Process, future: asyncio.Future[Any]) -> None:
    """Give up on a call: its answer, when it comes, is dropped."""
    process.forget(future)
    future.cancel()


def _drop_outcome(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
