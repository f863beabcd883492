"""rlcard's bare UNO engine under the same random policy as engine_throughput.py.

What is measured is rlcard's `UnoGame` loop itself, not its reinforcement-learning `env.run`
(whose numpy observations and trajectories take most of its time): `init_game`, then
`get_legal_actions` and `step` until `is_over`. The policy is ours: a random card when one is
playable, else draw. A round that has not ended after MAX_STEPS actions is cut off and counted.

rlcard is not a dependency of the bot. Install it into a venv used only for benchmarking:
  .venv/bin/pip install rlcard   (or a separate venv: python3 -m venv /tmp/rl, then
  /tmp/rl/bin/pip install rlcard -e . and run the scripts with /tmp/rl/bin/python)
Run alone:      .venv/bin/python benchmarks/rlcard_baseline.py [--seconds 5] [--players 2]
Side by side:   .venv/bin/python benchmarks/engine_throughput.py --versus-rlcard
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Protocol

MAX_STEPS = 10_000


class UnoGame(Protocol):
    """What is used of rlcard's `UnoGame` (rlcard is untyped, and optional)."""

    def init_game(self) -> object: ...

    def is_over(self) -> bool: ...

    def get_legal_actions(self) -> list[str]: ...

    def step(self, action: str) -> object: ...


def rlcard_round(game: UnoGame, rng: random.Random) -> int:
    """Play one round of an rlcard `UnoGame`; returns the number of actions applied."""
    game.init_game()
    actions = 0
    while not game.is_over() and actions < MAX_STEPS:
        legal = game.get_legal_actions()
        plays = [a for a in legal if a != "draw"]
        game.step(rng.choice(plays) if plays else "draw")
        actions += 1
    return actions


def new_rlcard_game(players: int, seed: int) -> UnoGame:
    import numpy as np
    from rlcard.games.uno.game import UnoGame as RlcardUnoGame

    game = RlcardUnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)
    made: UnoGame = game  # (rlcard ships no types: its class is Any to mypy)
    return made


def measure_rlcard(players: int, seconds: float, seed: int = 0) -> tuple[float, float]:
    """Rounds per second and actions per second of rlcard's bare engine for `seconds`."""
    game = new_rlcard_game(players, seed)
    rng = random.Random(seed)
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += rlcard_round(game, rng)
        rounds += 1
    elapsed = time.perf_counter() - start
    return rounds / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    rounds, actions = measure_rlcard(args.players, args.seconds)
    print(f"rlcard UnoGame, {args.players} players: {rounds:.0f} rounds/s  {actions:.0f} actions/s")


if __name__ == "__main__":
    main()
