"""A turn ping posted before a restart is deleted by the next process, never left behind.

The ping's message id used to live in the bot's memory only: after a restart the old reminder
stayed in the channel for good and the new process posted another beside it. Now it is stored
with the game, and the next process deletes it before posting its own. The bot is killed
(SIGKILL: no shutdown code runs) once the ping is posted and stored.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord, Message
from testing.players import Table, actions, answer, open_game, show_hand, version_of
from tests.e2e.conftest import ROOT
from tests.e2e.test_turn_pings import PingWorld

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _stored_ping(db: Path, game_id: int) -> int | None:
    with contextlib.closing(sqlite3.connect(db)) as con:
        (stored,) = con.execute(
            "SELECT ping_message_id FROM games WHERE id = ?", (game_id,)
        ).fetchone()
    return stored


def _overlaps(pings: list[Message]) -> list[tuple[int, int]]:
    """Pairs of pings that were in the channel at the same moment."""
    spans = [(m.created_at, m.deleted_at or float("inf"), m.id) for m in pings]
    return [
        (a[2], b[2])
        for i, a in enumerate(spans)
        for b in spans[i + 1 :]
        if a[0] < b[1] and b[0] < a[1]
    ]


async def test_the_ping_of_the_last_run_is_deleted_after_a_restart(tmp_path: Path) -> None:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Restarts")
    env = bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id), UNO_TEST_TIMER_SCALE="0.01")
    bot = emu.bot_process(env=env, cwd=str(ROOT))
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        world = PingWorld(emu, guild, bot, tmp_path)
        channel = world.channel()
        alice, bob = world.users("alice", "bob")
        # The turn timer off: after the restart nothing moves until a player does, so only
        # the start-up clean-up can delete the old ping.
        await world.configure(channel, turn_timer="off", turn_ping="now")
        world.fix_hands(channel, ["G1 R2 R3 R4 R5 R6 R7", "G2 B2 B3 B4 B5 B6 B7"], "G5")
        await open_game(emu, channel, alice, [bob])
        game_id = Table(emu, channel).game_id
        old = await emu.wait_for(lambda: next(iter(world.alive(channel)), None), 5, what="ping")
        await emu.wait_for(
            lambda: _stored_ping(world.db, game_id) == old.id, 5, what="the ping stored"
        )

        await bot.kill()
        await bot.start()
        await emu.wait_for_bot(timeout=30, new=True)
        await emu.wait_for(lambda: old.deleted, 15, what="the last run's ping deleted")
        await emu.wait_for(
            lambda: _stored_ping(world.db, game_id) is None, 5, what="the old ping forgotten"
        )

        # Play on: Bob's ping is the channel's only one, and it goes once he plays.
        table = await emu.wait_for(lambda: Table(emu, channel).message(), 5, what="the table")
        hand = await show_hand(emu, alice, table)
        played = await answer(await emu.click(alice, hand, actions(hand)["play:G1"]))
        # (Her click's fresh token carries the table from now on: posted anew, below.)
        moved = version_of(played)
        assert moved is not None, played.text
        table = await Table(emu, channel).at_version(moved)
        bobs = await emu.wait_for(
            lambda: next(iter(world.alive(channel)), None), 5, what="bob's ping"
        )
        assert f"<@{bob.id}>" in bobs.content
        await emu.wait_for(
            lambda: _stored_ping(world.db, game_id) == bobs.id, 5, what="bob's ping stored"
        )
        hand = await show_hand(emu, bob, table)
        await answer(await emu.click(bob, hand, actions(hand)["play:G2"]))
        await emu.wait_for(lambda: bobs.deleted, 5, what="bob's ping deleted")
        await emu.wait_for(lambda: world.alive(channel), 5, what="alice's next ping")
        pings = world.pings(channel)
        assert pings[:2] == [old, bobs] and len(pings) == 3, [m.content for m in pings]
        assert _overlaps(pings) == [], "two pings in the channel at once"
        assert not emu.violations, emu.violations
    finally:
        await bot.stop()
        await emu.stop()
