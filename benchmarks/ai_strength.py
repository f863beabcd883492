"""How strong the computer players are: win rates head to head, with 95% Wilson intervals.

Each line gives the share of rounds the first player named wins against the second (official
rules, one round each, no points), seats alternated every round so neither keeps the first move,
and each deal played from every seat.
With `--players 4` the first player sits against three of the second (seats rotated; its fair
share is 25%). For the `expert` the seconds per decision (p50, p99) are printed beside the win
rate: over all its decisions, and over those it searched (a forced decision costs nothing). Its
budget is its playouts; its time cap is off unless `--budget`, so the win rates do not depend on
the machine's load (the times do: measure them on a quiet machine).

  .venv/bin/python benchmarks/ai_strength.py [--rounds 2000] [--workers 2]   # the whole table
  .venv/bin/python benchmarks/ai_strength.py --pair expert hard --rounds 2000 --workers 2
  .venv/bin/python benchmarks/ai_strength.py --pair expert hard --players 4 --rounds 1000
  .venv/bin/python benchmarks/ai_strength.py --preset no_mercy --rounds 1000   # Show 'Em No Mercy
  .venv/bin/python benchmarks/ai_strength.py --preset flip --rounds 1000       # UNO Flip

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from bot.engine import Game, RuleSet
from bot.engine import actions as A
from bot.engine.ai import Player, make_player
from bot.engine.view import PlayerView, view_for

RULES = RuleSet(scoring="none")
TABLE = (
    ("easy", "random"),
    ("normal", "easy"),
    ("hard", "normal"),
    ("hard", "easy"),
    ("expert", "hard"),
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


class Timed:
    """A player whose decisions on its own turn are timed (searched ones apart)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.seconds: list[float] = []
        self.searched: list[float] = []

    def choose(self, view: PlayerView) -> A.Action | None:
        start = time.perf_counter()
        action = self.player.choose(view)
        elapsed = time.perf_counter() - start
        if view.my_turn:
            self.seconds.append(elapsed)
            if getattr(self.player, "last_samples", 0):
                self.searched.append(elapsed)
        return action


Job = tuple[str, str, int, int, int, dict[str, float], str | None]


def _player(kind: str, seed: int, expert: dict[str, float]) -> Player:
    player = make_player(kind, seed=seed)
    if hasattr(player, "budget"):
        # The expert's time cap is the bot's safety net: off here (unless --budget), so the
        # same seeds give the same answer however busy the machine is.
        player.budget = 1e9
    for name, value in expert.items():  # --budget, --playouts, ...: the expert's settings
        if hasattr(player, name):
            setattr(player, name, value)
    return player


def _chunk(args: Job) -> tuple[int, list[float], list[float]]:
    """Rounds `start`..`stop` of a pairing: wins of the first player, and its decision times."""
    first, second, players, start, stop, expert, preset = args
    rules = RULES if preset is None else RuleSet.preset(preset)
    wins = 0
    seconds: list[float] = []
    searched: list[float] = []
    ids = list(range(1, players + 1))
    for i in range(start, stop):
        seat = ids[i % players]  # the first player's seat rotates
        timed = Timed(_player(first, 7919 * i, expert))
        table: dict[int, Player] = {
            p: timed if p == seat else _player(second, 7919 * i + p, expert) for p in ids
        }
        # Each deal is played once from every seat (duplicate, as in bridge): the luck of the
        # deal cancels out of the total, which narrows the true spread (the Wilson interval,
        # which assumes independent rounds, stays on the safe side).
        game = Game.new(ids, rules, seed=i // players, dealer=ids[-1])
        wins += play_round(game, table) == seat
        seconds += timed.seconds
        searched += timed.searched
    return wins, seconds, searched


def match_up(
    first: str,
    second: str,
    rounds: int,
    players: int = 2,
    workers: int = 1,
    expert: dict[str, float] | None = None,
    preset: str | None = None,
) -> tuple[int, list[float], list[float], float]:
    chunks = max(1, workers * 4)
    bounds = [rounds * k // chunks for k in range(chunks + 1)]
    settings = expert or {}
    jobs = [
        (first, second, players, bounds[k], bounds[k + 1], settings, preset) for k in range(chunks)
    ]
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            results = list(pool.map(_chunk, jobs))
    else:
        results = [_chunk(job) for job in jobs]
    wins = sum(r[0] for r in results)
    seconds = [s for r in results for s in r[1]]
    searched = [s for r in results for s in r[2]]
    return wins, seconds, searched, time.perf_counter() - start


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def _percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "-"
    q = statistics.quantiles(values, n=100)
    return f"p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms"


def report(
    first: str,
    second: str,
    rounds: int,
    players: int,
    workers: int,
    expert: dict[str, float],
    preset: str | None = None,
) -> None:
    wins, seconds, searched, elapsed = match_up(
        first, second, rounds, players, workers, expert, preset
    )
    low, high = wilson(wins, rounds)
    against = second if players == 2 else f"{players - 1}x {second}"
    line = (
        f"{first:>6} vs {against:<8}: {wins / rounds:6.1%} wins (95% CI {low:.1%}-{high:.1%}, "
        f"{rounds} rounds, {elapsed:.0f} s)"
    )
    if first == "expert":
        line += f"; per decision {_percentiles(seconds)}; searched {_percentiles(searched)}"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1, help="processes (2 on this machine)")
    parser.add_argument("--pair", nargs=2, metavar=("FIRST", "SECOND"))
    parser.add_argument("--budget", type=float, help="the expert's time cap (default: none)")
    parser.add_argument("--playouts", type=int, help="the expert's playouts per decision")
    parser.add_argument("--horizon", type=int, help="the expert's moves before a playout is scored")
    parser.add_argument("--confidence", type=float, help="the expert's ExpertPlayer.confidence")
    parser.add_argument(
        "--preset", help="a rule preset instead of the official rules (no_mercy, flip)"
    )
    args = parser.parse_args()
    expert = {
        name: getattr(args, name)
        for name in ("budget", "playouts", "horizon", "confidence")
        if getattr(args, name) is not None
    }
    pairs = [tuple(args.pair)] if args.pair else TABLE
    for first, second in pairs:
        report(first, second, args.rounds, args.players, args.workers, expert, args.preset)


if __name__ == "__main__":
    main()
