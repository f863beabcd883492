"""A saved move moves the game on, whatever becomes of the answer to the player who made it.

The game's owner shows every saved change itself (table, hands, ping) and re-arms its clock; the
answer to the click is one output among the others. Before, the answer came first and the rest
followed it in the click's own task, so an answer that raised (Discord's 5xx on the interaction
callback, a timeout, 404 Unknown Message on a hand deleted meanwhile) skipped the rest: the
table kept showing the old turn, the next computer never moved, the turn timer never fired, and
every later click was "not your turn" until a restart. And a click first seen after Discord's
3 s (the bot stalled) was applied although its player had been told it failed.

A bot of its own, its timers 20 times faster (UNO_TEST_TIMER_SCALE), whose interactions fail on
purpose: the world checks for emulator violations only.
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from testing.fakediscord import FakeDiscord, Message, User
from testing.players import Table, actions, answer, deal, open_game, show_hand, version_of
from tests.e2e.worlds import BotWorld, running_world

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Round 1: alice (first to play) holds reds that follow the red starter; the second seat
#: (a computer, or bob) holds only blues and greens, so it must draw.
HANDS = ["R1 R2 R3 R4 G6 G7 G8", "B1 B2 B3 B4 G1 G2 G3"]
CALLBACK = "/interactions/{id}/{token}/callback"


class OwnerWorld(BotWorld):
    prefix = "owner"


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[OwnerWorld]:
    tmp = tmp_path_factory.mktemp("owner")
    async with running_world(
        OwnerWorld, tmp, "Owner", checked="violations", UNO_TEST_TIMER_SCALE="0.05"
    ) as world:
        yield world


async def _game_with_a_computer(world: OwnerWorld) -> tuple[int, User, Message]:
    """A channel whose game is alice against an easy computer, alice to play; the turn timer
    off (nothing but the computer moves the game by itself)."""
    emu = world.emu
    channel = world.channel()
    await world.set_option(channel, "turn_timer", "0")
    (alice,) = world.users("alice")
    world.fix_deal(channel, {"deck": deal(HANDS, "R5"), "dealer_seat": 1})
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    added = await answer(await emu.slash(alice, channel, "uno addbot", level="easy"))
    assert added.ephemeral and "took a seat" in added.text, added.text

    def startable() -> Message | None:
        shown = Table(emu, channel).message()
        start = shown.button_by_label("Start") if shown is not None else None
        return shown if start is not None and not start.disabled else None

    lobby = await emu.wait_for(startable, 5, what="the lobby with its Start button on")
    table = await answer(await emu.click(alice, lobby, label="Start"))
    assert Table(emu, channel).current_player(table) == alice.id
    return channel, alice, table


async def _back_to(emu: FakeDiscord, channel: int, player: int, after: int) -> Message:
    """The table once it shows a version newer than `after` with `player` to play."""

    def ready() -> Message | None:
        table = Table(emu, channel)
        msg = table.message()
        if msg is None or (version_of(msg) or 0) <= after:
            return None
        return msg if table.current_player(msg) == player else None

    return await emu.wait_for(ready, 10, what="the game moving on past the failed answer")


@pytest.mark.parametrize("fault", ["503", "500", "timeout"])
async def test_a_failed_answer_does_not_stop_the_computer(world: OwnerWorld, fault: str) -> None:
    emu = world.emu
    channel, alice, table = await _game_with_a_computer(world)
    hand = await show_hand(emu, alice, table)
    before = version_of(hand)
    assert before is not None
    if fault == "timeout":
        emu.callback_latency = 4.0  # the answer reaches Discord after its 3 s: refused
    else:
        failing = emu.fail_route("POST", CALLBACK, status=int(fault))
    try:
        click = await emu.click(alice, hand, actions(hand)["play:R1"])
        # The computer answers alice's R1 and the table shows alice to play again, while the
        # answer to her click is still failing (discord.py retries a 500 for ~16 s).
        moved = await _back_to(emu, channel, alice.id, before + 1)
        assert "R1" in moved.text or "Red 1" in moved.text, moved.text
        assert await click.wait() is None, "the answer to the click failed"
    finally:
        emu.callback_latency = 0.0
        if fault != "timeout":
            failing.clear()
    # Her open hand follows the game (edited through its token): her turn, one click to play.
    now = version_of(moved)
    assert now is not None
    mine = await emu.wait_for(
        lambda: m if version_of(m := emu.message_of(hand.id)) == now else None,
        10,
        what="alice's hand showing the game after her failed answer",
    )
    move = next(a for a in actions(mine) if a.startswith("play:") or a == "draw")
    played = await answer(await emu.click(alice, mine, actions(mine)[move]))
    assert (version_of(played) or 0) > now, played.text


async def test_a_failed_answer_does_not_stop_the_turn_timer(world: OwnerWorld) -> None:
    emu = world.emu
    channel = world.channel()
    await world.set_option(channel, "turn_timer", "60")  # 3 s at this world's timer scale
    alice, bob = world.users("alice", "bob")
    world.fix_deal(channel, {"deck": deal(HANDS, "R5"), "dealer_seat": 1})
    table = await open_game(emu, channel, alice, [bob])
    hand = await show_hand(emu, alice, table)
    failing = emu.fail_route("POST", CALLBACK, status=503)
    try:
        click = await emu.click(alice, hand, actions(hand)["play:R1"])
        assert await click.wait() is None, "the answer to the click failed"
    finally:
        failing.clear()
    # Bob, absent, runs out of time: the owner armed the clock after alice's saved move.
    msg = await emu.wait_for(
        lambda: m if "ran out of time" in (m := Table(emu, channel).message()).text else None,
        15,
        what="bob's turn timing out",
    )
    assert Table(emu, channel).current_player(msg) == alice.id


async def test_a_click_on_a_hand_deleted_meanwhile_is_answered_on_a_new_hand(
    world: OwnerWorld,
) -> None:
    emu = world.emu
    channel, alice, table = await _game_with_a_computer(world)
    hand = await show_hand(emu, alice, table)
    before = version_of(hand)
    assert before is not None
    errors_before = world.bot.output.count(" ERROR ")
    violations = len(emu.violations)
    emu.callback_latency = 0.5
    try:
        click = await emu.click(alice, hand, actions(hand)["play:R1"])
        await emu.wait_for(
            lambda: click.id in emu.callbacks_in_transit, 5, what="the answer on its way"
        )
        # The hand goes while the answer to its click is on its way (as when the player opened
        # a new hand and the bot deleted this one): Discord answers 404 Unknown Message.
        emu.delete_message(emu.message_of(hand.id))
        answered = await answer(click)
    finally:
        emu.callback_latency = 0.0
    assert answered.id != hand.id and answered.ephemeral_for == alice.id
    assert "R1" in answered.text or "Red 1" in answered.text, answered.text
    await _back_to(emu, channel, alice.id, before + 1)
    assert world.bot.output.count(" ERROR ") == errors_before, world.bot.log_tail()
    # Discord's 404s that this test made on purpose, and no other: the answer meeting the gone
    # hand, and the bot deleting that hand as the new one replaced it (here the test, not the
    # bot, had deleted it, so the bot could not know it was gone). That DELETE goes out on its
    # own once the new hand's answer is done, not before the table's edit: waited for.
    await emu.wait_for(
        lambda: len(emu.violations) >= violations + 2, 5, what="the bot deleting the gone hand"
    )
    made = emu.violations[violations:]
    assert [(v.method, v.code) for v in made] == [("POST", 10008), ("DELETE", 10008)], made
    assert made[0].interaction_id == click.id
    del emu.violations[violations:]


async def test_a_click_first_seen_after_discords_window_is_not_applied(world: OwnerWorld) -> None:
    emu = world.emu
    channel, alice, table = await _game_with_a_computer(world)
    hand = await show_hand(emu, alice, table)
    before = version_of(hand)
    pid = world.bot.pid
    assert pid is not None
    late_lines = world.bot.output.count("late: not applied")
    os.kill(pid, signal.SIGSTOP)  # the bot stalls: the click waits in its socket
    try:
        click = await emu.click(alice, hand, actions(hand)["play:R1"])
        assert await click.wait(timeout=4.0) is None, "Discord told alice the click failed"
    finally:
        os.kill(pid, signal.SIGCONT)
    await emu.wait_for(
        lambda: world.bot.output.count("late: not applied") > late_lines,
        10,
        what="the bot dropping the late click",
    )
    assert version_of(Table(emu, channel).message()) == before, "the failed click changed nothing"
    # The game is as it was: the same hand plays the same card now.
    played = await answer(await emu.click(alice, hand, actions(hand)["play:R1"]))
    assert "R1" in played.text or "Red 1" in played.text, played.text
