"""Two bot processes of one token share its request budget through PostgreSQL, by themselves.

Both run `python -m bot` against one emulator (shards 0 and 1 of the token) with one database
and the default REQUEST_BUDGET, the token's 40: each logs the share it takes
(bot/budget_sharing.py). The newcomer gets half once the first has given it up; with the shared
table locked longer than a process takes to be counted dead, both keep their halves (nobody takes
all); killed (SIGKILL, no goodbye), the second's half returns to the first within 10 s.

Needs PostgreSQL (tests/e2e/postgres.py): TEST_DATABASE_URL, set by .ci/run.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.budget_sharing import DEAD_AFTER
from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord
from testing.fakediscord.process import BotProcess
from tests.e2e.conftest import ROOT
from tests.e2e.postgres import empty_postgres

pytestmark = pytest.mark.asyncio(loop_scope="session")

SHARE = re.compile(r"request budget share: (\d+) of (\d+) in any [\d.]+ s \((\d+) processes")


@pytest_asyncio.fixture(loop_scope="session")
async def postgres() -> AsyncIterator[str]:
    async with empty_postgres() as url:
        yield url


def share(bot: BotProcess) -> tuple[int, int, int] | None:
    """The share the bot last logged: (its share, the token's budget, processes)."""
    found = SHARE.findall(bot.output)
    if not found:
        return None
    mine, total, processes = found[-1]
    return int(mine), int(total), int(processes)


async def test_two_processes_split_the_budget_and_a_dead_one_s_half_comes_back(
    postgres: str, tmp_path: Path
) -> None:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Shared budget", shard=(0, 2))
    bots = [
        emu.bot_process(
            env=bot_env(
                emu,
                tmp_path / str(n),
                DATABASE_URL=postgres,
                SHARD_COUNT="2",
                SHARD_IDS=str(n),
                DEV_GUILD_ID=str(guild.id),
            ),
            cwd=str(ROOT),
        )
        for n in (0, 1)
    ]
    first, second = bots
    try:
        await first.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for(lambda: share(first) == (40, 40, 1), 10, what="the whole budget")
        await second.start()
        await emu.wait_for_bot(timeout=30, count=2)
        await emu.wait_for(
            lambda: share(first) == share(second) == (20, 40, 2), 15, what="half each"
        )
        print("\n".join(line for line in second.lines if "request budget share" in line))

        # The bad day: the shared table locked for longer than a process takes to be counted
        # dead. Both keep their halves (their requests never wait for the database), and when
        # the lock goes, neither takes the other for dead.
        locker = create_async_engine(postgres)
        try:
            async with locker.connect() as conn:
                await conn.execute(text("LOCK TABLE token_budget_members IN ACCESS EXCLUSIVE MODE"))
                await emu.wait_for(
                    lambda: all("shared table did not answer" in b.output for b in bots),
                    10,
                    what="both told the table does not answer",
                )
                # The lock is the scenario: held that long, whatever the bots do meanwhile.
                await asyncio.sleep(DEAD_AFTER + 1)
                await conn.rollback()
            await emu.wait_for(
                lambda: all(b.output.count("shared table answers again") for b in bots),
                10,
                what="both beating again",
            )
        finally:
            await locker.dispose()
        assert share(first) == share(second) == (20, 40, 2)
        assert "stopped beating" not in first.output + second.output

        # The second dies without a goodbye: the first takes the whole budget back.
        loop = asyncio.get_running_loop()
        killed_at = loop.time()
        await second.kill()
        await emu.wait_for(
            lambda: share(first) == (40, 40, 1), 10, what="the whole budget back in 10 s"
        )
        took = loop.time() - killed_at
        assert took < 10
        print(f"the whole budget back {took:.1f} s after the kill")
        assert emu.global_limit.global_429s == 0 and emu.global_limit.invalid == 0
    except BaseException:
        for n, bot in enumerate(bots):
            print(f"--- process {n} ---\n" + bot.output[-4000:])
        raise
    finally:
        for bot in bots:
            await bot.stop()
        await emu.stop()
