"""Computer players that think (the expert searches for tens of milliseconds of pure Python per
decision) choose in a worker process (workers.py), so their thinking never holds the
interpreter lock against the event loop that answers everyone else.

A decision is `decide(level, seed, view)`: a fresh player of that level, seeded from the game,
the seat and the game's version, choosing from the seat's own view. Nothing else crosses over,
and the expert's budget counts playouts, not seconds, so the process and the thread that stands
in for it choose alike, and a game resumed after a restart is played on as it would have been.
The process starts the first time it is needed: a bot whose servers never seat an expert never
pays for it. A decision has a deadline (`DEADLINE`): a late one is the `hard` player's choice,
made here (a heuristic: tens of microseconds), so a stuck process never holds a game.
"""

from __future__ import annotations

import logging

from bot.engine import Action, Game, PlayerView, view_for
from bot.engine.ai import make_player
from cogs.uno.workers import WorkerLate, WorkerProcess

log = logging.getLogger(__name__)

#: Seconds a decision may take in the process. The expert's budget is 150 ms of search; its
#: slowest decisions, with pickling both ways and a busy machine, stay well under a second.
#: Later than this the process is stuck, not thinking, and the game moves on with `FALLBACK`.
DEADLINE = 1.5
#: The level whose choice stands in for a late decision (the expert's own prior).
FALLBACK = "hard"


def decide(level: str, seed: int, view: PlayerView) -> Action | None:
    """What a `level` computer seeded with `seed` does from `view` (runs in the worker)."""
    return make_player(level, seed).choose(view)


def decision_seed(game_id: int, player: int, version: int) -> int:
    """One seed per decision: the same game, seat and moment always think alike."""
    return (game_id * 1_000_003 + player) * 1_000_003 + version


def warm_up() -> str:
    """Import the engine and think once, so the first real decision is not the slow one."""
    game = Game.new([1, 2], seed=0)
    player = game.current_player
    assert player is not None
    decide("expert", 0, view_for(game, player))
    return "engine loaded"


THINKING = WorkerProcess("thinking", warm_up)


async def think(level: str, seed: int, view: PlayerView) -> Action | None:
    """`decide` in the worker process (started now if it is not yet; a thread meanwhile); the
    `FALLBACK` level's choice, made here, if it is not there within `DEADLINE` seconds."""
    THINKING.start()
    try:
        return await THINKING.run(decide, level, seed, view, deadline=DEADLINE)
    except WorkerLate:
        log.warning("%s decision late (over %g s): %s chooses", level, DEADLINE, FALLBACK)
        return decide(FALLBACK, seed, view)
