"""The entry point's last resort at exit (bot/__main__.py): worker processes still alive once
the client is closed, a stopped one included, are killed so none holds the exit."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

from bot.__main__ import _kill_worker_processes


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
