"""A table heals itself after Discord fails its edits for a while.

Discord answers 500 to every edit of the table; discord.py retries a 500 five times (sleeping
1, 3, 5, 7 and 9 s; here a twentieth of that, testing/paced_bot.py) and then gives up, and
answers a 503 with an error at once. Players act
meanwhile (their own answers still work: only the table's route fails). Once Discord recovers,
the table must catch up to the latest state without anyone acting (the turn timer is off): before
the fix, the failed edit was dropped and the table named the wrong player until the next move.

The table is kept on the channel routes here (TABLE_TOKEN_TTL tiny: no click's token is ever
fresh enough to carry it), the routes a table takes when no click is fresh; the same outage on
a token's routes is tests/e2e/test_table_tokens.py's.

Run with `-s` to see the seconds from Discord's recovery to the caught-up table.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from testing.bot_env import bot_env
from testing.fakediscord import MANAGE_GUILD, FakeDiscord, Message, RequestRecord, User
from testing.paced_bot import SCALE_VARIABLE, paced_bot_args
from testing.players import Table, actions, answer, deal, open_game, show_hand, version_of

pytestmark = pytest.mark.asyncio(loop_scope="session")

ROOT = Path(__file__).resolve().parents[2]
#: discord.py's pauses between the tries of a request answered 5xx, scaled (testing/paced_bot.py).
DISCORD_RETRY_SCALE = 0.05
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


@asynccontextmanager
async def outage_game(tmp_path: Path, **env: str) -> AsyncIterator[tuple[FakeDiscord, Game]]:
    """A bot of its own, the turn timer off (nothing but a player moves the game), and a game
    between alice and bob with a fixed deal, alice to play. discord.py gives up on a request
    Discord keeps answering 5xx after its five tries, as in production, but within 1.25 s,
    not 25 s (DISCORD_RETRY_SCALE)."""
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Outage")
    env = {SCALE_VARIABLE: str(DISCORD_RETRY_SCALE), "TABLE_TOKEN_TTL": "0.001", **env}
    bot = emu.bot_process(
        paced_bot_args(),
        env=bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id), **env),
        cwd=str(ROOT),
    )
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        channel = emu.add_channel(guild, "outage")
        admin = emu.add_user("admin", guild, permissions=MANAGE_GUILD)
        off = await answer(
            await emu.slash(admin, channel, "uno-admin set", option="turn_timer", value="0")
        )
        assert "Turn timer changed" in off.text, off.text
        alice, bob = emu.add_user("alice", guild), emu.add_user("bob", guild)
        spec = {"deck": deal(HANDS, "R5"), "dealer_seat": 1}
        (tmp_path / "decks.json").write_text(json.dumps({str(channel): spec}))
        table = await open_game(emu, channel, alice, [bob])
        yield emu, Game(channel, Table(emu, channel).game_id, table, alice, bob)
    finally:
        await bot.stop()
        await emu.stop()


@dataclass
class Game:
    channel: int
    game_id: int
    table: Message
    alice: User
    bob: User


@pytest.mark.parametrize("status", [500, 503])
async def test_the_table_catches_up_after_discord_fails_its_edits(
    tmp_path: Path, status: int
) -> None:
    # Edits 5 s apart: the moves made during the outage join one edit, which fails.
    async with outage_game(tmp_path, TABLE_EDIT_INTERVAL="5") as (emu, g):
        stale = await Table(emu, g.channel).at_version(await _play(emu, g.alice, g.table, "R1"))
        assert Table(emu, g.channel).current_player(stale) == g.bob.id
        stale_text = stale.text  # the emulator's Message changes in place when edited

        path = f"/channels/{g.channel}/messages/{g.table.id}"
        fault = emu.fail_route("PATCH", path, status=status)
        await _play(emu, g.bob, g.table, "R6")
        await _play(emu, g.alice, g.table, "R2")
        final = await _play(emu, g.bob, g.table, "R7")  # alice's turn, R7 on top

        # discord.py gives up on an edit of the latest state: Discord may recover now.
        tries = LIBRARY_TRIES[status]
        await emu.wait_for(
            lambda: sum(_carries(r, g.game_id, final) for r in fault.hits) >= tries,
            90,
            what="discord.py giving up on the latest table",
        )
        fault.clear()
        loop = asyncio.get_running_loop()
        recovered = loop.time()
        healed = await Table(emu, g.channel).at_version(final, timeout=60)
        seconds = loop.time() - recovered
        print(f"\n{status}: the table caught up {seconds:.1f} s after Discord recovered")

        assert healed.id == g.table.id, "edited in place"
        assert version_of(healed) == final, "nobody else moved"
        assert Table(emu, g.channel).current_player(healed) == g.alice.id
        assert re.search(r"\bR7\b|Red 7", healed.text), healed.text
        assert healed.text != stale_text
        emu.assert_clean()


async def test_a_failed_repost_is_posted_later_with_the_latest_state(tmp_path: Path) -> None:
    async with outage_game(tmp_path) as (emu, g):
        emu.old_message_age = 1.0  # Discord: older than an hour; here a second
        emu.old_message_edit_limit = 0  # every edit of the table is refused: it is posted anew
        await asyncio.sleep(1.1)
        fault = emu.fail_route("POST", f"/channels/{g.channel}/messages", status=503)
        await _play(emu, g.alice, g.table, "R1")
        final = await _play(emu, g.bob, g.table, "R6")  # alice's turn, R6 on top
        await emu.wait_for(
            lambda: any(_carries(r, g.game_id, final) for r in fault.hits),
            30,
            what="a failed re-post of the latest table",
        )
        fault.clear()
        new = await Table(emu, g.channel).at_version(final, timeout=60)
        assert new.id != g.table.id, "posted anew"
        assert version_of(new) == final
        assert Table(emu, g.channel).current_player(new) == g.alice.id
        await emu.wait_for(lambda: g.table.deleted, 5, what="the old table deleted")
        tables = [m for m in emu.channel_messages(g.channel) if version_of(m) is not None]
        assert [m.id for m in tables] == [new.id], "one table in the channel"
        emu.assert_clean()
