"""Two games that share players ending at the same moment both save, with exact totals.

A match-ending save adds the mover's counters, the round and the match to the totals in one unit
of work (as `cogs/uno/game/saving.py` does). On PostgreSQL those are row locks; taken in a different
order by two such units (each winner's row first, then everyone's), they deadlocked and one winner
was told "something went wrong". On PostgreSQL a barrier holds both units right after the
counters, the worst interleaving, every time; SQLite serialises its writers, so it runs them as
they come.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

from bot.store import Database, NewAction
from tests.store.conftest import CHANNEL, GUILD, new_running_game

BASE = 500_000_000_000_000_000
PLAYERS = {BASE + i: f"P{i}" for i in range(1, 5)}
TRIES = 12


async def _end_match(
    db: Database,
    game_id: int,
    winner: int,
    points: dict[int, int],
    cards: int,
    barrier: asyncio.Barrier | None,
) -> None:
    """The winning move's save: snapshot, counters, round and match, in one unit."""
    async with db.write() as unit:
        await unit.games.save_action(
            game_id, expected_version=1, state={"over": True}, actions=NewAction(2, "play")
        )
        await unit.stats.add_counters(game_id, {winner: {"cards_played": cards}})
        if barrier is not None:
            await asyncio.wait_for(barrier.wait(), 10)
        await unit.games.finish_round(game_id, 1, winner_id=winner, points=points)
        await unit.games.finish(game_id, winner_id=winner)


async def test_two_games_sharing_players_end_together(db: Database) -> None:
    rng = random.Random(5)
    expected: dict[int, Counter[str]] = {user: Counter() for user in PLAYERS}
    for attempt in range(TRIES):
        shared = rng.sample(sorted(PLAYERS), 2)
        others = [user for user in PLAYERS if user not in shared]
        endings: list[tuple[int, int, dict[int, int], int]] = []
        for table, (winner, extra) in enumerate(((shared[0], others[0]), (shared[1], others[1]))):
            seated = [*shared, extra]
            game = await new_running_game(
                db,
                {user: PLAYERS[user] for user in seated},
                channel_id=CHANNEL + 10 * attempt + table,
            )
            points = {user: rng.randrange(1, 200) if user == winner else 0 for user in seated}
            cards = rng.randrange(1, 30)
            endings.append((game.id, winner, points, cards))
            for user in seated:
                expected[user].update(
                    rounds_played=1,
                    games_played=1,
                    points=points[user],
                    rounds_won=int(user == winner),
                    games_won=int(user == winner),
                    cards_played=cards if user == winner else 0,
                )
        barrier = None if db.is_sqlite else asyncio.Barrier(2)
        results = await asyncio.gather(
            *(_end_match(db, *ending, barrier) for ending in endings), return_exceptions=True
        )
        failures = [r for r in results if isinstance(r, BaseException)]
        assert not failures, f"try {attempt + 1}: {failures!r}"
    async with db.read() as unit:
        for user in PLAYERS:
            stats = await unit.stats.player(GUILD, user)
            assert stats is not None
            got: dict[str, Any] = {key: getattr(stats, key) for key in expected[user]}
            assert got == dict(expected[user]), user
