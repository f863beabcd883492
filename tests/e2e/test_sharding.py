"""Scale out: two bot processes share the shards of one deployment and one PostgreSQL database.

Needs PostgreSQL (tests/e2e/postgres.py): TEST_DATABASE_URL, set by .ci/run.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord
from testing.fakediscord.process import BotProcess
from testing.players import Table, actions, answer, open_game, show_hand, take_turn, version_of
from tests.e2e.conftest import ROOT
from tests.e2e.postgres import empty_postgres

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def postgres() -> AsyncIterator[str]:
    async with empty_postgres() as url:
        yield url


def _shard_bot(emu: FakeDiscord, tmp: Path, url: str, shard: int) -> BotProcess:
    env = bot_env(emu, tmp, DATABASE_URL=url, SHARD_COUNT="2", SHARD_IDS=str(shard))
    return emu.bot_process(env=env, cwd=str(ROOT))


async def test_two_processes_each_serve_only_their_shards_guilds(
    postgres: str, tmp_path: Path
) -> None:
    emu = FakeDiscord()
    await emu.start()
    guilds = [emu.add_guild(f"Shard {n}", shard=(n, 2)) for n in (0, 1)]
    assert [(g.id >> 22) % 2 for g in guilds] == [0, 1]
    channels = [emu.add_channel(g, "uno") for g in guilds]
    players = [
        [emu.add_user(f"{who}{n}", g) for who in ("alice", "bob")] for n, g in enumerate(guilds)
    ]
    bots = [_shard_bot(emu, tmp_path, postgres, n) for n in (0, 1)]
    try:
        await bots[0].start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(None, timeout=30)  # global commands, synced once
        await bots[1].start()
        await emu.wait_for_bot(timeout=30, count=2)
        conns = {c.shard: c.session_id for c in emu.gateway.live}
        assert set(conns) == {(0, 2), (1, 2)}, conns

        tables = []
        for n in (0, 1):
            alice, bob = players[n]
            tables.append(await open_game(emu, channels[n], alice, [bob]))
            lobby_click = emu.interactions[max(emu.interactions)]
            assert lobby_click.delivered_to == conns[(n, 2)]
        assert emu.command_syncs[None] == 1

        # Each process resumes only its own guild's game after a restart.
        for bot in bots:
            await bot.kill()
        for n, bot in enumerate(bots):
            before = len(bot.lines)
            await bot.start()
            await emu.wait_for_bot(timeout=30, new=True)
            await emu.wait_for(
                lambda b=bot, i=before: any("resumed" in x for x in b.lines[i:]),
                15,
                what=f"shard {n} resumed its games",
            )
            resumed = [x for x in bot.lines[before:] if "resumed" in x and "running games" in x]
            assert resumed and "resumed 1 running games" in resumed[-1], resumed

        # Both games go on, each through its own process, on the shared database.
        for n in (0, 1):
            alice, bob = players[n]
            table = Table(emu, channels[n])
            msg = await emu.wait_for(
                lambda t=table: (m := t.message()) is not None and "resumed" in m.text and m,
                10,
                what="resumed table",
            )
            current = table.current_player(msg)
            user = alice if current == alice.id else bob
            hand = await show_hand(emu, user, tables[n])  # the table's button from before
            hand = await take_turn(emu, user, hand)
            assert actions(hand), hand.text
            # The turn's fresh click carries the table from now on: posted anew, the old one
            # deleted (the clicks below are on the table as it is then).
            moved = version_of(hand)
            assert moved is not None, hand.text
            shown = await table.at_version(moved)
            await emu.wait_for(
                lambda old=tables[n], new=shown: old is new or old.deleted, 5, what="one table"
            )
        conns = {c.shard: c.session_id for c in emu.gateway.live}
        clicks = [i for i in emu.interactions.values() if i.guild_id in {g.id for g in guilds}]
        for inter in clicks[-4:]:
            shard = ((inter.guild_id >> 22) % 2, 2)
            assert inter.delivered_to == conns[shard]

        # With shard 1's process down, nobody answers guild 1; guild 0 is unaffected.
        await bots[1].kill()
        # Its picture workers end with it: nothing is left holding its output open.
        assert bots[1].output_closed, "a killed bot left a worker process behind"
        now = [Table(emu, channel).message() for channel in channels]
        assert now[0] is not None and now[1] is not None
        dead = await emu.click(players[1][0], now[1], label="Show my hand")
        assert not dead.delivered
        alive = await answer(await emu.click(players[0][0], now[0], label="Show my hand"))
        assert "Your hand" in alive.text
        assert await dead.wait() is None and dead.failed
        emu.assert_clean(allow_failed=True)
        assert emu.failed_interactions == [dead.interaction]
    except BaseException:
        for n, bot in enumerate(bots):
            print(f"--- shard {n} ---\n" + bot.output[-4000:])
        raise
    finally:
        for bot in bots:
            await bot.stop()
        await emu.stop()
