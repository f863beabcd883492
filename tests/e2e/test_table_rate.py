"""The public table under a fast game: few edits, one message, and no use of dead tokens.

This bot runs with the production TABLE_EDIT_INTERVAL (1 s between two edits of a table).
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


@dataclass
class Paced:
    emu: FakeDiscord
    bot: BotProcess
    guild: Any
    decks: Path


@pytest_asyncio.fixture(loop_scope="session")
async def paced(tmp_path: Path) -> AsyncIterator[Paced]:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Fast")
    env = bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id), TABLE_EDIT_INTERVAL="1.0")
    bot = emu.bot_process(env=env, cwd=str(ROOT))
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        yield Paced(emu, bot, guild, tmp_path / "decks.json")
    finally:
        await bot.stop()
        await emu.stop()


def _my_turn(hand: Message) -> bool:
    return any(a.startswith(("play:", "color:")) or a in TURN_ACTIONS for a in actions(hand))


async def test_a_burst_of_actions_costs_few_table_edits(paced: Paced) -> None:
    emu = paced.emu
    channel = emu.add_channel(paced.guild, "fast")
    alice = emu.add_user("alice", paced.guild)
    bob = emu.add_user("bob", paced.guild)
    paced.decks.write_text(json.dumps({str(channel): {"dealer_seat": 1}}))
    table = await open_game(emu, channel, alice, [bob])
    hands = {alice.id: await show_hand(emu, alice, table), bob.id: await show_hand(emu, bob, table)}
    users = {alice.id: alice, bob.id: bob}
    current = alice.id if _my_turn(hands[alice.id]) else bob.id
    edits_before = len(emu.channel_edit_times[channel])
    played = 0
    started = asyncio.get_running_loop().time()
    while played < 40:
        hand = hands[current]
        if not _my_turn(hand):
            current = next(u for u in users if u != current)
            refresh = actions(hands[current])["refresh"]
            hand = await answer(await emu.click(users[current], hands[current], refresh))
            hands[current] = hand
            assert _my_turn(hand), hand.text
        hand = await take_turn(emu, users[current], hand)
        hands[current] = hand
        played += 1
        if version_of(hand) is None or "next" in actions(hand):
            break  # the round ended: enough
    elapsed = asyncio.get_running_loop().time() - started
    final = version_of(hand)
    # The last state reaches the table (latest wins), within one interval.
    if final is not None and "next" not in actions(hand):
        await Table(emu, channel).at_version(final, timeout=3)
    await asyncio.sleep(1.2)
    edits = len(emu.channel_edit_times[channel]) - edits_before
    assert played >= 15, played
    assert edits <= elapsed + 2 and edits * 3 <= played, (edits, played, elapsed)
    assert emu.edits_in_window(channel, 5.0) <= 6
    tables = [
        m for m in emu.channel_messages(channel) if any(HAND_ID.match(c) for c in m.custom_ids)
    ]
    assert len(tables) == 1, "one table message, edited in place"
    emu.assert_clean()


async def test_an_expired_interaction_is_never_tried_again(paced: Paced) -> None:
    emu = paced.emu
    channel = emu.add_channel(paced.guild, "late")
    alice = emu.add_user("alice2", paced.guild)
    bob = emu.add_user("bob2", paced.guild)
    table = await open_game(emu, channel, alice, [bob])
    first_violation = len(emu.violations)
    first_request = len(emu.requests)
    emu.callback_deadline = 0.0  # every answer arrives too late: Discord says 10062
    try:
        results = [
            await emu.click(alice, table, next(c for c in table.custom_ids if HAND_ID.match(c))),
            await emu.click(bob, table, next(c for c in table.custom_ids if HAND_ID.match(c))),
            await emu.slash(alice, channel, "uno rules"),
            await emu.slash(bob, channel, "uno table"),
        ]
        for result in results:
            await result.wait(2)
        await asyncio.sleep(1.0)  # time for any (wrong) second attempt
    finally:
        emu.callback_deadline = 3.0
    assert all(r.failed for r in results)
    tokens = {r.interaction.token: r.id for r in results}
    calls: dict[int, int] = {}
    for req in emu.requests[first_request:]:
        if m := re.match(r"^/interactions/(\d+)/([^/]+)/callback$", req.path):
            calls[int(m[1])] = calls.get(int(m[1]), 0) + 1
        elif req.path.startswith("/webhooks/"):
            assert not any(t in req.path for t in tokens), f"a dead token used again: {req.path}"
    assert calls == {r.id: 1 for r in results}, calls
    kinds = [v.kind for v in emu.violations[first_violation:]]
    assert set(kinds) <= {"late_callback"} and len(kinds) == len(results), kinds
    # The game carries on normally afterwards.
    hand = await show_hand(emu, alice, table)
    assert actions(hand)
