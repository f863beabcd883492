"""The bot keeps within its request budget: a burst of table edits draws no global 429.

The emulator enforces a global limit of 6 requests/s here and the bot runs with REQUEST_BUDGET=4
and no pause between table edits, so several games played at once ask for far more channel
requests than the limit allows; the budget spreads them, and interaction answers (exempt) are
not held back: not even `/uno table`, whose table the updater posts in the background. Tables
stay on the channel routes here (TABLE_TOKEN_TTL tiny), as they do when no click is fresh: on a
click's token they would not count against the limit at all (tests/e2e/test_table_tokens.py).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord, Message
from testing.fakediscord.process import BotProcess
from testing.players import (
    HAND_ID,
    Table,
    actions,
    answer,
    open_game,
    show_hand,
    take_turn,
    version_of,
)
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="session")

TURN_ACTIONS = ("draw", "keep", "pass", "accept", "challenge")
GAMES = 6
MOVES = 6


@dataclass
class Budgeted:
    emu: FakeDiscord
    bot: BotProcess
    guild: Any
    decks: Path


@pytest_asyncio.fixture(loop_scope="session")
async def budgeted(tmp_path: Path) -> AsyncIterator[Budgeted]:
    emu = FakeDiscord()
    emu.global_limit.per_second = 6
    await emu.start()
    guild = emu.add_guild("Busy")
    env = bot_env(
        emu, tmp_path, DEV_GUILD_ID=str(guild.id), REQUEST_BUDGET="4", TABLE_TOKEN_TTL="0.001"
    )
    bot = emu.bot_process(env=env, cwd=str(ROOT))
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        yield Budgeted(emu, bot, guild, tmp_path / "decks.json")
    finally:
        await bot.stop()
        await emu.stop()


def _my_turn(hand: Message) -> bool:
    return any(a.startswith(("play:", "color:")) or a in TURN_ACTIONS for a in actions(hand))


async def _play(emu: FakeDiscord, table: Message, users: list[Any]) -> int | None:
    """Up to MOVES moves, as fast as the answers come; the game's version after them (None:
    the round ended)."""
    hands = {u.id: await show_hand(emu, u, table) for u in users}
    by_id = {u.id: u for u in users}
    current = users[0].id if _my_turn(hands[users[0].id]) else users[1].id
    hand = hands[current]
    for _ in range(MOVES):
        hand = hands[current]
        if not _my_turn(hand):
            current = next(u for u in by_id if u != current)
            refresh = actions(hands[current])["refresh"]
            hand = await answer(await emu.click(by_id[current], hands[current], refresh))
        hand = hands[current] = await take_turn(emu, by_id[current], hand)
        if version_of(hand) is None or "next" in actions(hand):
            return None
    return version_of(hand)


async def test_a_burst_of_games_draws_no_global_429(budgeted: Budgeted) -> None:
    emu, guild = budgeted.emu, budgeted.guild
    channels = [emu.add_channel(guild, f"busy-{n}") for n in range(GAMES)]
    players = [[emu.add_user(f"b{n}a", guild), emu.add_user(f"b{n}b", guild)] for n in range(GAMES)]
    budgeted.decks.write_text(json.dumps({str(c): {"dealer_seat": 1} for c in channels}))
    tables = await asyncio.gather(
        *(open_game(emu, c, a, [b]) for c, (a, b) in zip(channels, players, strict=True))
    )
    limited_before = emu.global_limit.limited
    finals = await asyncio.gather(*(_play(emu, t, p) for t, p in zip(tables, players, strict=True)))
    # Every table catches up with its game: the edits waited for the budget, none was lost.
    for channel, final in zip(channels, finals, strict=True):
        if final is not None:
            await Table(emu, channel).at_version(final, timeout=30)
    assert emu.global_limit.limited - limited_before > 0  # the pressure: see `waited` below
    assert emu.global_limit.global_429s == 0
    assert emu.global_limit.invalid == 0
    emu.assert_clean()
    # The bot's own count, logged when it stops: it waited for its budget and drew no 429.
    await budgeted.bot.stop()
    summary = re.search(r"requests in the last .*", budgeted.bot.output)
    assert summary is not None, budgeted.bot.output[-3000:]
    waited = re.search(r"waited for the budget (\d+), global 429s (\d+)", summary[0])
    assert waited is not None and int(waited[1]) > 0 and waited[2] == "0", summary[0]


async def _move(emu: FakeDiscord, users: list[Any], table: Message) -> int:
    """Whoever's turn it is takes it; the game's version afterwards."""
    for user in users:
        hand = await show_hand(emu, user, table)
        if _my_turn(hand):
            version = version_of(await take_turn(emu, user, hand))
            assert version is not None
            return version
    raise AssertionError("nobody may move")


async def test_table_commands_are_answered_at_once_while_the_tables_wait(
    budgeted: Budgeted,
) -> None:
    """Thirty members ask for their channel's table at once while every table has an edit
    stuck in Discord's 500s (discord.py retries it for seconds) and the request budget is
    pressed: each is told privately at once, within Discord's window; each channel then has
    one table, posted anew, at the game's version; a second ask inside the member's cooldown
    is refused with when it may be asked again. (`/uno table` used to wait for the table's
    pending edit, under the game's lock, before it answered: "This interaction failed".)"""
    emu, guild = budgeted.emu, budgeted.guild
    games = 3
    channels = [emu.add_channel(guild, f"tables-{n}") for n in range(games)]
    players = [[emu.add_user(f"t{n}a", guild), emu.add_user(f"t{n}b", guild)] for n in range(games)]
    watchers = [[emu.add_user(f"t{n}w{i}", guild) for i in range(8)] for n in range(games)]
    budgeted.decks.write_text(json.dumps({str(c): {"dealer_seat": 1} for c in channels}))
    tables = await asyncio.gather(
        *(open_game(emu, c, a, [b]) for c, (a, b) in zip(channels, players, strict=True))
    )
    mark = emu.mark()
    # Refused until cleared below, not for a fixed time: under load the moves' edits could come
    # after a timed fault had ended (the test then waited for refusals that never came).
    stuck = emu.fail_route("PATCH", "/channels/{id}/messages/{id}", status=500)
    versions = await asyncio.gather(
        *(_move(emu, p, t) for p, t in zip(players, tables, strict=True))
    )
    await emu.wait_for(lambda: len(stuck.hits) >= games, 5, what="every table's edit refused")
    asks = [
        await emu.slash(user, channel, "uno table")
        for channel, people, more in zip(channels, players, watchers, strict=True)
        for user in people + more
    ]
    told = [await ask.settled() for ask in asks]  # (raises if one failed)
    stuck.clear()
    assert all(m.ephemeral and "posted again" in m.text for m in told)
    assert all(ask.acked and not ask.failed for ask in asks)  # (within Discord's 3 s)
    again = await answer(await emu.slash(players[0][0], channels[0], "uno table"))
    assert again.ephemeral and "post it again <t:" in again.content, again.content
    for channel, table, version in zip(channels, tables, versions, strict=True):
        await emu.wait_for(lambda t=table: t.deleted, 30, what="the old table deleted")
        new = await Table(emu, channel).at_version(version, timeout=30)
        here = [
            m for m in emu.channel_messages(channel) if any(HAND_ID.match(c) for c in m.custom_ids)
        ]
        assert [m.id for m in here] == [new.id] and new.id != table.id, "one table, anew"
    assert emu.global_limit.global_429s == 0
    emu.assert_clean(since=mark)
