"""Baseline for engine_throughput.py: rlcard's UNO environment, random agents, 2 players.

rlcard is not a dependency: run this with a Python that has it, e.g.
  python3 -m venv /tmp/rl && /tmp/rl/bin/pip install rlcard==1.2.0 numpy
  /tmp/rl/bin/python benchmarks/rlcard_baseline.py
Prints numbers; asserts nothing. Run both scripts back to back on an idle machine.
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(2)])
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        env.run(is_training=False)
        games += 1
    print(f"rlcard games/s: {games / (time.perf_counter() - start):.0f}")


if __name__ == "__main__":
    main()
