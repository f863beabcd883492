"""The card emojis are uploaded once, kept across restarts, and never hold the bot up.

Each test runs its own emulator and bot process, so the uploads it counts are its own.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.ui.card_emojis import wanted_emojis
from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord
from testing.fakediscord.process import BotProcess
from testing.players import open_game, show_hand
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="session")

WANTED = {art.name for art in wanted_emojis()}
READY = re.compile(r"card emojis ready: (\d+) of (\d+) \((\d+) uploaded\)")


@dataclass
class Fresh:
    emu: FakeDiscord
    bot: BotProcess
    guild: Any

    def ready_lines(self) -> list[tuple[int, int, int]]:
        return [tuple(map(int, m.groups())) for m in READY.finditer(self.bot.output)]

    async def start(self) -> None:
        await self.bot.start()
        await self.emu.wait_for_bot(timeout=30, new=True)


@pytest_asyncio.fixture(loop_scope="session")
async def fresh(tmp_path: Path) -> AsyncIterator[Fresh]:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Emoji Club")
    env = bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id))
    bot = emu.bot_process(env=env, cwd=str(ROOT))
    try:
        yield Fresh(emu, bot, guild)
    except BaseException:
        print(bot.output[-6000:])
        raise
    finally:
        await bot.stop()
        await emu.stop()


async def test_emojis_are_uploaded_once_and_reused_after_a_restart(fresh: Fresh) -> None:
    emu = fresh.emu
    await fresh.start()
    await emu.wait_for(lambda: len(fresh.ready_lines()) == 1, 30, what="the first sync")
    assert fresh.ready_lines() == [(len(WANTED), len(WANTED), len(WANTED))]
    assert sorted(emu.emoji_uploads) == sorted(WANTED)
    await fresh.bot.stop()

    await fresh.start()
    await emu.wait_for(lambda: len(fresh.ready_lines()) == 2, 30, what="the second sync")
    assert fresh.ready_lines()[1] == (len(WANTED), len(WANTED), 0)
    assert sorted(emu.emoji_uploads) == sorted(WANTED)  # nothing uploaded again
    assert {e["name"] for e in emu.app_emojis.values()} == WANTED


async def test_changed_art_replaces_only_its_own_emoji(fresh: Fresh) -> None:
    """An older version of one emoji is replaced (uploaded anew, the old one deleted); an
    emoji that is not ours is left alone."""
    emu = fresh.emu
    red7 = next(name for name in WANTED if name.startswith("uno_R7_"))
    old = emu.app_emojis
    for name in ("uno_R7_00000000", "party_parrot"):
        old[emu.ids.next()] = {"id": "0", "name": name, "roles": [], "available": True}
    for key, emoji in old.items():
        emoji["id"] = str(key)
    for name in WANTED - {red7}:  # every other emoji is already there, current
        key = emu.ids.next()
        old[key] = {"id": str(key), "name": name, "roles": [], "available": True}
    await fresh.start()
    await emu.wait_for(lambda: fresh.ready_lines(), 30, what="the sync")
    assert emu.emoji_uploads == [red7]
    await emu.wait_for(
        lambda: "uno_R7_00000000" not in {e["name"] for e in emu.app_emojis.values()},
        10,
        what="the old version deleted",
    )
    assert {e["name"] for e in emu.app_emojis.values()} == WANTED | {"party_parrot"}


async def test_a_failing_upload_leaves_the_plain_emojis_and_the_bot_answers(fresh: Fresh) -> None:
    emu = fresh.emu
    emu.app_emoji_limit = 0  # Discord refuses every upload: the application is full
    await fresh.start()
    await emu.wait_for_commands(fresh.guild, timeout=30)
    await emu.wait_for(lambda: fresh.ready_lines(), 60, what="the sync giving up")
    assert fresh.ready_lines() == [(0, len(WANTED), 0)]
    refused = [v for v in emu.violations if v.kind == "too_many_emojis"]
    assert len(refused) == 1  # the first refusal ends the uploads
    channel = emu.add_channel(fresh.guild, "uno")
    host = emu.add_user("host", fresh.guild)
    guest = emu.add_user("guest", fresh.guild)
    table = await open_game(emu, channel, host, [guest])
    hand = await show_hand(emu, host, table)
    emojis = list(hand.button_emojis.values())
    assert emojis and not any(e.get("id") for e in emojis)


async def test_two_processes_of_one_token_upload_each_emoji_once(tmp_path: Path) -> None:
    """Shards of one token starting together: shard 0's process uploads, the other reads the
    list until it is complete; no upload is refused for a name the other just took."""
    emu = FakeDiscord()
    await emu.start()
    guilds = [emu.add_guild(f"Shard {n}", shard=(n, 2)) for n in (0, 1)]
    bots = [
        emu.bot_process(
            env=bot_env(
                emu,
                tmp_path / f"shard{n}",
                SHARD_COUNT="2",
                SHARD_IDS=str(n),
                UNO_TEST_TIMER_SCALE="0.05",  # the reader looks again after 1 s, not 20
            ),
            cwd=str(ROOT),
        )
        for n in (0, 1)
    ]
    try:
        await asyncio.gather(*(bot.start() for bot in bots))
        await emu.wait_for_bot(timeout=30, count=2)
        uploader_ready = re.compile(r"card emojis ready: (\d+) of (\d+) \((\d+) uploaded\)")
        reader_ready = re.compile(r"card emojis ready: (\d+) of (\d+) \(shard 0 uploads\)")
        await emu.wait_for(
            lambda: uploader_ready.search(bots[0].output) and reader_ready.search(bots[1].output),
            60,
            what="both processes' emojis ready",
        )
        assert uploader_ready.findall(bots[0].output) == [(str(len(WANTED)),) * 3]
        assert reader_ready.findall(bots[1].output) == [(str(len(WANTED)),) * 2]
        assert sorted(emu.emoji_uploads) == sorted(WANTED)  # each once, by shard 0
        emu.assert_clean()  # no name refused as taken
        # The second shard's buttons show the uploaded emojis.
        channel = emu.add_channel(guilds[1], "uno")
        host, guest = emu.add_user("host", guilds[1]), emu.add_user("guest", guilds[1])
        hand = await show_hand(emu, host, await open_game(emu, channel, host, [guest]))
        assert any(e.get("id") for e in hand.button_emojis.values())
    except BaseException:
        for n, bot in enumerate(bots):
            print(f"--- shard {n} ---\n" + bot.output[-4000:])
        raise
    finally:
        for bot in bots:
            await bot.stop()
        await emu.stop()
