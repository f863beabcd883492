"""Turn pings and the turn timer's countdown, on a bot whose timers run 100 times faster.

UNO_TEST_TIMER_SCALE=0.01 scales the turn timer and the ping's grace alike: a 10 s grace is
0.1 s, a 600 s one 6 s (longer than any click here takes). Each test sets the server's
`turn_ping` and `turn_timer` it needs first (one server for the whole module).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest
import pytest_asyncio

from testing.fakediscord import Message
from testing.players import (
    Table,
    actions,
    answer,
    deal,
    open_game,
    show_hand,
    table_with,
    take_turn,
)
from tests.e2e.worlds import BotWorld, running_world

pytestmark = pytest.mark.asyncio(loop_scope="session")

COUNTDOWN = re.compile(r"<t:(\d+):R>")
WARNING = "if this one runs out too, they leave the game"


class PingWorld(BotWorld):
    prefix = "ping"

    def fix_hands(self, channel: int, hands: list[str], starter: str) -> None:
        """These hands and this starter; seat 0 begins."""
        self.fix_deal(channel, {"deck": deal(hands, starter), "dealer_seat": len(hands) - 1})

    async def configure(self, channel: int, **values: str) -> None:
        for option, value in values.items():
            await self.set_option(channel, option, value)

    def pings(self, channel: int) -> list[Message]:
        """Every turn ping the channel got, deleted ones too, oldest first."""
        return [
            m
            for m in self.emu.messages.values()
            if m.channel_id == channel and m.ephemeral_for is None and "your turn" in m.content
        ]

    def alive(self, channel: int) -> list[Message]:
        return [m for m in self.pings(channel) if not m.deleted]

    def stored_deadline(self, game_id: int) -> datetime:
        with sqlite3.connect(self.db) as con:
            (raw,) = con.execute(
                "SELECT turn_deadline FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        return datetime.fromisoformat(raw).replace(tzinfo=UTC)


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[PingWorld]:
    tmp = tmp_path_factory.mktemp("pings")
    async with running_world(PingWorld, tmp, "Pings", UNO_TEST_TIMER_SCALE="0.01") as world:
        yield world


async def test_the_player_whose_turn_starts_is_pinged_and_only_them(world: PingWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.configure(channel, turn_timer="off", turn_ping="100")  # 1 s here
    world.fix_hands(channel, ["G1 R2 R3 R4 R5 R6 R7", "G2 B2 B3 B4 B5 B6 B7"], "G5")
    table = await open_game(emu, channel, alice, [bob])

    ping = await emu.wait_for(lambda: next(iter(world.alive(channel)), None), 5, what="a ping")
    assert f"<@{alice.id}>" in ping.content and "UNO" in ping.content
    assert ping.notified == {alice.id}  # a new message: it notifies, and nobody else
    allowed = ping.allowed_mentions or {}
    assert [int(u) for u in allowed["users"]] == [alice.id]
    assert allowed["parse"] == [] and not allowed.get("replied_user")

    hand = await show_hand(emu, alice, table)
    await answer(await emu.click(alice, hand, actions(hand)["play:G1"]))
    await emu.wait_for(lambda: ping.deleted, 5, what="the ping deleted once the turn is taken")
    bobs = await emu.wait_for(lambda: next(iter(world.alive(channel)), None), 5, what="bob's")
    assert bobs.notified == {bob.id} and f"<@{alice.id}>" not in bobs.content
    assert world.alive(channel) == [bobs]  # one reminder per channel
    # Deleted as alice played, not only when bob's came (a grace later).
    assert ping.deleted_at is not None and bobs.created_at - ping.deleted_at > 0.5


async def test_a_player_who_acts_within_the_grace_is_not_pinged(world: PingWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.configure(channel, turn_timer="off", turn_ping="600")  # 6 s here
    world.fix_hands(channel, ["G1 R2 R3 R4 R5 R6 R7", "G2 B2 B3 B4 B5 B6 B7"], "G5")
    table = await open_game(emu, channel, alice, [bob])
    hand = await show_hand(emu, alice, table)
    await answer(await emu.click(alice, hand, actions(hand)["play:G1"]))
    await emu.wait_for(
        lambda: Table(emu, channel).current_player(Table(emu, channel).message()) == bob.id,
        5,
        what="bob's turn on the table",
    )
    assert world.pings(channel) == [], [m.content for m in world.pings(channel)]


async def test_computer_players_are_never_pinged(world: PingWorld) -> None:
    emu = world.emu
    channel = world.channel()
    (alice,) = world.users("alice")
    await world.configure(channel, turn_timer="off", turn_ping="now")
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    lobby = await answer(await emu.click(alice, lobby, label="Add computer"))
    table = await answer(await emu.click(alice, lobby, label="Start"))
    for turn in range(1, 4):  # alice's turns, each after the computer's move
        await emu.wait_for(
            lambda n=turn: len(world.pings(channel)) >= n and world.alive(channel),
            10,
            what=f"alice's ping {turn}",
        )
        table = await emu.wait_for(
            lambda: (
                (m := Table(emu, channel).message()) is not None
                and Table(emu, channel).current_player(m) == alice.id
                and m
            ),
            5,
            what="alice's turn",
        )
        hand = await take_turn(emu, alice, await show_hand(emu, alice, table))
        if "keep" in actions(hand):
            await answer(await emu.click(alice, hand, actions(hand)["keep"]))
        await emu.wait_for(lambda n=turn: world.pings(channel)[n - 1].deleted, 5, what="deleted")
    pings = world.pings(channel)
    assert all(p.notified == {alice.id} for p in pings), [p.content for p in pings]
    assert not any(re.search(r"<@-\d+>", p.content) for p in pings)


async def test_turn_pings_can_be_turned_off(world: PingWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.configure(channel, turn_timer="60", turn_ping="off")  # the turn: 0.6 s here
    await open_game(emu, channel, alice, [bob])
    await emu.wait_for(table_with(emu, channel, "ran out of time"), 5, what="a timeout")
    assert world.pings(channel) == [], [m.content for m in world.pings(channel)]
    await world.configure(channel, turn_ping="0")  # and on again: the next turn pings at once
    await emu.wait_for(lambda: world.pings(channel), 5, what="a ping once they are on")


async def test_the_table_counts_the_turn_down(world: PingWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.configure(channel, turn_timer="450", turn_ping="off")  # 4.5 s here
    world.fix_hands(channel, ["G1 R2 R3 R4 R5 R6 R7", "G2 B2 B3 B4 B5 B6 B7"], "G5")
    table = await open_game(emu, channel, alice, [bob])
    found = COUNTDOWN.search(table.text)
    assert found, table.text
    deadline = world.stored_deadline(Table(emu, channel).game_id)
    assert int(found[1]) == int(deadline.timestamp())
    assert "draws a card and passes" in table.text and WARNING not in table.text

    hand = await show_hand(emu, alice, table)
    await answer(await emu.click(alice, hand, actions(hand)["play:G1"]))
    bobs = await emu.wait_for(
        lambda: (
            (m := Table(emu, channel).message()) is not None
            and Table(emu, channel).current_player(m) == bob.id
            and m
        ),
        5,
        what="bob's turn",
    )
    again = COUNTDOWN.search(bobs.text)
    assert again, bobs.text
    assert int(again[1]) == int(world.stored_deadline(Table(emu, channel).game_id).timestamp())


async def test_the_timeout_that_would_remove_a_player_is_announced(world: PingWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.configure(channel, turn_timer="120", turn_ping="off")  # 1.2 s here
    world.fix_hands(channel, ["R1 R2 R3 R4 R5 R6 R7", "B1 B2 B3 B4 B5 B6 B7"], "G5")
    await open_game(emu, channel, alice, [bob])
    warned = await emu.wait_for(table_with(emu, channel, WARNING), 15, what="the warning")
    assert Table(emu, channel).current_player(warned) == alice.id  # her third timeout is next
    assert "2 turns in a row" in warned.embeds[0]["description"]
    # It was not shown before: the tables with fewer lost turns had no warning.
    earlier = [s for s in warned.history if WARNING in json.dumps(s.get("embeds"))]
    assert all(json.dumps(s["embeds"]).count("ran out of time") >= 3 for s in earlier)
    await emu.wait_for(table_with(emu, channel, "(3 turns in a row)"), 10, what="removal")
