"""A storm at a full table, on SQLite and on PostgreSQL: the screens end up as the database is.

Seven people and three computers, a 1.5-s turn timer (30 s at UNO_TEST_TIMER_SCALE=0.05),
clicks from everyone, double clicks, hands reopened while a click is on its way
(testing/storm.py). Afterwards the table shows the database's version, every seated person's
hand their cards and whose turn it is, every ended round has exactly one results message, and
the bot logged no ERROR. The two-minute storm is `benchmarks/storm.py`; this one is short.
"""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from testing.fakediscord import FakeDiscord
from testing.players import Table
from testing.storm import check_after_storm, open_full_table, results_per_round, storm
from tests.e2e.postgres import empty_postgres
from tests.e2e.worlds import BotWorld, running_world

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Seconds of clicking: long enough for several rounds to end at this pace.
STORM_SECONDS = 12.0
#: Seconds the storm may go on past them while no round has ended (a loaded machine).
MORE_STORM_AT_MOST = 60.0


class StormWorld(BotWorld):
    prefix = "storm"


@asynccontextmanager
async def storm_world(tmp: Path, url: str | None) -> AsyncIterator[StormWorld]:
    env = {"UNO_TEST_TIMER_SCALE": "0.05"}
    if url is not None:
        env["DATABASE_URL"] = url
    async with running_world(StormWorld, tmp, "Storm", checked="violations", **env) as world:
        yield world


async def _weather(world: StormWorld, url: str) -> None:
    emu = world.emu
    channel = world.channel()
    people, game_id = await open_full_table(emu, world.guild, channel, world.decks)
    rng = random.Random(31)
    reports = [await storm(emu, channel, people, STORM_SECONDS, rng)]
    # A loaded machine may end no round in that time: the storm goes on, a few seconds at a
    # time, until a round's results are in the channel (what the checks below are about).
    give_up = time.monotonic() + MORE_STORM_AT_MOST
    while not _a_round_ended(emu, channel) and time.monotonic() < give_up:
        reports.append(await storm(emu, channel, people, 3.0, rng))
    for report in reports:
        print(f"\nstorm: {report.summary()}")
        assert report.failed == 0, report.summary()
    assert sum(r.clicks for r in reports) >= 20  # (how many depends on the pace)
    print("storm:", await check_after_storm(emu, channel, game_id, people, url, world.bot.output))


def _a_round_ended(emu: FakeDiscord, channel: int) -> bool:
    table = Table(emu, channel).message()
    return table is not None and bool(results_per_round(emu, channel, table.id))


async def test_a_storm_on_sqlite(tmp_path: Path) -> None:
    async with storm_world(tmp_path, None) as world:
        await _weather(world, f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}")


async def test_a_storm_on_postgres(tmp_path: Path) -> None:
    async with empty_postgres() as url, storm_world(tmp_path, url) as world:
        await _weather(world, url)
