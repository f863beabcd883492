"""An open hand is kept up to date only while its interaction token lives, and never after.

This bot keeps a hand's token for HAND_TOKEN_TTL = 3 s (Discord: 15 minutes, the bot 14), so
the emulator's `token_ttl` can be set around it: once the bot's own count says the token is
spent it sends nothing through it; when Discord refuses a token first (401) the bot forgets it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord, Message
from testing.fakediscord.process import BotProcess
from testing.players import HAND_ID, actions, answer, deal, open_game, show_hand
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="session")

BOT_TTL = 3.0
HANDS = ["R1 R2 G3 G4 Y5 Y6 B7", "R3 R4 G5 G6 Y7 Y8 B9", "R6 R7 G7 G8 Y9 B1 B2"]


@dataclass
class Short:
    emu: FakeDiscord
    bot: BotProcess
    guild: Any
    decks: Path


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def short(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Short]:
    tmp = tmp_path_factory.mktemp("tokens")
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Short")
    env = bot_env(emu, tmp, DEV_GUILD_ID=str(guild.id), HAND_TOKEN_TTL=str(BOT_TTL))
    bot = emu.bot_process(env=env, cwd=str(ROOT))
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        yield Short(emu, bot, guild, tmp / "decks.json")
    finally:
        await bot.stop()
        await emu.stop()


async def _game(short: Short, name: str) -> tuple[list[Any], Message]:
    emu = short.emu
    channel = emu.add_channel(short.guild, name)
    users = [emu.add_user(f"{n}-{name}", short.guild) for n in ("alice", "bob", "carol")]
    short.decks.write_text(
        json.dumps({str(channel): {"deck": deal(HANDS, "R5"), "dealer_seat": 2}})
    )
    return users, await open_game(emu, channel, users[0], users[1:])


async def _open(emu: FakeDiscord, user: Any, table: Message) -> tuple[Message, str]:
    """Show my hand: the message and its interaction's token."""
    res = await emu.click(user, table, next(c for c in table.custom_ids if HAND_ID.match(c)))
    return await answer(res), res.interaction.token


def _uses(emu: FakeDiscord, token: str, since: int) -> list[Any]:
    return [r for r in emu.requests[since:] if r.path.startswith("/webhooks/") and token in r.path]


def plays(hand: Message) -> list[str]:
    return [a for a in actions(hand) if a.startswith("play:")]


async def test_no_edit_through_a_token_the_bot_counts_as_expired(short: Short) -> None:
    emu = short.emu
    start = (len(emu.requests), len(emu.violations))
    (alice, bob, carol), table = await _game(short, "spent")
    b_hand, b_token = await _open(emu, bob, table)
    await asyncio.sleep(BOT_TTL + 0.3)  # Discord (900 s) would still take it; the bot's count not
    c_hand = await show_hand(emu, carol, table)
    a_hand = await show_hand(emu, alice, table)
    await answer(await emu.click(alice, a_hand, actions(a_hand)["play:R1"]))
    # Carol's fresh hand is edited in the same pass that skips Bob's spent one.
    await emu.wait_for(lambda: "Waiting for **Bob" in c_hand.text, 5, what="carol's hand")
    assert _uses(emu, b_token, start[0]) == []
    assert plays(b_hand) == [] and "Waiting for **Alice" in b_hand.text
    assert emu.violations[start[1] :] == []


async def test_a_token_discord_refuses_is_forgotten(short: Short) -> None:
    emu = short.emu
    start = (len(emu.requests), len(emu.violations))
    (alice, bob, carol), table = await _game(short, "refused")
    emu.token_ttl = 1.0  # Discord gives up on this token before the bot would
    try:
        b_hand, b_token = await _open(emu, bob, table)
    finally:
        emu.token_ttl = 900.0
    await asyncio.sleep(1.2)
    a_hand = await show_hand(emu, alice, table)
    await answer(await emu.click(alice, a_hand, actions(a_hand)["play:R1"]))
    refused = await emu.wait_for(
        lambda: [r for r in _uses(emu, b_token, start[0]) if r.status == 401], 5, what="a 401"
    )
    assert len(refused) == 1
    # Bob opens a new hand and plays: nothing more goes to the refused token (no delete either).
    b_new = await show_hand(emu, bob, table)
    await answer(await emu.click(bob, b_new, actions(b_new)["play:R3"]))
    c_hand = await show_hand(emu, carol, table)
    await answer(await emu.click(carol, c_hand, actions(c_hand)["play:R6"]))
    await emu.wait_for(lambda: "Waiting for **Alice" in b_new.text, 5, what="bob's new hand")
    assert len(_uses(emu, b_token, start[0])) == 1
    assert [v.kind for v in emu.violations[start[1] :]] == ["expired_token"]
    assert not b_hand.deleted  # no DELETE through the refused token
