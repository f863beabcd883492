"""An old table is posted anew: by age (TABLE_REPOST_AFTER) or when Discord refuses the edit.

Discord allows only a few edits of a message older than an hour and then answers 400/30046, so
the bot posts a table that old as a new message (and deletes the old one) instead of editing it;
if an edit is refused anyway, it does the same. Each test runs its own bot with small times.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord, Message, User
from testing.players import HAND_ID, Table, actions, open_game, show_hand, take_turn, version_of

pytestmark = pytest.mark.asyncio(loop_scope="session")

TURN_ACTIONS = ("draw", "keep", "pass", "accept", "challenge")


@asynccontextmanager
async def running_bot(tmp_path: Path, **env: str) -> AsyncIterator[tuple[FakeDiscord, int]]:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Old tables")
    bot = emu.bot_process(env=bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id), **env))
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        yield emu, guild.id
    finally:
        await bot.stop()
        await emu.stop()


def _my_turn(hand: Message) -> bool:
    return any(a.startswith(("play:", "color:")) or a in TURN_ACTIONS for a in actions(hand))


async def _move(emu: FakeDiscord, users: list[User], channel: int) -> int:
    """Whoever's turn it is takes it (through the channel's table as it is now: on a loaded
    machine an earlier edit may already have posted it anew); the game's version afterwards."""
    for user in users:
        hand = await show_hand(emu, user, Table(emu, channel).message())
        if _my_turn(hand):
            version = version_of(await take_turn(emu, user, hand))
            assert version is not None
            return version
    raise AssertionError("nobody may move")


def _tables(emu: FakeDiscord, channel: int) -> list[Message]:
    return [m for m in emu.channel_messages(channel) if any(HAND_ID.match(c) for c in m.custom_ids)]


async def _start(emu: FakeDiscord, guild: int, tmp_path: Path) -> tuple[int, list[User], Message]:
    channel = emu.add_channel(guild, "old")
    users = [emu.add_user("alice", guild), emu.add_user("bob", guild)]
    (tmp_path / "decks.json").write_text(json.dumps({str(channel): {"dealer_seat": 1}}))
    table = await open_game(emu, channel, users[0], users[1:])
    return channel, users, table


async def _reposted(emu: FakeDiscord, channel: int, old: Message, version: int) -> Message:
    """The new table, once posted at `version` or later with the old one deleted."""
    new = await Table(emu, channel).at_version(version)
    assert new.id != old.id, "the old table was edited, not posted anew"
    await emu.wait_for(lambda: old.deleted, 5, what="the old table deleted")
    assert [m.id for m in _tables(emu, channel)] == [new.id], "one table in the channel"
    return new


async def test_a_table_older_than_the_limit_is_posted_anew(tmp_path: Path) -> None:
    async with running_bot(tmp_path, TABLE_REPOST_AFTER="4") as (emu, guild):
        channel, users, table = await _start(emu, guild, tmp_path)
        version = await _move(emu, users, channel)
        kept = await Table(emu, channel).at_version(version)
        assert kept.id == table.id, "a young table is edited in place"

        await asyncio.sleep(4.2)  # the table (the lobby message, edited) is now too old
        version = await _move(emu, users, channel)
        new = await _reposted(emu, channel, kept, version)

        # Its buttons work, and the next move edits it in place again.
        assert actions(await show_hand(emu, users[0], new), enabled_only=False)
        version = await _move(emu, users, channel)
        assert (await Table(emu, channel).at_version(version)).id == new.id
        emu.assert_clean()


async def test_a_refused_edit_posts_the_table_anew(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as (emu, guild):  # the bot's own limit: 50 minutes
        channel, users, table = await _start(emu, guild, tmp_path)
        first_request = len(emu.requests)
        emu.old_message_age = 1.0  # Discord: older than an hour; here a second
        emu.old_message_edit_limit = 0
        await asyncio.sleep(1.1)
        version = await _move(emu, users, channel)
        new = await _reposted(emu, channel, table, version)
        game = f'"uno:{Table(emu, channel).game_id}:hand"'  # (the table's Show my hand)
        edits = [
            r.status
            for r in emu.requests[first_request:]
            if r.method == "PATCH"
            and (
                r.path.endswith(f"/messages/{table.id}")  # through the channel
                or (r.path.endswith("/messages/@original") and game in json.dumps(r.json))
            )  # or through the Start click's token
        ]
        # (A deal's last edit may still land while the table is young: it is edited in place.)
        assert 400 in edits and set(edits[edits.index(400) :]) == {400}, edits
        assert actions(await show_hand(emu, users[1], new), enabled_only=False)
        emu.assert_clean()
