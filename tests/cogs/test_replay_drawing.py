"""Replays are drawn in a process of their own (cogs/uno/drawing/renderer.py `Drawing.replay`),
never in a thread (it would hold the event loop for the replay's second): started at the first
replay, the same file again from the cache, and a stuck process is late within the deadline,
killed, and never leaves the work to a thread."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from bot.ui.replay import replay_from_parts
from cogs.uno.drawing import renderer as pictures
from cogs.uno.drawing.renderer import Drawing, PictureLate
from cogs.uno.drawing.workers import WorkerLate, WorkerProcess
from tests.engine.matches import recorded_match


@pytest.mark.asyncio
async def test_a_replay_is_drawn_in_its_own_process_and_kept() -> None:
    drawing = Drawing()
    parts = recorded_match(5)
    try:
        made = await drawing.replay(("game", 1), parts, 1)
        assert made == replay_from_parts(parts, 1)
        worker = drawing.replay_worker
        assert worker.ready and worker.pids and os.getpid() not in worker.pids
        (pid,) = worker.pids
        os.kill(pid, signal.SIGSTOP)  # the same replay again: from the cache, no process asked
        try:
            assert await drawing.replay(("game", 1), parts, 1) is made
        finally:
            os.kill(pid, signal.SIGCONT)
    finally:
        await drawing.close()


@pytest.mark.asyncio
async def test_a_stuck_replay_process_is_late_and_no_thread_steps_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawing = Drawing()
    parts = recorded_match(5)
    try:
        await drawing.replay(("game", 1), parts, 1)  # the process is up
        (pid,) = drawing.replay_worker.pids
        os.kill(pid, signal.SIGSTOP)
        monkeypatch.setattr(pictures, "REPLAY_DEADLINE", 0.5)
        loop = asyncio.get_running_loop()
        began = loop.time()
        with pytest.raises(PictureLate):
            await drawing.replay(("game", 2), parts, 2)
        assert loop.time() - began < 5.0
        assert pid not in drawing.replay_worker.pids  # killed (a new one starts meanwhile)
    finally:
        await drawing.close()


@pytest.mark.asyncio
async def test_work_that_must_not_hold_the_loop_is_late_without_a_process() -> None:
    worker = WorkerProcess("test", os.getpid)  # never started
    with pytest.raises(WorkerLate):
        await worker.run(os.getpid, deadline=5.0, thread=False)
    assert await worker.run(os.getpid, deadline=5.0) == os.getpid()  # (the default: a thread)
