"""Turn timers and lobby expiry, on a bot of its own whose timers run 100 times faster.

UNO_TEST_TIMER_SCALE=0.01 makes the default 60 s turn 0.6 s; LOBBY_CLOSE_AFTER=2 closes lobbies
after 2 s. The restart test kills the bot (SIGKILL) and checks the stored deadline still fires.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from testing.fakediscord import MANAGE_GUILD
from testing.players import Table, answer, deal, open_game, show_hand, table_with, take_turn
from tests.e2e.worlds import BotWorld, running_world

pytestmark = pytest.mark.asyncio(loop_scope="session")


class TimerWorld(BotWorld):
    prefix = "timer"


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[TimerWorld]:
    tmp = tmp_path_factory.mktemp("timers")
    async with running_world(
        TimerWorld, tmp, "Timers", UNO_TEST_TIMER_SCALE="0.01", LOBBY_CLOSE_AFTER="2"
    ) as world:
        yield world


async def test_a_timed_out_turn_draws_and_passes(world: TimerWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    spec = {"deck": deal(["R1 R2 R3 R4 R5 R6 R7", "B1 B2 B3 B4 B5 B6 B7"], "G5"), "dealer_seat": 1}
    world.decks.write_text(json.dumps({str(channel): spec}))
    table = await open_game(emu, channel, alice, [bob])
    assert Table(emu, channel).current_player(table) == alice.id
    msg = await emu.wait_for(table_with(emu, channel, "ran out of time"), 5, what="a timeout")
    # One line for the turn: the timeout and what the bot did for Alice.
    line = next(x for x in msg.text.splitlines() if "ran out of time" in x)
    assert line.endswith(" ran out of time ⏰, drew 1 card"), line
    hand = await show_hand(emu, alice, msg)
    assert "Your hand — 8 cards" in hand.text


async def test_three_timeouts_in_a_row_remove_the_player(world: TimerWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await open_game(emu, channel, alice, [bob])
    msg = await emu.wait_for(table_with(emu, channel, "(3 turns in a row)"), 15, what="a removal")
    msg = await emu.wait_for(table_with(emu, channel, "match is over"), 5, what="the end")
    assert "left the game" in msg.text
    # Removed for inactivity: a game lost. The walkover before any round was won: nothing.
    texts = [
        (await answer(await emu.slash(alice, channel, "uno stats", player=p))).text
        for p in (alice, bob)
    ]
    assert sorted("Games: 0 won of 1 (0%)" in t for t in texts) == [False, True], texts
    assert sum("No games on this server yet" in t for t in texts) == 1, texts


async def test_removed_after_timeouts_from_a_started_match_is_a_rated_loss(
    world: TimerWorld,
) -> None:
    """Alice moves, then lets the clock run; Bob, who never moves, is removed first (his
    third timeout comes before her third): the match had started, so he lost it, rated
    (docs/playing.md), and Alice won it. It used to rate nobody."""
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    spec = {"deck": deal(["R1 R2 R3 R4 R5 R6 R7", "B1 B2 B3 B4 B5 B6 B7"], "R9"), "dealer_seat": 1}
    world.fix_deal(channel, spec)
    table = await open_game(emu, channel, alice, [bob])
    await take_turn(emu, alice, await show_hand(emu, alice, table))
    await emu.wait_for(table_with(emu, channel, "match is over"), 15, what="the end")
    ratings = {}
    for player in (alice, bob):
        stats = await answer(await emu.slash(alice, channel, "uno stats", player=player))
        found = re.search(r"Rating: \*\*([\d,]+)\*\*", stats.text)
        assert found is not None, stats.text
        ratings[player.id] = int(found[1].replace(",", ""))
    assert ratings[bob.id] < 1000 < ratings[alice.id], ratings


async def test_an_unstarted_lobby_closes_itself(world: TimerWorld) -> None:
    emu = world.emu
    channel = world.channel()
    (alice,) = world.users("alice")
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    assert lobby.buttons
    msg = await emu.wait_for(
        lambda: next((m for m in emu.channel_messages(channel) if "closed itself" in m.text), None),
        6,
        what="lobby expiry",
    )
    assert msg.message_id == lobby.message_id and not msg.buttons


async def test_the_turn_timer_survives_a_restart(world: TimerWorld) -> None:
    emu = world.emu
    channel = world.channel()
    (admin,) = world.users("admin", permissions=MANAGE_GUILD)
    alice, bob = world.users("alice", "bob")
    done = await answer(
        await emu.slash(admin, channel, "uno-admin set", option="turn_timer", value="450")
    )
    assert "Turn timer changed" in done.text and "450 s" in done.text
    await open_game(emu, channel, alice, [bob])  # the turn times out 4.5 s from now
    await world.restart(kill=True)
    assert "ran out of time" not in Table(emu, channel).message().text
    await emu.wait_for(table_with(emu, channel, "ran out of time"), 10, what="a timeout")
