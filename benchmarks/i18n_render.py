"""What translating costs: microseconds per message lookup and per rendered table and hand.

A table edit and a hand answer each look up dozens of messages; plural forms (CLDR rules) and
number formats (Babel) are chosen per call. Prints numbers; asserts nothing.
Run: python benchmarks/i18n_render.py [--seconds 1]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bot.engine import Game, RuleSet
from bot.i18n import t
from bot.ui.hand_message import render_hand
from bot.ui.table_message import render_table

LOCALES = ("en", "de", "no", "es-419")


def per_call(work: Callable[..., object], seconds: float) -> float:
    """Microseconds per call of `work()`, run for about `seconds`.

    (`...`: the callers' lambdas bind their loop variable as a default argument.)"""
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(50):
            work()
        calls += 50
    return elapsed / calls * 1e6


def mid_game(seed: int = 7) -> tuple[Game, dict[int, str]]:
    players = [1, 2, 3, 4]
    game = Game.new(players, RuleSet(), seed=seed)
    rng = random.Random(seed)
    for _ in range(40):
        player = game.current_player
        if player is None:
            break
        game.apply(player, rng.choice(game.legal_actions(player)))
    return game, {p: f"Player {p}" for p in players}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    seconds = parser.parse_args().seconds
    game, names = mid_game()
    viewer = game.seats[0]
    print(f"{'locale':8} {'plain µs':>9} {'counted µs':>11} {'table µs':>9} {'hand µs':>8}")
    for code in LOCALES:
        plain = per_call(lambda c=code: t("table.draw", c), seconds)
        counted = per_call(lambda c=code: t("hand.title", c, count=1500), seconds)
        table = per_call(lambda c=code: render_table(game, 1, names, c), seconds)
        hand = per_call(lambda c=code: render_hand(game, 1, viewer, names, c), seconds)
        print(f"{code:8} {plain:9.2f} {counted:11.2f} {table:9.1f} {hand:8.1f}")


if __name__ == "__main__":
    main()
