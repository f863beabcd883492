"""Absent players, as the players present see it (issue 22, points 4 and 5).

Nobody waits on an absent host: the next round starts by itself after a short countdown (15 s,
the server's `round_break`, whatever the turn timer) shown on the table and in every hand,
anyone at the table may start it sooner or ask to wait (issue 32, point 3), and with the turn
timer off the host is pinged once when a round ends. A player whose time runs out is told so in
their own hand, warned in their hand and their turn ping before the timeout that removes them,
and once removed their hand says why and has no buttons left.

A world of its own (its server's turn timer and break are changed here), with timers 20 times
faster: the 15-s break -> 0.75 s, a Wait's 30 s -> 1.5 s, a 60 s turn timer -> 3 s.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from testing.fakediscord import FakeDiscord
from testing.fakediscord.markdown import plain
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

#: UNO_TEST_TIMER_SCALE of this world: every timer, the break between rounds too.
SCALE = 0.05


class RoundWorld(BotWorld):
    prefix = "rounds"

    async def turn_timer(self, channel: int, value: str) -> None:
        await self.set_option(channel, "turn_timer", value)

    async def round_break(self, channel: int, value: str) -> None:
        await self.set_option(channel, "round_break", value)

    async def one_card_round(self, channel: int, host: Any, other: Any) -> Any:
        """A game whose first round `host` wins with their first play: the table after it."""
        spec = {"deck": deal(["R1", "B7"], "R5"), "dealer_seat": 1, "rules": {"hand_size": 1}}
        self.fix_deal(channel, spec)
        table = await open_game(self.emu, channel, host, [other])
        hand = await show_hand(self.emu, host, table)
        await answer(await self.emu.click(host, hand, actions(hand)["play:R1"]))
        return await self.emu.wait_for(
            table_with(self.emu, channel, "Anyone at the table"), 5, what="the round's end"
        )


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[RoundWorld]:
    tmp = tmp_path_factory.mktemp("rounds")
    async with running_world(RoundWorld, tmp, "Rounds", UNO_TEST_TIMER_SCALE=str(SCALE)) as world:
        yield world


def _pings_for(emu: FakeDiscord, channel: int, user: Any) -> list[Any]:
    return [m for m in emu.channel_messages(channel) if f"<@{user.id}>" in (m.content or "")]


async def test_anyone_at_the_table_starts_the_next_round(world: RoundWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.round_break(channel, "300")  # 15 s here: the countdown never runs out first
    table = await world.one_card_round(channel, alice, bob)
    assert "The next round starts <t:" in table.text, table.text
    await answer(await emu.click(bob, table, actions(table)["next"]))  # Bob is not the host
    await emu.wait_for(table_with(emu, channel, "UNO — round 2"), 5, what="round 2 by Bob")


async def test_the_next_round_starts_by_itself_and_the_host_hears_once(world: RoundWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.turn_timer(channel, "off")  # nobody watches a clock: the host is told
    await world.round_break(channel, "15")  # the default (one server for the whole module)
    await world.one_card_round(channel, alice, bob)
    ping = await emu.wait_for(
        lambda: next(iter(_pings_for(emu, channel, alice)), None), 5, what="the host's ping"
    )
    assert "the next one starts <t:" in ping.content, ping.content
    assert ping.notified == {alice.id}  # the host, and only the host
    # Nobody clicks: 15 s (0.75 s here) later the next round is dealt, and the ping is gone.
    await emu.wait_for(table_with(emu, channel, "UNO — round 2"), 10, what="round 2 by itself")
    await emu.wait_for(lambda: ping.deleted, 5, what="the host's ping deleted")
    ever = [m for m in emu.messages.values() if m.channel_id == channel and m.notified]
    assert ever == [ping]  # once, and the only message that notified anybody


async def test_without_a_click_the_next_round_starts_within_20_s_whatever_the_timer(
    world: RoundWorld,
) -> None:
    """Issue 32: "no round break longer than 20 s without a click". The break is 15 s (0.75 s
    here) even with a 10-minute turn timer (which used to be the break: 30 s here), and every
    hand counts it down: who won, the totals, the countdown, Next round / Wait / Leave."""
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.turn_timer(channel, "600")
    await world.round_break(channel, "15")  # the default (one server for the whole module)
    spec = {"deck": deal(["R1", "B7"], "R5"), "dealer_seat": 1, "rules": {"hand_size": 1}}
    world.fix_deal(channel, spec)
    table = await open_game(emu, channel, alice, [bob])
    bob_hand = await show_hand(emu, bob, table)
    alice_hand = await show_hand(emu, alice, table)
    clicked = time.time()
    await answer(await emu.click(alice, alice_hand, actions(alice_hand)["play:R1"]))
    seen = await emu.wait_for(
        lambda: "won round 1" in bob_hand.text and bob_hand, 5, what="Bob's hand at the end"
    )
    text = plain(seen.text).replace("**", "")
    assert f"{alice.username} won round 1!" in text.lower(), text
    assert f"totals: {alice.username} 7 (+7) · {bob.username} 0" in text.lower(), text  # a 7 held
    when = re.search(r"The next round starts <t:(\d+):R>\.", text)
    assert when is not None, text
    # 0.75 s after the round's end here (15 s unscaled): between the click and now, give or
    # take the timestamp's whole seconds (a bound from the clock, not a race with the bot).
    assert int(clicked) - 1 <= int(when[1]) <= time.time() + 2, (clicked, when[1])
    assert list(actions(seen)) == ["next", "wait", "leave", "refresh"], seen.buttons
    ended = await emu.wait_for(table_with(emu, channel, "Anyone at the table"), 5, what="end")
    assert {"next", "wait"} <= set(actions(ended)), ended.buttons  # the table's Wait too
    # Nobody clicks: round 2 starts by itself (its 15 s, scaled, counted in the hand above).
    await emu.wait_for(table_with(emu, channel, "UNO — round 2"), 10, what="round 2 by itself")


async def test_wait_gives_the_table_30_s_more_once_per_person(world: RoundWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.round_break(channel, "60")  # 3 s here; a Wait adds 30 s: 1.5 s
    table = await world.one_card_round(channel, alice, bob)
    hand = await show_hand(emu, bob, table)  # the break's hand: Next round, Wait, Leave
    wait = actions(hand)["wait"]
    clicked = time.monotonic()
    waited = await answer(await emu.click(bob, hand, wait))
    assert "You asked to wait: the next round starts <t:" in waited.text, waited.text
    assert "wait" not in actions(waited)  # spent for Bob in this break
    assert "wait" in actions(waited, enabled_only=False)
    current = Table(emu, channel).message()
    assert current is not None and "wait" in actions(current)  # Alice may still ask
    tables_wait = actions(current)["wait"]
    again = await answer(await emu.click(bob, current, tables_wait))  # Bob, on the table
    assert "You already asked to wait in this break." in again.text, again.text
    await emu.wait_for(table_with(emu, channel, "UNO — round 2"), 10, what="round 2 after all")
    # Never before the Wait's 30 s (1.5 s here) from its click, nor the break's 3 s.
    assert time.monotonic() - clicked >= 30 * SCALE
    late = await answer(await emu.click(alice, current, tables_wait))
    assert "the next round has already started" in late.text, late.text


async def test_leave_in_the_break_s_hand_leaves_the_game(world: RoundWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob, cat = world.users("alice", "bob", "cat")
    await world.round_break(channel, "300")  # 15 s here: nobody's round starts meanwhile
    spec = {"deck": deal(["R1", "B7", "G2"], "R5"), "dealer_seat": 2, "rules": {"hand_size": 1}}
    world.fix_deal(channel, spec)
    table = await open_game(emu, channel, alice, [bob, cat])
    cat_hand = await show_hand(emu, cat, table)
    alice_hand = await show_hand(emu, alice, table)
    await answer(await emu.click(alice, alice_hand, actions(alice_hand)["play:R1"]))
    await emu.wait_for(lambda: "leave" in actions(cat_hand), 5, what="Cat's hand at the end")
    left = await answer(await emu.click(cat, cat_hand, actions(cat_hand)["leave"]))
    assert "left the game" in left.text, left.text
    await emu.wait_for(lambda: not actions(cat_hand), 5, what="Cat's hand without buttons")
    assert "You left the game." in cat_hand.text, cat_hand.text
    # (the table's edit and the hands' edits go out side by side: wait for the table's)
    nexts = await emu.wait_for(
        lambda: m if (m := Table(emu, channel).message()) and "next" in actions(m) else None,
        5,
        what="the table's Next round",
    )
    await answer(await emu.click(bob, nexts, actions(nexts)["next"]))  # the two others play on
    await emu.wait_for(table_with(emu, channel, "UNO — round 2"), 5, what="round 2")


async def test_a_player_whose_time_runs_out_is_told_warned_and_removed(world: RoundWorld) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.turn_timer(channel, "60")  # 3 s here; turn pings after 10 s: 0.5 s
    walks_away = " ".join(f"{c}{n}" for c in "YG" for n in range(1, 8))
    plays_red = " ".join([*(f"R{n}" for n in range(1, 9)), *(f"R{n}" for n in range(1, 7))])
    spec = {"deck": deal([walks_away, plays_red], "R9"), "dealer_seat": 1}
    world.fix_deal(channel, {**spec, "rules": {"hand_size": 14}})
    table = await open_game(emu, channel, alice, [bob])
    alice_hand = await show_hand(emu, alice, table)  # then Alice walks away
    bob_hand = await show_hand(emu, bob, table)
    for lost in (1, 2):
        await emu.wait_for(
            lambda n=lost: f"Your time ran out ({n}/3 in a row)" in alice_hand.text,
            10,
            what=f"Alice's hand telling timeout {lost}",
        )
        if lost == 2:
            assert "If your next turn runs out too, you leave the game." in alice_hand.text
        # Bob plays his turn at once (his hand follows the game), so Alice's turn comes back.
        await emu.wait_for(lambda h=bob_hand: "play:" in " ".join(actions(h)), 5, what="Bob's turn")
        bob_hand = await take_turn(emu, bob, bob_hand)
    # Her third turn: the ping she gets carries the warning, not only the table.
    ping = await emu.wait_for(
        lambda: next(
            (m for m in _pings_for(emu, channel, alice) if "leave the game" in m.content), None
        ),
        5,
        what="the last-chance ping",
    )
    assert ping.notified == {alice.id}
    await emu.wait_for(
        lambda: "you were removed from this game" in alice_hand.text, 10, what="the removal"
    )
    assert not actions(alice_hand), alice_hand.buttons  # no enabled button left
