"""A storm at a full table, on SQLite and on PostgreSQL: the screens end up as the database is.

Seven people and three computers, a 1.5-s turn timer (30 s at UNO_TEST_TIMER_SCALE=0.05),
clicks from everyone, double clicks, hands reopened while a click is on its way
(testing/storm.py). Afterwards the table shows the database's version, every seated person's
hand their cards and whose turn it is, every ended round has exactly one results message, and
the bot logged no ERROR. The two-minute storm is `benchmarks/storm.py`; this one is short.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from testing.fakediscord import FakeDiscord, User
from testing.players import Table, answer
from testing.storm import results_per_round, settled_like_the_database, stored_game, storm
from tests.e2e.postgres import empty_postgres
from tests.e2e.worlds import BotWorld, running_world

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Seconds of clicking: long enough for several rounds to end at this pace.
STORM_SECONDS = 12.0


class StormWorld(BotWorld):
    prefix = "storm"


async def _full_table(world: StormWorld) -> tuple[int, list[User]]:
    """Seven people and three easy computers at one table, the turn timer 1.5 s, one card
    each (so that a short storm ends several rounds)."""
    emu = world.emu
    channel = world.channel()
    await world.set_option(channel, "turn_timer", "30")
    world.fix_deal(channel, {"rules": {"hand_size": 1}})  # short rounds: several end in a storm
    people = world.users(*(f"p{i}" for i in range(7)))
    host = people[0]
    lobby = await answer(await emu.slash(host, channel, "uno new"))
    for user in people[1:]:
        lobby = await answer(await emu.click(user, lobby, label="Join"))
    for _ in range(3):
        await answer(await emu.slash(host, channel, "uno addbot", level="easy"))
    lobby = await emu.wait_for(
        lambda: m if "Bot" in (m := Table(emu, channel).message()).text else None, 5
    )
    table = await answer(await emu.click(host, lobby, label="Start"))
    assert "UNO — round 1" in table.text, table.text
    return channel, people


@asynccontextmanager
async def storm_world(tmp: Path, url: str | None) -> AsyncIterator[StormWorld]:
    env = {"UNO_TEST_TIMER_SCALE": "0.05"}
    if url is not None:
        env["DATABASE_URL"] = url
    async with running_world(StormWorld, tmp, "Storm", checked="violations", **env) as world:
        yield world


async def _weather(world: StormWorld, url: str) -> None:
    emu: FakeDiscord = world.emu
    channel, people = await _full_table(world)
    report = await storm(emu, channel, people, STORM_SECONDS, random.Random(31))
    print(f"\nstorm: {report.summary()}")
    assert report.clicks >= 20, report.summary()  # (how many depends on the pace)
    assert report.failed == 0, report.summary()

    version, _ = await settled_like_the_database(emu, channel, people, url)
    _, game, _ = await stored_game(url, Table(emu, channel).game_id)
    assert game is not None
    ended = game.round_number - 1 + (1 if game.round_over else 0)
    assert ended >= 1, "a storm this long ends rounds"
    table_id = Table(emu, channel).message().id
    posted = results_per_round(emu, channel, table_id)
    assert posted == Counter(dict.fromkeys(range(1, ended + 1), 1)), (ended, posted)
    assert " ERROR " not in world.bot.output, world.bot.log_tail()
    print(f"storm: database at version {version}, {ended} rounds ended, results {dict(posted)}")


async def test_a_storm_on_sqlite(tmp_path: Path) -> None:
    async with storm_world(tmp_path, None) as world:
        await _weather(world, f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}")


async def test_a_storm_on_postgres(tmp_path: Path) -> None:
    async with empty_postgres() as url, storm_world(tmp_path, url) as world:
        await _weather(world, url)
