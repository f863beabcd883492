"""The engine's simulation path counted in bytecodes, per engine function: the same numbers on
every run, whatever the machine's load.

engine_phases.py times the path side by side with other revisions, but this shared machine's
noise is about as large as the regressions worth catching (issue 35's per action was 3-4%).
Counting the bytecodes executed is exact: the same seeds play the same rounds, so a revision's
count per action moves only when its code does, and the functions whose counts moved say where.
(A bytecode is not a fixed time, a big integer's AND or a call costs more than a jump, so read
it beside engine_phases.py's ratios: it finds the change, the timing says what it is worth.)

  .venv/bin/python benchmarks/engine_bytecodes.py                       # this engine
  .venv/bin/python benchmarks/engine_bytecodes.py --baseline 813e392    # beside a revision

Each `--baseline REV` is checked out into a temporary worktree (baseline.py). Rounds as
engine_phases.py plays them (official rules, the random policy, each round from `Game.new` with
its own seed), once to warm the engine's caches and once counted; only the actions are counted
(`moves` then `make_move`), not the deal. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from contextlib import ExitStack
from pathlib import Path
from types import FrameType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.engine_phases import Engine, load_engines, play_out


def count(engine: Engine, players: int, rounds: int) -> tuple[int, Counter[str]]:
    """Play `rounds` rounds; the actions taken and the bytecodes each engine function ran."""
    package = engine.game.__module__.split(".")[0]
    counts: Counter[str] = Counter()

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            module = frame.f_globals.get("__name__", "")
            if module.startswith(f"{package}.engine"):
                counts[f"{module.rsplit('.', 1)[-1]}.{code.co_name}"] += 1
        return trace

    seats = list(range(1, players + 1))
    draw, call_uno, catch = engine.draw, engine.call_uno, engine.catch
    actions = 0
    # The rounds twice, the second time counted: the engine's caches (legality.py's moves by
    # playable mask) are then as warm as a long simulation's, whatever ran before.
    for traced in (False, True):
        rng = random.Random(players)
        for seed in range(rounds):
            game = engine.game.new(seats, engine.rules, seed=seed)
            if traced:
                sys.settrace(trace)
            try:
                played = play_out(game, rng, draw, call_uno, catch)
            finally:
                sys.settrace(None)
            actions += played if traced else 0
    return actions, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--baseline", action="append", default=[], help="a revision or checkout")
    parser.add_argument("--rounds", type=int, default=1500, help="rounds per player count")
    parser.add_argument("--top", type=int, default=12, help="functions listed")
    args = parser.parse_args()
    with ExitStack() as stack:
        engines = load_engines(stack, args.baseline)
        for players in (2, 4):
            results = {label: count(engine, players, args.rounds) for label, engine in engines}
            per_action = {
                label: {name: n / actions for name, n in counts.items()}
                for label, (actions, counts) in results.items()
            }
            for label, (actions, counts) in results.items():
                print(
                    f"{players} players, {label:8}: {sum(counts.values()) / actions:6.1f} "
                    f"bytecodes per action ({actions} actions)"
                )
            names = sorted(
                {name for table in per_action.values() for name in table},
                key=lambda name: -max(table.get(name, 0.0) for table in per_action.values()),
            )
            if len(engines) > 1:  # the functions whose counts moved most, first
                this = per_action["this"]
                names.sort(
                    key=lambda name: (
                        -max(
                            abs(this.get(name, 0.0) - table.get(name, 0.0))
                            for table in per_action.values()
                        )
                    )
                )
            header = " ".join(f"{label:>9}" for label, _ in engines)
            print(f"  {header}  per action, by function")
            for name in names[: args.top]:
                row = " ".join(f"{per_action[label].get(name, 0.0):9.2f}" for label, _ in engines)
                print(f"  {row}  {name}")


if __name__ == "__main__":
    main()
