"""How long the event loop stalls while ten members ask for the record of a 14,000-action match
at once (`/uno export` and `/uno verify`, cogs/uno/records/exports.py): the record read from a real
SQLite database, then built (and verified) on the loop, as before, or in the record process
(cogs/uno/records/work.py), as now. Modes: "before" (every action row through the ORM, all asks at
once, built on the loop), "loop" (today's read, one ask at a time, built on the loop), "process"
(today's read, built in the record process: what the bot does).

A heartbeat task asks the loop to wake it every millisecond and records how late it wakes: the
delay every other game's clicks would see. The match is three seeded random players to a high
target, stored as the bot stores it (its "start" snapshot, one row per action, its rounds).

  .venv/bin/python benchmarks/record_loop_stall.py [--asks 10] [--actions 14000]

Prints, per mode, the loop's longest stall, its 99th percentile and the time until the last
answer; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.engine import Game, RuleSet
from bot.engine import actions as A
from bot.engine import events as E
from bot.engine.record import build_record
from bot.engine.verify import verify
from bot.store import Database, GameRecord, open_database
from bot.store.models import Game as GameRow
from bot.store.models import GameAction, GameStatus, Round, Seat
from cogs.uno.records.exports import Records
from cogs.uno.records.work import RECORDS
from cogs.uno.shared import Shared

PLAYERS = [(11, "Ada"), (22, "Bo"), (33, "Cy")]


def long_match(actions: int, seed: int = 7) -> tuple[Game, Game, list[tuple[int, str]], list[Any]]:
    """A match of seeded random legal moves to a target high enough for `actions` actions: its
    first and last state, its log and its ended rounds."""
    rng = random.Random(seed)
    game, _ = Game.start([p for p, _ in PLAYERS], RuleSet(target=1_000_000), seed=seed)
    first = Game.from_dict(game.to_dict())
    log: list[tuple[int, str]] = []
    ended: list[Any] = []
    while len(log) < actions or not game.round_over:
        player = game.current_player if not game.round_over else game.players[0]
        assert player is not None
        legal = [a for a in game.legal_actions(player) if not isinstance(a, A.Catch)]
        action = rng.choice(legal)
        ended += [e for e in game.apply(player, action) if isinstance(e, E.RoundEnded)]
        log.append((player, action.code))
    return first, game, log, ended


async def store_match(db: Database, actions: int) -> int:
    """The match stored as a finished game; its id."""
    first, last, log, ended = long_match(actions)
    now = datetime.now(UTC)
    async with db.write() as unit:
        session = unit.session
        row = GameRow(
            guild_id=1,
            channel_id=2,
            host_id=PLAYERS[0][0],
            status=GameStatus.FINISHED,
            rules=first.rules.to_dict(),
            state=last.to_dict(),
            version=len(log) + 1,
            created_at=now,
            started_at=now,
            finished_at=now,
        )
        session.add(row)
        await session.flush()
        for order, (user, name) in enumerate(PLAYERS):
            session.add(
                Seat(
                    game_id=row.id,
                    user_id=user,
                    display_name=name,
                    seat_order=order,
                    is_bot=False,
                    joined_at=now,
                )
            )
        detail: dict[str, Any] = {"state": first.to_dict()}
        session.add(
            GameAction(game_id=row.id, version=1, action="start", detail=detail, created_at=now)
        )
        for version, (player, code) in enumerate(log, start=2):
            session.add(
                GameAction(
                    game_id=row.id,
                    version=version,
                    actor_id=player,
                    action=code,
                    detail={"player": player},
                    created_at=now,
                )
            )
        for e in ended:
            session.add(
                Round(
                    game_id=row.id,
                    round_number=e.outcome.round_number,
                    winner_id=e.outcome.winner,
                    points={str(p): n for p, n in e.outcome.points.items()},
                    ended_at=now,
                    commitment=None,
                    seed=e.seed,
                )
            )
        await session.flush()
        return row.id


async def parts_as_before(records: Records, game: GameRecord) -> dict[str, Any]:
    """The parts as the bot read them before: every action row through the ORM (its JSON
    detail decoded on the loop), all asks at once."""
    async with records.shared.db.read() as unit:
        actions = await unit.history.actions(game.id)
        rounds = await unit.history.rounds(game.id)
        saved = await unit.games.load(game.id)
    first = Game.from_dict(dict((actions[0].detail or {})["state"]))
    current = Game.from_dict(dict(saved.state))
    return dict(
        rules=first.rules.to_dict(),
        players=PLAYERS,
        first_dealer=first.dealer,
        actions=[
            (int((a.detail or {}).get("player", a.actor_id or 0)), a.action)
            for a in actions
            if a.action != "start"
        ],
        commitments={},
        revealed={r.round_number: r.seed for r in rounds if r.seed},
        results={r.round_number: {"winner": r.winner_id, "points": dict(r.points)} for r in rounds},
        totals=current.totals,
    )


def on_the_loop(parts: dict[str, Any], verifying: bool) -> None:
    """What `/uno export` and `/uno verify` did before: build (and verify) on the loop."""
    record = build_record(**parts)
    if verifying:
        verify(record)
    else:
        json.dumps(record, indent=1, ensure_ascii=False).encode()


async def ask(records: Records, game: GameRecord, mode: str, verifying: bool) -> None:
    if mode == "before":
        on_the_loop(await parts_as_before(records, game), verifying)
        return
    parts = await records.record_parts(game, None)
    if mode == "loop":
        on_the_loop(parts, verifying)
    elif verifying:
        await RECORDS.verdict(parts)
    else:
        await RECORDS.file(parts)


async def heartbeat(until: asyncio.Future[Any]) -> list[float]:
    late = []
    while not until.done():
        start = time.perf_counter()
        await asyncio.sleep(0.001)
        late.append((time.perf_counter() - start - 0.001) * 1000)
    return late


async def stalls_while(work: Awaitable[Any]) -> tuple[list[float], float]:
    """The loop's lateness (ms) every millisecond until `work` is done, and its seconds."""
    started = time.perf_counter()
    running = asyncio.ensure_future(work)
    late = await heartbeat(running)
    await running
    return late, time.perf_counter() - started


async def measure(records: Records, game: GameRecord, mode: str, asks: int) -> None:
    asked = (ask(records, game, mode, verifying=i % 2 == 1) for i in range(asks))
    late, elapsed = await stalls_while(asyncio.gather(*asked))
    late.sort()
    p99 = late[int(len(late) * 0.99)] if late else 0.0
    print(
        f"{mode:8} {asks} asks: longest stall {max(late):7.1f} ms, p99 {p99:6.1f} ms,"
        f" median {statistics.median(late):5.2f} ms, last answer after {elapsed:5.2f} s"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--asks", type=int, default=10)
    parser.add_argument("--actions", type=int, default=14_000)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = await open_database(f"sqlite+aiosqlite:///{Path(tmp) / 'bench.db'}")
        try:
            game_id = await store_match(db, args.actions)
            async with db.read() as unit:
                game = await unit.games.get(game_id)
                stored = len(await unit.history.actions(game_id))
            print(f"a match of {stored - 1} actions, {args.asks} members asking at once")
            records = Records(Shared(None, db, None))  # type: ignore[arg-type]  # (no bot needed)
            RECORDS.worker.start()
            await RECORDS.worker.wait_ready()  # (its start is not what is measured)
            # As the bot does once started (bot/__main__.py): what lives on leaves the
            # collector's sight, so a full collection stays short.
            gc.collect()
            gc.freeze()
            for _ in range(args.repeats):
                for mode in ("before", "loop", "process"):
                    await measure(records, game, mode, args.asks)
            # The read alone (it stays on the loop): the floor of the process mode.
            reads = asyncio.gather(*(records.record_parts(game, None) for _ in range(args.asks)))
            late, elapsed = await stalls_while(reads)
            print(
                f"read only {args.asks} asks: longest stall {max(late):7.1f} ms,"
                f" all read after {elapsed:5.2f} s"
            )
        finally:
            await RECORDS.close()
            await db.close()


if __name__ == "__main__":
    asyncio.run(main())
