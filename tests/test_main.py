"""The entry point's last resort at exit (bot/__main__.py): worker processes still alive once
the client is closed, a stopped one included, are killed so none holds the exit."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

from bot.__main__ import _kill_worker_processes, event_loop_factory


def test_a_stopped_worker_left_at_exit_is_killed() -> None:
    worker = multiprocessing.get_context("spawn").Process(target=time.sleep, args=(60,))
    worker.start()
    try:
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGSTOP)
        started = time.monotonic()
        _kill_worker_processes()
        worker.join(10)  # bounded: SIGKILL ends a stopped process at once
        assert worker.exitcode == -signal.SIGKILL
        assert time.monotonic() - started < 5
    finally:
        if worker.exitcode is None:
            worker.kill()
            worker.join(10)


def test_the_bot_runs_on_uvloop_where_it_is_built() -> None:
    """pyproject installs uvloop except on Windows; the entry point then runs on its loop."""
    import asyncio
    import sys

    factory = event_loop_factory()
    if sys.platform == "win32":
        assert factory is None
        return
    assert factory is not None

    async def loop_module() -> str:
        return type(asyncio.get_running_loop()).__module__

    with asyncio.Runner(loop_factory=factory) as runner:
        assert runner.run(loop_module()).startswith("uvloop")
