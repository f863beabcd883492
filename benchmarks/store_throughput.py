"""How fast the store saves game actions: throughput and the latency of one versioned save.

A save is what every click costs: one write unit of work holding the version-checked UPDATE of a
real engine snapshot (`Game.to_dict()`, four players: ~5 KB of JSON) and one action-log row,
committed (durable once it returns). With --unit play the unit also adds the card to the player's
counters, as the bot did for every card played; --unit click is what the bot does now: the same
rows through `Database.save_click` (no ORM session). On a fresh SQLite file (or --url), for each
number of concurrent games:

* saturated: every game saves again as soon as its last save returned: actions saved per second;
* paced: every game saves at random (Poisson) moments, on average once per --think-ms: the
  latency players would see at that load.

Latency is measured from asking for the unit of work to its commit, queueing included. "cpu ms"
is the process's CPU time per save, which other programs on the machine do not inflate. On
SQLite a first line gives the floor: the same two statements through the bare sqlite3 module.
Run: python benchmarks/store_throughput.py [--games 1 10 100] [--seconds 5] [--unit save|play|click]
[--url URL]. It prints numbers; it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Game, RuleSet
from bot.store import ClickSave, Database, NewAction, open_database

GUILD = 900_000_000_000_000_000
PLAYERS = [GUILD + 1, GUILD + 2, GUILD + 3, GUILD + 4]


class Table:
    """One running game as the benchmark drives it: its id, snapshot and version."""

    def __init__(self, game_id: int, state: dict[str, Any]) -> None:
        self.game_id = game_id
        self.state = state
        self.version: int = state["version"]

    async def save(self, db: Database, *, unit: str = "save") -> float:
        """Save one action (and count the card played, if asked); returns its latency in s."""
        version = self.version + 1
        state = {**self.state, "version": version, "turn": version % len(PLAYERS)}
        player = PLAYERS[version % len(PLAYERS)]
        began = time.perf_counter()
        action = NewAction(version, "play:R7", player)
        if unit == "click":
            await db.save_click(
                ClickSave(
                    game_id=self.game_id,
                    guild_id=GUILD,
                    expected_version=self.version,
                    state=state,
                    actions=[action],
                    counters={player: {"cards_played": 1}},
                    names={player: f"P{player - GUILD}"},
                )
            )
        else:
            async with db.write() as work:
                await work.games.save_action(
                    self.game_id, expected_version=self.version, state=state, actions=action
                )
                if unit == "play":
                    await work.stats.add_counters(self.game_id, {player: {"cards_played": 1}})
        elapsed = time.perf_counter() - began
        self.state, self.version = state, version
        return elapsed


def snapshot(seed: int) -> dict[str, Any]:
    return Game.new(PLAYERS, RuleSet(), seed=seed).to_dict()


async def open_tables(db: Database, count: int, first_channel: int) -> list[Table]:
    tables = []
    for index in range(count):
        state = snapshot(first_channel + index)
        async with db.write() as unit:
            lobby = await unit.games.open_lobby(
                guild_id=GUILD,
                channel_id=first_channel + index,
                host_id=PLAYERS[0],
                host_name="P0",
                rules=RuleSet(),
            )
            for number, player in enumerate(PLAYERS[1:], 1):
                await unit.games.seat(lobby.id, player, f"P{number}")
            await unit.games.start(lobby.id, state=state, version=state["version"])
        tables.append(Table(lobby.id, state))
    return tables


async def drive(
    db: Database, table: Table, until: float, think: float, unit: str, latencies: list[float]
) -> None:
    loop = asyncio.get_running_loop()
    while True:
        if think:
            await asyncio.sleep(min(random.expovariate(1 / think), until - loop.time()))
        if loop.time() >= until:
            return
        latencies.append(await table.save(db, unit=unit))


async def measure(
    db: Database, tables: list[Table], seconds: float, think: float, unit: str
) -> tuple[float, float, list[float]]:
    """Saves per second, CPU seconds per save and every save's latency."""
    latencies: list[float] = []
    loop = asyncio.get_running_loop()
    began, cpu = loop.time(), time.process_time()
    await asyncio.gather(*(drive(db, t, began + seconds, think, unit, latencies) for t in tables))
    cpu_per_save = (time.process_time() - cpu) / max(1, len(latencies))
    return len(latencies) / (loop.time() - began), cpu_per_save, latencies


def sqlite_floor(path: Path, saves: int = 300) -> float:
    """Seconds per save of the same UPDATE + INSERT + COMMIT via sqlite3: no asyncio, no ORM."""
    import sqlite3

    state = json.dumps(snapshot(0))
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA synchronous=NORMAL")
        game_id, version = connection.execute(
            "SELECT id, version FROM games WHERE status = 'running' LIMIT 1"
        ).fetchone()
        began = time.perf_counter()
        for _ in range(saves):
            connection.execute("BEGIN IMMEDIATE")
            connection.execute(
                "UPDATE games SET state = ?, version = ? WHERE id = ? AND version = ?",
                (state, version + 1, game_id, version),
            )
            connection.execute(
                "INSERT INTO game_actions (game_id, version, actor_id, action, created_at)"
                " VALUES (?, ?, ?, 'play:R7', '2030-01-01 00:00:00.000000')",
                (game_id, version + 1, PLAYERS[0]),
            )
            connection.execute("COMMIT")
            version += 1
        return (time.perf_counter() - began) / saves
    finally:
        connection.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(label: str, games: int, rate: float, cpu: float, latencies: list[float]) -> None:
    ms = [value * 1000 for value in latencies] or [float("nan")]
    print(
        f"{label:<16}{games:>6}{rate:>10.0f}{statistics.median(ms):>9.2f}"
        f"{percentile(ms, 0.99):>9.2f}{max(ms):>9.2f}{cpu * 1000:>9.2f}{len(latencies):>8}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument(
        "--think-ms",
        type=float,
        nargs="*",
        default=[1000.0, 250.0],
        help="mean time between two saves of one game, for the paced runs",
    )
    parser.add_argument(
        "--unit",
        choices=["save", "play", "click"],
        default="save",
        help="save: snapshot + log row; play: also the played card's counter; click: as play, "
        "through Database.save_click (what the bot does)",
    )
    parser.add_argument("--url", help="database URL (default: a new SQLite file)")
    args = parser.parse_args()
    random.seed(1)

    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(args.url or f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}")
        try:
            print(f"database: {db.engine.url.render_as_string(hide_password=True)}")
            counters = args.unit

            size = len(json.dumps(snapshot(0)))
            extra = " + 1 counter upsert" if counters != "save" else ""
            print(f"snapshot: {size} bytes of JSON + 1 log row{extra} per save")
            channel = 1
            if db.is_sqlite and not args.url:
                await open_tables(db, 1, 0)
                floor = sqlite_floor(Path(folder) / "bench.db")
                print(f"floor: {floor * 1000:.2f} ms per save with plain sqlite3 (same statements)")
            print(
                f"{'load':<16}{'games':>6}{'saves/s':>10}{'p50 ms':>9}{'p99 ms':>9}"
                f"{'max ms':>9}{'cpu ms':>9}{'saves':>8}"
            )
            for count in args.games:
                tables = await open_tables(db, count, channel)
                channel += count
                await measure(db, tables, 0.5, 0, counters)  # warm the pool and the caches
                report("saturated", count, *await measure(db, tables, args.seconds, 0, counters))
                for think in args.think_ms:
                    label = f"paced {think:g} ms"
                    result = await measure(db, tables, args.seconds, think / 1000, counters)
                    report(label, count, *result)
        finally:
            await db.close()


if __name__ == "__main__":
    asyncio.run(main())
