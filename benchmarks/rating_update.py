"""The cost of rating a match: openskill's Plackett-Luce update alone, and the store's whole
rating step of a match's final save (`RatingRepository.rate_match`) on a SQLite file.

    python benchmarks/rating_update.py [MATCHES]

Prints microseconds per match for 2, 4 and 10 players: the model, the store's statements inside
a transaction (what the rating adds to a final save), and that step alone with its own commit.
It measures, it does not assert.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from bot.engine.rules import RuleSet
from bot.store import Database
from bot.store.rating_model import MU, SIGMA, rate

GUILD, CHANNEL = 1 << 50, 1 << 51


def model_only(players: int, matches: int) -> float:
    before = {p: (MU, SIGMA) for p in range(1, players + 1)}
    places = {p: p for p in before}
    started = time.perf_counter()
    for _ in range(matches):
        before = rate(before, places)
    return (time.perf_counter() - started) / matches * 1e6


async def store_step(players: int, matches: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        db = Database.from_url(f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}")
        await db.migrate()
        people = {p: f"P{p}" for p in range(1, players + 1)}
        games = []
        for n in range(matches):  # the matches exist first: only the rating step is timed
            async with db.write() as unit:
                game = await unit.games.open_lobby(
                    guild_id=GUILD,
                    channel_id=CHANNEL + n,
                    host_id=1,
                    host_name="P1",
                    rules=RuleSet(),
                )
                for p in list(people)[1:]:
                    await unit.games.seat(game.id, p, people[p])
                games.append(game.id)
        places = {p: p for p in people}
        inside = whole = 0.0
        for game_id in games:
            started = time.perf_counter()
            async with db.write() as unit:
                await unit.settings.get_value("bench")  # the write unit begun, as in a save
                step = time.perf_counter()
                await unit.ratings.rate_match(game_id, places, people)
                inside += time.perf_counter() - step
            whole += time.perf_counter() - started
        await db.close()
    return inside / matches * 1e6, whole / matches * 1e6


async def main(matches: int) -> None:
    for players in (2, 4, 10):
        model = model_only(players, matches * 10)
        inside, whole = await store_step(players, matches)
        print(
            f"{players:>2} players: openskill update {model:7.1f} us/match; in the final save "
            f"(SQLite, statements only) {inside:7.1f} us/match; "
            f"alone in a transaction with its commit {whole:7.1f} us/match"
        )


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
