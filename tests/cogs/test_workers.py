"""Work off the event loop (cogs/uno/workers.py, cogs/uno/thinking.py): in a worker process once
it is up, in a thread before and after it fails, with the same results either way."""

from __future__ import annotations

import os
import signal

import pytest

from bot.engine import Game, RuleSet, view_for
from bot.engine import actions as A
from cogs.uno.workers import WorkerProcess


def _fail() -> None:
    raise ValueError("the work itself failed")


@pytest.mark.asyncio
async def test_work_runs_in_a_thread_until_the_process_is_up_then_in_the_process() -> None:
    worker = WorkerProcess("test", os.getpid)
    try:
        assert await worker.run(os.getpid) == os.getpid()  # not started: a thread of ours
        worker.start()
        assert await worker.wait_ready()
        assert await worker.run(os.getpid) != os.getpid()
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
            await worker.run(_fail)
        assert worker.ready  # the work's own error: the process is fine
        child = await worker.run(os.getpid)
        os.kill(child, signal.SIGKILL)
        assert await worker.run(os.getpid) == os.getpid()  # a thread took it over
        assert not worker.ready
        assert await worker.wait_ready()  # and a new process is started in its place
        assert await worker.run(os.getpid) not in (os.getpid(), child)
    finally:
        await worker.close()


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
    from cogs.uno.thinking import decide, decision_seed, warm_up

    game, player = _a_real_choice()
    view = view_for(game, player)
    worker = WorkerProcess("thinking", warm_up)
    worker.start()
    try:
        assert await worker.wait_ready()
        for level in ("easy", "normal", "hard"):
            for k in range(5):
                seed = decision_seed(7, player, game.version + k)
                assert await worker.run(decide, level, seed, view) == decide(level, seed, view)
        expert = await worker.run(decide, "expert", 1, view)
        assert expert in game.legal_actions(player)
    finally:
        await worker.close()


def test_each_decision_has_its_own_seed() -> None:
    from cogs.uno.thinking import decision_seed

    seeds = {decision_seed(g, p, v) for g in (1, 2) for p in (-1, -2, 5) for v in range(50)}
    assert len(seeds) == 2 * 3 * 50
