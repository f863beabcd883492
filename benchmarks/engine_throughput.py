"""Complete random-play rounds per second, and actions per second, on one core.

Each round is a whole round under the full rules (scoring, UNO window, challenges offered):
a random agent plays a random playable card, draws only when it has none, and takes random
decisions otherwise, like the random agents of RL toolkits. Prints numbers; asserts nothing.
Run: python benchmarks/engine_throughput.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time

from bot.engine import Game, RuleSet
from bot.engine import actions as A

HEAVY = RuleSet(
    deck="shuffle112",
    stacking="mixed",
    jump_in=True,
    seven_o=True,
    draw_until_playable=True,
    custom_effect="others_draw_2",
    false_catch_penalty=0,
    scoring="none",
)
OFFICIAL = RuleSet(scoring="none")


def random_round(players: int, rules: RuleSet, seed: int) -> int:
    """Play one round with random agents; returns the number of actions applied."""
    rng = random.Random(seed)
    game = Game.new(list(range(1, players + 1)), rules, seed=seed)
    actions = 0
    while not game.round_over:
        player = game.current_player
        legal = game.legal_actions(player)
        plays = [a for a in legal if type(a) is A.Play]
        if plays:
            action = rng.choice(plays)
        else:
            action = rng.choice([a for a in legal if type(a) is not A.Catch])
        game.apply(player, action)
        actions += 1
    return actions


def measure(players: int, rules: RuleSet, seconds: float) -> tuple[float, float]:
    rounds = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += random_round(players, rules, seed=rounds)
        rounds += 1
    elapsed = time.perf_counter() - start
    return rounds / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    two_player_official = 0.0
    for name, rules in (("official", OFFICIAL), ("heavy house rules", HEAVY)):
        for players in (2, 4):
            rounds, actions = measure(players, rules, args.seconds)
            print(
                f"{players} players, {name:18}: {rounds:9.0f} rounds/s  {actions:10.0f} actions/s"
            )
            if players == 2 and rules is OFFICIAL:
                two_player_official = rounds
    print(f"games/s: {two_player_official:.0f}")


if __name__ == "__main__":
    main()
