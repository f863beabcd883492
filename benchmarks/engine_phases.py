"""The engine's simulation path in phases, side by side with other revisions' engines.

What a simulation pays for, measured apart: `Game.new` (a match set up and its first round
dealt: the seed, the shuffle, the hands, the starter), one action (`moves` then `make_move`,
under the random policy of engine_throughput.py) and a whole round (the deal plus its actions).
Each `--baseline REV` is checked out into a temporary worktree (benchmarks/baseline.py) and its
`bot/engine` imported beside this one, in the same process, under another package name; all
are measured in turns (A B C A B C ...), so all see the same load. Read the ratios it prints
(a baseline's time / this engine's time: below 1, this engine is slower), not the µs, which
move with the machine's load. `--rlcard` adds rlcard's bare `UnoGame` (rlcard_baseline.py) to
the turns and prints each engine's speed against it, the deal spread over the actions too (as
actions/s of engine_throughput.py --versus-rlcard count it).

This is the benchmark that shows a regression of the simulation path and where it is: the one
of issue 35 (813e392 -> 4f3990e) printed "Game.new 1.16-1.17, per action 1.00, per round 1.03"
for 4f3990e against the fixed engine, and 0.96 / 0.99 / 0.98 for 813e392 (docs/benchmarks.md).

  .venv/bin/python benchmarks/engine_phases.py                          # this engine alone
  .venv/bin/python benchmarks/engine_phases.py --baseline 813e392 [--seconds 20 --repeats 20]
  .venv/bin/python benchmarks/engine_phases.py --baseline 813e392 --baseline 4f3990e --rlcard

Official rules, standard scoring, 2 and 4 players; every round starts from `Game.new` with its
own seed (the same seeds for every engine). Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.baseline import baseline_checkout

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Engine:
    """One revision's engine: its `Game`, its `RuleSet` and the move codes the policy needs."""

    name: str
    game: Any  # that revision's bot.engine.Game (another revision's classes are not ours)
    rules: Any
    draw: int
    call_uno: int
    catch: int


def load_engine(root: Path, alias: str) -> Engine:
    """`root`'s bot.engine imported as the package `alias` (beside the bot imported here)."""
    if alias == "bot":
        package = importlib.import_module("bot")
    else:
        spec = importlib.util.spec_from_file_location(
            alias, root / "bot" / "__init__.py", submodule_search_locations=[str(root / "bot")]
        )
        assert spec is not None and spec.loader is not None
        package = importlib.util.module_from_spec(spec)
        sys.modules[alias] = package
        spec.loader.exec_module(package)
    engine = importlib.import_module(f"{alias}.engine")
    codes = _move_codes(alias)
    return Engine(
        name=str(root),
        game=engine.Game,
        rules=engine.RuleSet(),
        draw=codes.DRAW,
        call_uno=codes.CALL_UNO,
        catch=codes.CATCH,
    )


def load_engines(stack: ExitStack, baselines: list[str]) -> list[tuple[str, Engine]]:
    """This engine ("this") and each baseline's, labelled, their checkouts held by `stack`."""
    engines = [("this", load_engine(ROOT, "bot"))]
    for k, baseline in enumerate(baselines):
        other = stack.enter_context(baseline_checkout(baseline))
        engines.append((Path(baseline).name[:8], load_engine(other, f"baseline_bot_{k}")))
    return engines


def _move_codes(alias: str) -> ModuleType:
    try:
        return importlib.import_module(f"{alias}.engine.move_codes")
    except ModuleNotFoundError:  # revisions before the rename (d28b4bc)
        return importlib.import_module(f"{alias}.engine.moves")


@dataclass
class Phases:
    """Totals of one engine's turns: seconds in `Game.new` and in actions, rounds, actions."""

    new_seconds: float = 0.0
    action_seconds: float = 0.0
    rounds: int = 0
    actions: int = 0

    @property
    def new_us(self) -> float:
        return 1e6 * self.new_seconds / self.rounds

    @property
    def action_us(self) -> float:
        return 1e6 * self.action_seconds / self.actions

    @property
    def round_us(self) -> float:
        return 1e6 * (self.new_seconds + self.action_seconds) / self.rounds


def measure(engine: Engine, players: int, seconds: float, seed: int, into: Phases) -> None:
    """Deal and play rounds for about `seconds`, adding the time of each phase to `into`."""
    new, rules, draw, call_uno, catch = (
        engine.game.new,
        engine.rules,
        engine.draw,
        engine.call_uno,
        engine.catch,
    )
    seats = list(range(1, players + 1))
    rng = random.Random(seed)
    clock = time.perf_counter
    end = clock() + seconds
    while clock() < end:
        for _ in range(20):  # (the clock is read per phase, the deadline per 20 rounds)
            t0 = clock()
            game = new(seats, rules, seed=seed)
            t1 = clock()
            seed += 1
            actions = play_out(game, rng, draw, call_uno, catch)
            t2 = clock()
            into.new_seconds += t1 - t0
            into.action_seconds += t2 - t1
            into.rounds += 1
            into.actions += actions


def play_out(game: Any, rng: random.Random, draw: int, call_uno: int, catch: int) -> int:
    """Play `game`'s round to its end by the random policy (a random play when there is one,
    else a random other move but calling UNO and catching); the actions taken."""
    actions = 0
    player = game.current_player
    while player is not None:
        legal = game.moves(player)
        plays = [m for m in legal if m < draw]
        if plays:
            move = rng.choice(plays)
        else:
            move = rng.choice([m for m in legal if m != call_uno and m < catch])
        player = game.make_move(player, move)
        actions += 1
    return actions


def measure_rlcard(players: int, seconds: float, seed: int, into: Phases) -> None:
    """The same for rlcard's bare `UnoGame` (rlcard_baseline.py): `init_game` is its deal."""
    from benchmarks.rlcard_baseline import MAX_STEPS, new_rlcard_game

    game = new_rlcard_game(players, seed)
    rng = random.Random(seed)
    clock = time.perf_counter
    end = clock() + seconds
    while clock() < end:
        for _ in range(20):
            t0 = clock()
            game.init_game()
            t1 = clock()
            actions = 0
            while not game.is_over() and actions < MAX_STEPS:
                legal = game.get_legal_actions()
                plays = [a for a in legal if a != "draw"]
                game.step(rng.choice(plays) if plays else "draw")
                actions += 1
            t2 = clock()
            into.new_seconds += t1 - t0
            into.action_seconds += t2 - t1
            into.rounds += 1
            into.actions += actions


def report(players: int, label: str, phases: Phases) -> None:
    print(
        f"{players} players, {label:8}: Game.new {phases.new_us:6.1f} µs | per action "
        f"{phases.action_us:5.2f} µs | per round {phases.round_us:6.1f} µs "
        f"({phases.actions / phases.rounds:.1f} actions)"
    )


def _per_action_dealt(phases: Phases) -> float:
    """µs per action with the deal spread over the round's actions (what actions/s counts)."""
    return 1e6 * (phases.new_seconds + phases.action_seconds) / phases.actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--baseline",
        action="append",
        default=[],
        help="a git revision or checkout to run side by side (may be given more than once)",
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="per engine and setting")
    parser.add_argument("--repeats", type=int, default=10, help="A B turns with --baseline")
    parser.add_argument(
        "--rlcard", action="store_true", help="rlcard's bare UnoGame in the turns too"
    )
    args = parser.parse_args()
    with ExitStack() as stack:
        engines = load_engines(stack, args.baseline)
        slice_ = args.seconds / args.repeats
        for players in (2, 4):
            totals = {label: Phases() for label, _ in engines}
            rlcard = Phases()
            for k in range(args.repeats):
                for label, engine in engines:
                    measure(engine, players, slice_, 1_000_000 * k, totals[label])
                if args.rlcard:
                    measure_rlcard(players, slice_, k, rlcard)
            for label, _ in engines:
                report(players, label, totals[label])
            if args.rlcard:
                report(players, "rlcard", rlcard)
                for label, _ in engines:
                    phases = totals[label]
                    print(
                        f"{players} players, {label} against rlcard: actions/s "
                        f"{rlcard.action_us / phases.action_us:.2f}x, rounds/s "
                        f"{rlcard.round_us / phases.round_us:.2f}x (deal included: actions/s "
                        f"{_per_action_dealt(rlcard) / _per_action_dealt(phases):.2f}x)"
                    )
            ours = totals["this"]
            for label, _ in engines[1:]:
                theirs = totals[label]
                print(
                    f"{players} players, {label} time / this time: Game.new "
                    f"{theirs.new_us / ours.new_us:.2f} | per action "
                    f"{theirs.action_us / ours.action_us:.2f} | per round "
                    f"{theirs.round_us / ours.round_us:.2f}"
                )


if __name__ == "__main__":
    main()
