"""Work off the event loop (cogs/uno/drawing/workers.py, cogs/uno/game/computers.py): in a worker
process once it is up, in a thread before and after it fails, with the same results either way;
every call within a deadline, a stuck process killed and replaced.

Stuck processes are real ones, stopped with SIGSTOP (or busy in `time.sleep`): a deadline is
all a test waits for, and every other wait is for a condition, bounded."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from pathlib import Path

import pytest

from bot.engine import Game, RuleSet, view_for
from bot.engine import actions as A
from cogs.uno.drawing.workers import WorkerLate, WorkerProcess

#: A deadline no healthy call comes near (a bounded wait, not a race).
DEADLINE = 30.0
#: The deadline a stuck process is given in these tests.
SHORT = 0.5


def _running(pid: int) -> bool:
    """Whether the process exists and is not a zombie (killed, not yet reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


async def _until_gone(pid: int, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    while _running(pid):
        assert loop.time() < until, f"process {pid} still running"
        await asyncio.sleep(0.02)


async def _stopped_worker(kind: type[WorkerProcess] = WorkerProcess) -> tuple[WorkerProcess, int]:
    """A worker whose process is up, then stopped (SIGSTOP)."""
    worker = kind("test", os.getpid)
    worker.start()
    assert await worker.wait_ready()
    (pid,) = worker.pids
    os.kill(pid, signal.SIGSTOP)
    return worker, pid


def _fail() -> None:
    raise ValueError("the work itself failed")


class _TwoArgs(Exception):
    """Pickles, but does not unpickle (its `args` keep one of its two arguments)."""

    def __init__(self, first: int, second: int) -> None:
        super().__init__(first)
        self.second = second


def _fail_unreadably() -> None:
    raise _TwoArgs(1, 2)


@pytest.mark.asyncio
async def test_work_runs_in_a_thread_until_the_process_is_up_then_in_the_process() -> None:
    worker = WorkerProcess("test", os.getpid)
    try:
        assert (
            await worker.run(os.getpid, deadline=DEADLINE) == os.getpid()
        )  # not started: a thread of ours
        worker.start()
        assert await worker.wait_ready()
        assert await worker.run(os.getpid, deadline=DEADLINE) != os.getpid()
    finally:
        await worker.close()
    assert not worker.ready


@pytest.mark.asyncio
async def test_a_dead_process_is_replaced_and_an_error_is_the_works_own() -> None:
    worker = WorkerProcess("test", os.getpid)
    worker.start()
    try:
        assert await worker.wait_ready()
        with pytest.raises(ValueError, match="the work itself failed"):
            await worker.run(_fail, deadline=DEADLINE)
        assert worker.ready  # the work's own error: the process is fine
        child = await worker.run(os.getpid, deadline=DEADLINE)
        os.kill(child, signal.SIGKILL)
        assert (
            await worker.run(os.getpid, deadline=DEADLINE) == os.getpid()
        )  # a thread took it over
        assert not worker.ready
        assert await worker.wait_ready()  # and a new process is started in its place
        assert await worker.run(os.getpid, deadline=DEADLINE) not in (os.getpid(), child)
    finally:
        await worker.close()


@pytest.mark.asyncio
async def test_a_result_the_bot_cannot_read_fails_its_call_alone() -> None:
    worker = WorkerProcess("test", os.getpid)
    worker.start()
    try:
        assert await worker.wait_ready()
        (pid,) = worker.pids
        with pytest.raises(RuntimeError, match="result not readable"):
            await worker.run(_fail_unreadably, deadline=DEADLINE)
        assert await worker.run(os.getpid, deadline=DEADLINE) == pid  # the same process
    finally:
        await worker.close()


@pytest.mark.asyncio
async def test_a_stopped_process_is_late_then_killed_and_replaced() -> None:
    worker, stopped = await _stopped_worker()
    try:
        with pytest.raises(WorkerLate):
            await worker.run(os.getpid, deadline=SHORT)
        assert not worker.ready  # never sent work again
        assert await worker.run(os.getpid, deadline=DEADLINE) == os.getpid()  # a thread
        await _until_gone(stopped)  # SIGKILL ends even a stopped process
        assert await worker.wait_ready()  # a new one, started in the background
        (fresh,) = worker.pids
        assert fresh != stopped
        assert await worker.run(os.getpid, deadline=DEADLINE) == fresh
    finally:
        await worker.close()


@pytest.mark.asyncio
async def test_work_that_outlasts_its_deadline_is_late_and_its_process_replaced() -> None:
    worker = WorkerProcess("test", os.getpid)
    worker.start()
    try:
        assert await worker.wait_ready()
        (busy,) = worker.pids
        with pytest.raises(WorkerLate):
            await worker.run(time.sleep, 60, deadline=SHORT)
        await _until_gone(busy)
        assert await worker.wait_ready()
        assert worker.pids != [busy]
    finally:
        await worker.close()


@pytest.mark.asyncio
async def test_work_queued_behind_a_stuck_call_is_done_in_a_thread() -> None:
    worker, _ = await _stopped_worker()
    try:
        first = asyncio.ensure_future(worker.run(os.getpid, deadline=SHORT))
        queued = asyncio.ensure_future(worker.run(os.getpid, deadline=DEADLINE))
        with pytest.raises(WorkerLate):
            await first
        assert await queued == os.getpid()  # the kill broke the pool: a thread took it
    finally:
        await worker.close()


@pytest.mark.asyncio
async def test_past_the_restart_budget_a_stuck_process_leaves_the_work_to_a_thread() -> None:
    worker, stopped = await _stopped_worker()
    worker._restarts_left = 0
    try:
        with pytest.raises(WorkerLate):
            await worker.run(os.getpid, deadline=SHORT)
        assert not await worker.wait_ready()
        await _until_gone(stopped)
        assert await worker.run(os.getpid, deadline=DEADLINE) == os.getpid()
    finally:
        await worker.close()


@pytest.mark.asyncio
async def test_a_late_thread_is_late_too() -> None:
    worker = WorkerProcess("test", os.getpid)  # not started: a thread works
    with pytest.raises(WorkerLate):
        await worker.run(time.sleep, 2 * SHORT, deadline=SHORT / 5)


@pytest.mark.asyncio
async def test_closing_kills_a_stopped_process() -> None:
    worker, stopped = await _stopped_worker()
    loop = asyncio.get_running_loop()
    started = loop.time()
    await worker.close()
    assert loop.time() - started < 1.0
    assert not worker.ready
    await _until_gone(stopped)


def _a_real_choice() -> tuple[Game, int]:
    """A position where the player to move has several plays."""
    for seed in range(100):
        game = Game.new([1, 2], RuleSet(scoring="none"), seed=seed)
        player = game.current_player
        assert player is not None
        plays = [a for a in game.legal_actions(player) if isinstance(a, A.Play)]
        if len(plays) >= 3:
            return game, player
    raise AssertionError("no seed gives a choice")


@pytest.mark.asyncio
async def test_a_computer_thinks_alike_in_the_process_and_in_a_thread() -> None:
    # Imported here: loading the cogs as extensions (test_cogs.py) imports them afresh, and a
    # function pickles by its module's current name only.
    from cogs.uno.game.computers import decide, decision_seed, warm_up

    game, player = _a_real_choice()
    view = view_for(game, player)
    worker = WorkerProcess("thinking", warm_up)
    worker.start()
    try:
        assert await worker.wait_ready()
        for level in ("easy", "normal", "hard"):
            for k in range(5):
                seed = decision_seed(7, player, game.version + k)
                assert await worker.run(decide, level, seed, view, deadline=DEADLINE) == decide(
                    level, seed, view
                )
        expert = await worker.run(decide, "expert", 1, view, deadline=DEADLINE)
        assert expert in game.legal_actions(player)
    finally:
        await worker.close()


def test_each_decision_has_its_own_seed() -> None:
    from cogs.uno.game.computers import decision_seed

    seeds = {decision_seed(g, p, v) for g in (1, 2) for p in (-1, -2, 5) for v in range(50)}
    assert len(seeds) == 2 * 3 * 50


@pytest.mark.asyncio
async def test_a_late_expert_plays_the_hard_choice(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import cogs.uno.game.computers as thinking

    game, player = _a_real_choice()
    view = view_for(game, player)
    # The module's own WorkerProcess: test_cogs.py imports the cogs afresh, and `think` catches
    # its module's WorkerLate.
    worker, _ = await _stopped_worker(thinking.WorkerProcess)
    monkeypatch.setattr(thinking, "THINKING", worker)
    monkeypatch.setattr(thinking, "DEADLINE", SHORT)
    try:
        with caplog.at_level(logging.WARNING, logger="cogs.uno.game.computers"):
            choice = await thinking.think("expert", 3, view)
        assert choice == thinking.decide("hard", 3, view)
        logged = [r.levelname for r in caplog.records if r.name == "cogs.uno.game.computers"]
        assert logged == ["WARNING"]
    finally:
        await worker.close()
