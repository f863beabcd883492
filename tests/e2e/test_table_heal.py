"""A table heals itself after Discord fails its edits for a while.

Discord answers 500 to every edit of the table; discord.py retries a 500 five times (sleeping
1, 3, 5, 7 and 9 s) and then gives up, and answers a 503 with an error at once. Players act
meanwhile (their own answers still work: only the table's route fails). Once Discord recovers,
the table must catch up to the latest state without anyone acting (the turn timer is off): before
the fix, the failed edit was dropped and the table named the wrong player until the next move.

Run with `-s` to see the seconds from Discord's recovery to the caught-up table.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import bot_env
from tests.e2e.helpers import Table, actions, answer, deal, open_game, show_hand, version_of
from tests.fakediscord import MANAGE_GUILD, FakeDiscord, Message, RequestRecord, User

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: discord.py's tries of one request answered 500 (1 + 4 retries), and of one answered 503.
LIBRARY_TRIES = {500: 5, 503: 1}
#: Round 1: alice (first to play) and bob only hold number cards that follow the red starter.
HANDS = ["R1 R2 R3 R4 G6 G7 G8", "R6 R7 R8 R9 Y6 Y7 Y8"]


async def _play(emu: FakeDiscord, user: User, table: Message, card: str) -> int:
    """`user` plays `card` from a freshly opened hand; the game's version afterwards."""
    hand = await show_hand(emu, user, table)
    played = await answer(await emu.click(user, hand, actions(hand)[f"play:{card}"]))
    version = version_of(played)
    assert version is not None, played.text
    return version


def _carries(record: RequestRecord, game_id: int, version: int) -> bool:
    """Whether an edit's body is the table at `version`."""
    return f"uno:{game_id}:{version}:" in json.dumps(record.json)


@pytest.mark.parametrize("status", [500, 503])
async def test_the_table_catches_up_after_discord_fails_its_edits(
    tmp_path: Path, status: int
) -> None:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Outage")
    # Edits 5 s apart: the moves made during the outage join one edit, which fails.
    env = bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id), TABLE_EDIT_INTERVAL="5")
    bot = emu.bot_process(env=env)
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        channel = emu.add_channel(guild, "outage")
        admin = emu.add_user("admin", guild, permissions=MANAGE_GUILD)
        off = await answer(
            await emu.slash(admin, channel, "uno-admin set", option="turn_timer", value="0")
        )
        assert "Turn timer changed" in off.text, off.text  # nothing but a player moves the game
        alice, bob = emu.add_user("alice", guild), emu.add_user("bob", guild)
        spec = {"deck": deal(HANDS, "R5"), "dealer_seat": 1}
        (tmp_path / "decks.json").write_text(json.dumps({str(channel): spec}))
        table = await open_game(emu, channel, alice, [bob])
        game_id = Table(emu, channel).game_id
        stale = await Table(emu, channel).at_version(await _play(emu, alice, table, "R1"))
        assert Table(emu, channel).current_player(stale) == bob.id
        stale_text = stale.text  # the emulator's Message changes in place when edited

        fault = emu.fail_route("PATCH", f"/channels/{channel}/messages/{table.id}", status=status)
        await _play(emu, bob, table, "R6")
        await _play(emu, alice, table, "R2")
        final = await _play(emu, bob, table, "R7")  # alice's turn, R7 on top

        # discord.py gives up on an edit of the latest state: Discord may recover now.
        await emu.wait_for(
            lambda: sum(_carries(r, game_id, final) for r in fault.hits) >= LIBRARY_TRIES[status],
            90,
            what="discord.py giving up on the latest table",
        )
        fault.clear()
        loop = asyncio.get_running_loop()
        recovered = loop.time()
        healed = await Table(emu, channel).at_version(final, timeout=60)
        seconds = loop.time() - recovered
        print(f"\n{status}: the table caught up {seconds:.1f} s after Discord recovered")

        assert healed.id == table.id, "edited in place"
        assert version_of(healed) == final, "nobody else moved"
        assert Table(emu, channel).current_player(healed) == alice.id
        assert re.search(r"\bR7\b|Red 7", healed.text), healed.text
        assert healed.text != stale_text
        emu.assert_clean()
    finally:
        await bot.stop()
        await emu.stop()
