"""How good the expert's single decisions are, far cheaper than whole rounds: regret against
oracle values.

Positions are taken from hard-vs-hard rounds (each real choice kept with probability 0.12).
For each, every candidate move is played out `--oracle` times from the TRUE table (the hidden
hands as they are, the draw pile reshuffled each time; full playouts with `fast_move`), which
gives its value. A player's regret is the mean of best value - value of its choice. Oracle noise
puts a floor under every regret (about 3% with 1000 oracle playouts), but the positions are
the same for every setting, so differences of 0.2-0.3% show; about 16 choices a round turn a
0.3% gain per choice into some 4-5% of rounds won. Whole rounds (ai_strength.py) confirm.

  .venv/bin/python benchmarks/expert_regret.py build --positions 500 --oracle 1000 --out o2.pkl
  .venv/bin/python benchmarks/expert_regret.py score o2.pkl --set horizon=20 --set confidence=0

Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import pickle
import random
import time
from typing import Any

from bot.engine import Game, RuleSet
from bot.engine import actions as A
from bot.engine import move_codes as M
from bot.engine.ai import HeuristicPlayer, make_player
from bot.engine.search import ExpertPlayer, _candidates, _with_uno, playout
from bot.engine.view import view_for

RULES = RuleSet(scoring="none")  # as in ai_strength.py
Position = tuple[dict[str, Any], int, list[A.Action], list[float]]


def collect(count: int, players: int, seed: int) -> list[tuple[Game, int]]:
    rng = random.Random(seed)
    out: list[tuple[Game, int]] = []
    ids = list(range(1, players + 1))
    r = 0
    while len(out) < count:
        game = Game.new(ids, RULES, seed=10_000 + 100_000 * seed + r, dealer=ids[-1])
        hards = {p: make_player("hard", seed=r * 10 + p) for p in ids}
        r += 1
        while not game.round_over:
            if game.at_risk:  # catches and UNO calls out of turn
                for pid in ids:
                    if pid != game.current_player:
                        action = hards[pid].choose(view_for(game, pid))
                        if action is not None:
                            game.apply(pid, action)
                            break
                if game.round_over:
                    break
            current = game.current_player
            assert current is not None
            view = view_for(game, current)
            real = len(_candidates(view.legal)) > 1 and A.CALL_UNO not in view.legal
            if real and rng.random() < 0.12:
                out.append((game.copy(), current))
            action = hards[current].choose(view)
            assert action is not None
            game.apply(current, action)
    return out[:count]


def oracle(game: Game, me: int, playouts: int, seed: int) -> tuple[list[A.Action], list[float]]:
    candidates = _candidates(view_for(game, me).legal)
    values = [0.0] * len(candidates)
    rng = random.Random(seed)
    for _ in range(playouts):
        luck = rng.getrandbits(32)
        base = game.copy()
        random.Random(luck).shuffle(base.pile)
        base.seed = luck
        for i, action in enumerate(candidates):
            sim = base.copy()
            sim.make_move(me, M.code_of(action, sim.seats))
            values[i] += playout(sim, me, random.Random(luck + 1))
    return candidates, [v / playouts for v in values]


def score(positions: list[Position], settings: dict[str, float], seed: int) -> None:
    start = time.perf_counter()
    regret = hard_regret = 0.0
    changed = 0
    for j, (data, me, candidates, values) in enumerate(positions):
        view = view_for(Game.from_dict(data), me)
        first = HeuristicPlayer("hard", random.Random(j)).choose(view)
        assert first is not None  # a position is a decision of the player to move
        hard = _with_uno(list(view.legal), first)
        prior = HeuristicPlayer("hard", random.Random(j)).choose
        expert = ExpertPlayer(rng=random.Random(j + 7777 * seed), prior=prior, budget=1e9)
        for name, value in settings.items():
            setattr(expert, name, type(getattr(expert, name))(value))
        choice = expert.choose(view)
        assert choice is not None
        best = max(values)
        regret += best - values[candidates.index(choice)]
        hard_regret += best - values[candidates.index(hard)] if hard in candidates else 0.0
        changed += choice != hard
    n = len(positions)
    print(
        f"{settings or 'defaults'} seed {seed}: regret {regret / n:.3%}"
        f" (hard {hard_regret / n:.3%}), {changed}/{n} choices differ from hard's,"
        f" {time.perf_counter() - start:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build")
    build.add_argument("--positions", type=int, default=500)
    build.add_argument("--oracle", type=int, default=1000)
    build.add_argument("--players", type=int, default=2)
    build.add_argument("--seed", type=int, default=1)
    build.add_argument("--out", required=True)
    run = sub.add_parser("score")
    run.add_argument("files", nargs="+")
    run.add_argument("--set", action="append", default=[], help="an ExpertPlayer field=value")
    run.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.command == "build":
        found = collect(args.positions, args.players, args.seed)
        rows: list[Position] = []
        for j, (game, me) in enumerate(found):
            candidates, values = oracle(game, me, args.oracle, j)
            rows.append((game.to_dict(), me, candidates, values))
        with open(args.out, "wb") as f:
            pickle.dump(rows, f)
        print(f"{len(rows)} positions written to {args.out}")
        return
    positions: list[Position] = []
    for name in args.files:
        with open(name, "rb") as f:
            positions += pickle.load(f)  # files this script wrote
    settings = dict(item.split("=", 1) for item in args.set)
    score(positions, {k: float(v) for k, v in settings.items()}, args.seed)


if __name__ == "__main__":
    main()
