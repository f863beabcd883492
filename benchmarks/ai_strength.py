"""Win rates of the computer players against `random` and against each other (2-player rounds).

Seats alternate every round so neither side keeps the first move; each line gives the win rate
of the first player named with a 95% Wilson interval. Prints numbers; asserts nothing.
Run: python benchmarks/ai_strength.py [--rounds 10000]
"""

from __future__ import annotations

import argparse
import math
import time

from bot.engine import Game, RuleSet
from bot.engine.ai import Player, make_player
from bot.engine.view import view_for

RULES = RuleSet(scoring="none")
PAIRINGS = (
    ("hard", "random"),
    ("normal", "random"),
    ("easy", "random"),
    ("hard", "normal"),
    ("hard", "easy"),
    ("normal", "easy"),
)


def play_round(game: Game, players: dict[int, Player]) -> int:
    """Play one round to its end; returns the winner. Others may catch or call UNO any time."""
    while not game.round_over:
        if game.at_risk or game.rules.jump_in:
            for pid, player in players.items():
                if pid != game.current_player:
                    action = player.choose(view_for(game, pid))
                    if action is not None:
                        game.apply(pid, action)
                        break
            if game.round_over:
                break
        current = game.current_player
        assert current is not None
        action = players[current].choose(view_for(game, current))
        assert action is not None
        game.apply(current, action)
    assert game.round_outcome is not None and game.round_outcome.winner is not None
    return game.round_outcome.winner


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def match_up(first: str, second: str, rounds: int) -> tuple[int, float]:
    wins = 0
    start = time.perf_counter()
    for i in range(rounds):
        a, b = (1, 2) if i % 2 == 0 else (2, 1)  # alternate seats (and so who plays first)
        players = {a: make_player(first, seed=2 * i), b: make_player(second, seed=2 * i + 1)}
        game = Game.new([1, 2], RULES, seed=i, dealer=2)
        if play_round(game, players) == a:
            wins += 1
    return wins, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10_000)
    args = parser.parse_args()
    for first, second in PAIRINGS:
        wins, seconds = match_up(first, second, args.rounds)
        low, high = wilson(wins, args.rounds)
        rate = wins / args.rounds
        print(
            f"{first:>6} vs {second:<6}: {rate:6.1%} wins  (95% CI {low:.1%}-{high:.1%}, "
            f"{args.rounds} rounds, {seconds:.0f} s)"
        )


if __name__ == "__main__":
    main()
