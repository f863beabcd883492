"""The size and time of `/uno replay`: a 40-turn round and a long one, as the replay process
draws them (record built from its parts, replayed, every frame drawn, GIF encoded), then
through the bot's own replay process (`Drawing.replay`: pickling there and back, its start the
first time), and the same frames as animated WebP, the format not chosen.

    python benchmarks/replay.py [RUNS]

The rounds are played by seeded computer players ("normal", 4 seats) until one lasts exactly 40
turns; the long one is 10 seats of random legal moves (hundreds of turns, spread over
MAX_FRAMES frames). Prints median seconds of RUNS runs (default 5) and bytes; it measures, it
does not assert.
"""

from __future__ import annotations

import asyncio
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bot.engine import Game, RuleSet, view_for
from bot.engine import actions as A
from bot.engine import events as E
from bot.engine.ai import make_player
from bot.engine.record import build_record
from bot.ui.art.encode import warm_up
from bot.ui.art.replay import MAX_BYTES, frame_picture, plan_frames
from bot.ui.replay import replay_from_parts, round_states
from cogs.uno.drawing.renderer import Drawing

NAMES = ("Ann", "Benedikt", "Zoë", "Dan", "Anna", "Emo", "Eve", "Fay", "Gus", "Hal")


def play(seats: int, seed: int, chooser: str) -> tuple[dict[str, Any], int]:
    """One round played to its end: the parts of its record and its number of turns."""
    players = list(range(1, seats + 1))
    game, events = Game.start(players, RuleSet(scoring="none"), seed=seed)
    first_dealer = game.dealer
    rng = random.Random(seed)
    ais = {
        p: make_player(chooser, seed * 100 + p) if chooser != "random" else None for p in players
    }
    log: list[tuple[int, str]] = []
    revealed: dict[int, str] = {}
    results: dict[int, dict[str, Any]] = {}
    commitments = {e.round_number: e.commitment for e in events if isinstance(e, E.RoundStarted)}
    while not game.round_over:
        player = game.current_player
        assert player is not None
        ai = ais[player]
        if ai is None:
            legal = [a for a in game.legal_actions(player) if not isinstance(a, A.Catch)]
            action = rng.choice(legal)
        else:
            action = ai.choose(view_for(game, player)) or game.legal_actions(player)[0]
        for e in game.apply(player, action):
            if isinstance(e, E.RoundEnded):
                revealed[1] = e.seed
                results[1] = {"winner": e.outcome.winner, "points": dict(e.outcome.points)}
        log.append((player, action.code))
    parts = {
        "rules": game.rules.to_dict(),
        "players": [(p, NAMES[p - 1]) for p in players],
        "first_dealer": first_dealer,
        "actions": log,
        "commitments": commitments,
        "revealed": revealed,
        "results": results,
    }
    return parts, len(log)


def round_of(turns: int | None, seats: int, chooser: str) -> tuple[dict[str, Any], int]:
    """The first seeded round of exactly `turns` turns (None: the first one at all)."""
    for seed in range(1, 5000):
        parts, length = play(seats, seed, chooser)
        if turns is None or length == turns:
            return parts, length
    raise SystemExit(f"no round of {turns} turns")


def median_seconds(fn: Callable[..., object], runs: int) -> float:
    """The median seconds of `fn()` over `runs` calls (`...`: a caller's lambda binds its loop
    variable as a default argument)."""
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def webp(parts: dict[str, Any], **options: Any) -> tuple[float, int]:
    """The same frames as an animated WebP: seconds to encode, bytes."""
    states = round_states(build_record(**parts), 1)
    frames = plan_frames(states)
    turns = len(states) - 1
    pictures = [frame_picture(f, turns) for f in frames]
    began = time.perf_counter()
    buffer = io.BytesIO()
    pictures[0].save(
        buffer,
        format="WEBP",
        save_all=True,
        append_images=pictures[1:],
        duration=[f.ms for f in frames],
        loop=0,
        **options,
    )
    return time.perf_counter() - began, len(buffer.getvalue())


async def through_the_process(rounds: dict[str, dict[str, Any]]) -> None:
    drawing = Drawing()
    try:
        began = time.perf_counter()
        first_key = next(iter(rounds))
        await drawing.replay(("first", first_key), rounds[first_key], 1)
        print(f"  first replay, the process started for it: {time.perf_counter() - began:.2f} s")
        for name, parts in rounds.items():
            began = time.perf_counter()
            made = await drawing.replay(("again", name), parts, 1)
            took = time.perf_counter() - began
            print(f"  {name}: {took:.2f} s, {len(made.data) / 1e6:.2f} MB, {made.frames} frames")
    finally:
        await drawing.close()


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    warm_up()  # as the replay process does at its start
    rounds = {
        "40-turn round (4 seats)": round_of(40, 4, "normal"),
        "long round (10 seats, random moves)": round_of(None, 10, "random"),
    }
    print(f"Replay drawn in-process (median of {runs}; limit {MAX_BYTES / 1e6:.0f} MB):")
    for name, (parts, turns) in rounds.items():
        made = replay_from_parts(parts, 1)
        took = median_seconds(lambda p=parts: replay_from_parts(p, 1), runs)
        print(
            f"  {name}: {turns} turns -> {made.frames} frames, "
            f"{len(made.data) / 1e6:.2f} MB, {took:.2f} s"
        )
    print("Through the bot's replay process (Drawing.replay):")
    asyncio.run(through_the_process({n: p for n, (p, _) in rounds.items()}))
    print("The same frames as animated WebP (not chosen: see bot/ui/art/replay.py):")
    for name, (parts, _) in rounds.items():
        for label, options in (
            ("lossless, method 0", {"lossless": True, "method": 0}),
            ("lossy q80, method 4", {"quality": 80, "method": 4}),
        ):
            took, size = webp(parts, **options)
            print(f"  {name}, {label}: {size / 1e6:.2f} MB, encoded in {took:.2f} s")


if __name__ == "__main__":
    main()
