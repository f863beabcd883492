"""How long the event loop waits while an expert computer thinks: in a thread or in the worker
process (cogs/uno/game/computers.py).

A heartbeat task asks the loop to wake it every millisecond and records how late it wakes (the
delay every interaction's answer would see), while expert decisions run back to back, as in a
server with computer-only turns going on. A thread shares the interpreter lock with the loop; the
process does not. Runs alternate (thread, process, thread, process) on the same positions.

  .venv/bin/python benchmarks/thinking_loop_lag.py [--decisions 40] [--repeats 2]
  .venv/bin/python benchmarks/thinking_loop_lag.py --preset no_mercy   # Show 'Em No Mercy

Prints lateness p50/p99/max per mode; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from bot.engine import Game, PlayerView, RuleSet, view_for
from cogs.uno.drawing.workers import WorkerProcess
from cogs.uno.game.computers import decide, warm_up


def positions(count: int, rules: RuleSet) -> list[tuple[PlayerView, int]]:
    """`count` views of a player to move, from seeded games (the expert searches most of them)."""
    out: list[tuple[PlayerView, int]] = []
    seed = 0
    while len(out) < count:
        game = Game.new([1, 2, 3], rules, seed=seed)
        player = game.current_player
        assert player is not None
        out.append((view_for(game, player), seed))
        seed += 1
    return out


async def lateness_while(work: asyncio.Future[None]) -> list[float]:
    late = []
    while not work.done():
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        late.append((time.perf_counter() - start - 0.001) * 1000)
    return late


async def run(mode: str, views: list[tuple[PlayerView, int]], worker: WorkerProcess) -> list[float]:
    async def think_all() -> None:
        for view, seed in views:
            if mode == "thread":
                await asyncio.to_thread(decide, "expert", seed, view)
            else:
                await worker.run(decide, "expert", seed, view, deadline=60.0)

    work = asyncio.ensure_future(think_all())
    late = await lateness_while(work)
    await work
    return late


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--preset", help="a rule preset instead of the official rules (no_mercy)")
    args = parser.parse_args()
    rules = RuleSet(scoring="none") if args.preset is None else RuleSet.preset(args.preset)
    views = positions(args.decisions, rules)
    worker = WorkerProcess("thinking", warm_up)
    worker.start()
    assert await worker.wait_ready(), "the worker process did not start"
    results: dict[str, list[float]] = {"thread": [], "process": []}
    try:
        for _ in range(args.repeats):
            for mode in ("thread", "process"):
                results[mode] += await run(mode, views, worker)
    finally:
        await worker.close()
    for mode, late in results.items():
        q = statistics.quantiles(late, n=100)
        print(
            f"expert thinking in a {mode:7}: loop wakes late by p50 {q[49]:5.2f} ms, "
            f"p99 {q[98]:5.2f} ms, max {max(late):5.1f} ms ({len(late)} wake-ups)"
        )


if __name__ == "__main__":
    asyncio.run(main())
