"""Complete random-play rounds per second, and actions per second, on one core.

Each round is a whole round under the full rules with standard scoring (points counted, UNO
window, challenges offered; rounds follow each other in matches to 500 points, as at a table:
dealing the next round is not counted as an action), played on the engine's simulation path:
`Game.moves(player)` (the legal moves as integers) and `Game.make_move(player, move)` (checked
against them, no events).
The `no_mercy` preset (Show 'Em No Mercy) and the `flip` preset (UNO Flip, its flips included)
are measured beside the official rules and the heavy house rules. `--actions` plays through
the readable API instead (`legal_actions`, `apply` with events).
The random policy plays a random playable card, draws only when it has
none, and takes random decisions otherwise (colours, accept or challenge), like the random
agents of RL toolkits; it never calls UNO or catches.

  .venv/bin/python benchmarks/engine_throughput.py [--seconds 3]
  .venv/bin/python benchmarks/engine_throughput.py --versus-rlcard [--seconds 10 --repeats 20]

`--versus-rlcard` runs rlcard's bare `UnoGame` loop (rlcard_baseline.py, same policy) and ours
interleaved in this one process (A B A B ...) and prints the ratios of rounds/s and actions/s,
2 and 4 players, official rules; rlcard must be installed (see rlcard_baseline.py).
Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.engine_phases import play_out
from bot.engine import Game, RuleSet
from bot.engine import actions as A
from bot.engine import move_codes as M

HEAVY = RuleSet(
    deck="shuffle112",
    stacking="mixed",
    jump_in=True,
    seven_o=True,
    draw_until_playable=True,
    custom_effect="others_draw_2",
)
OFFICIAL = RuleSet()
#: Show 'Em No Mercy (168 cards, the mercy rule; one round per match).
NO_MERCY = RuleSet.preset("no_mercy")
#: UNO Flip (112 two-sided cards, to 500 points).
FLIP = RuleSet.preset("flip")
DRAW, CALL_UNO, CATCH, NEXT_ROUND = M.DRAW, M.CALL_UNO, M.CATCH, M.NEXT_ROUND
_NOT_MOVES = (A.Catch, A.CallUno)


def next_round(game: Game | None, players: int, rules: RuleSet, seed: int) -> Game:
    """The match's next round dealt (a new match once one is over), as a match is played."""
    if game is None or game.outcome is not None:
        return Game.new(list(range(1, players + 1)), rules, seed=seed)
    game.make_move(game.players[0], NEXT_ROUND)
    return game


def random_round(game: Game, rng: random.Random) -> int:
    """Play the dealt round with random agents on the simulation path; returns the actions
    (engine_phases.py's policy, which it plays on other revisions' engines too)."""
    return play_out(game, rng, DRAW, CALL_UNO, CATCH)


def random_round_actions(game: Game, rng: random.Random) -> int:
    """The same policy through the readable API, events recorded (what the bot does)."""
    actions = 0
    while not game.round_over:
        player = game.current_player
        assert player is not None  # someone is to move until the round is over
        legal = game.legal_actions(player)
        plays: list[A.Action] = [a for a in legal if type(a) is A.Play]
        if plays:
            action = rng.choice(plays)
        else:
            action = rng.choice([a for a in legal if type(a) not in _NOT_MOVES])
        game.apply(player, action)
        actions += 1
    return actions


def measure(
    players: int, rules: RuleSet, seconds: float, seed: int = 0, *, readable: bool = False
) -> tuple[float, float]:
    """Rounds per second and actions per second for `seconds`."""
    rng = random.Random(seed)
    play = random_round_actions if readable else random_round
    rounds = actions = 0
    game = None
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = next_round(game, players, rules, seed + rounds)
        actions += play(game, rng)
        rounds += 1
    elapsed = time.perf_counter() - start
    return rounds / elapsed, actions / elapsed


def alone(seconds: float, readable: bool) -> None:
    for name, rules in (
        ("official", OFFICIAL),
        ("heavy house rules", HEAVY),
        ("no_mercy", NO_MERCY),
        ("flip", FLIP),
    ):
        for players in (2, 4):
            rounds, actions = measure(players, rules, seconds, readable=readable)
            print(f"{players} players, {name:17}: {rounds:7.0f} rounds/s  {actions:8.0f} actions/s")


def versus_rlcard(seconds: float, repeats: int) -> None:
    """Both engines in turns of `seconds / repeats` (A B A B ...), so both see the same load."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.rlcard_baseline import measure_rlcard

    slice_ = seconds / repeats
    for players in (2, 4):
        ours_r = ours_a = theirs_r = theirs_a = 0.0
        for k in range(repeats):
            r, a = measure(players, OFFICIAL, slice_, seed=100_000 * k)
            ours_r, ours_a = ours_r + r, ours_a + a
            r, a = measure_rlcard(players, slice_, seed=k)
            theirs_r, theirs_a = theirs_r + r, theirs_a + a
        print(
            f"{players} players, official: ours {ours_r / repeats:5.0f} rounds/s "
            f"{ours_a / repeats:6.0f} actions/s | rlcard UnoGame {theirs_r / repeats:5.0f} "
            f"rounds/s {theirs_a / repeats:6.0f} actions/s | ratio: rounds/s "
            f"{ours_r / theirs_r:.2f}x, actions/s {ours_a / theirs_a:.2f}x"
        )
    for players in (2, 4):
        rounds, actions = measure(players, HEAVY, seconds)
        print(f"{players} players, heavy house rules: {rounds:5.0f} rounds/s", end=" ")
        print(f"{actions:6.0f} actions/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="per engine and setting")
    parser.add_argument("--repeats", type=int, default=10, help="A B turns with --versus-rlcard")
    parser.add_argument("--versus-rlcard", action="store_true")
    parser.add_argument("--actions", action="store_true", help="the readable API, with events")
    args = parser.parse_args()
    if args.versus_rlcard:
        versus_rlcard(args.seconds, args.repeats)
    else:
        alone(args.seconds, args.actions)


if __name__ == "__main__":
    main()
