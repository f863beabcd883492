"""A hand is private: no version of any public message ever shows a player's cards.

A click on the public table (Draw, UNO!, Catch, Show my hand) whose save is slow is deferred as
an update of the table, and its answer (the player's hand) follows as an ephemeral follow-up.
Before the fix that deferral was taken for "the answer is this interaction's message" and
registered as the player's live hand: every later change wrote their cards and card buttons
into the public table, and their next hand click deleted the table. The test slows the click by
holding the database's write lock (as test_slow_save does), plays on, and then reads every
version of every public message of the channel.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from testing.fakediscord import FakeDiscord, Message
from testing.fakediscord.state import JSON, walk_components
from testing.players import Table, actions, deal, open_game, show_hand, take_turn
from tests.e2e.test_slow_save import _db_path, _write_locked

pytestmark = pytest.mark.asyncio(loop_scope="session")

DEFERRED_UPDATE = 6
CARD_BUTTON = re.compile(r"^uno:\d+:\d+:play:")
HAND_TEXT = re.compile(r"Your hand|Your turn|Waiting for")


def _versions(msg: Message) -> list[JSON]:
    """Every state the message has had, the first one first."""
    return [*msg.history, msg.snapshot()]


def _private_bits(state: JSON) -> list[str]:
    """What of a player's hand a state of a message shows (nothing, for a public one)."""
    found = [
        c["custom_id"]
        for c in walk_components(state.get("components") or [])
        if CARD_BUTTON.match(c.get("custom_id") or "")
    ]
    texts = [state.get("content") or ""]
    for e in state.get("embeds") or []:
        texts += [e.get("title") or "", e.get("description") or ""]
    found += [m[0] for text in texts if (m := HAND_TEXT.search(text))]
    return found


def _public(emu: FakeDiscord, channel: int) -> list[Message]:
    """Every public message the channel ever had, deleted ones included."""
    return [m for m in emu.messages.values() if m.channel_id == channel and m.ephemeral_for is None]


async def test_a_slow_click_on_the_table_never_puts_a_hand_in_public(s: Any) -> None:
    emu, path = s.emu, _db_path(s)
    channel = s.channel()
    alice, bob, carol = s.users("alice", "bob", "carol")
    hands = ["R3 R4 Y6 Y7 B8 B1 Y2", "G5 G6 Y8 Y9 B2 R6 R7", "G7 G8 Y1 B3 B4 R8 R2"]
    s.fix_deal(channel, {"deck": deal(hands, "G9"), "dealer_seat": 2})
    table = await open_game(emu, channel, alice, [bob, carol])
    b_hand = await show_hand(emu, bob, table)

    # Alice has no green and no 9: she draws (R0, which she cannot play either) from the
    # table while the database is locked.
    with _write_locked(path):
        res = await emu.click(alice, table, actions(table)["draw"])
        assert await res.wait() == DEFERRED_UPDATE, f"not deferred: {res}"
    a_hand = await res.followup()  # her hand, privately, after the save went through
    assert a_hand.ephemeral and a_hand.ephemeral_for == alice.id
    assert res.message is table  # what the deferral was about: the table, left as it was

    # Play on: every change refreshes the live hands, hers (the follow-up) among them.
    await emu.wait_for(lambda: "Your turn" in b_hand.text, 5, what="bob's turn in his hand")
    # A slow click on a private hand is deferred as an update of that hand: it stays live.
    with _write_locked(path):
        res = await emu.click(bob, b_hand, actions(b_hand)["play:G5"])
        assert await res.wait() == DEFERRED_UPDATE, f"not deferred: {res}"
    await emu.wait_for(lambda: "You played" in b_hand.text, 5, what="bob's hand filled in")
    c_hand = await show_hand(emu, carol, Table(emu, channel).message() or table)
    await take_turn(emu, carol, c_hand)
    await emu.wait_for(lambda: "Your turn" in a_hand.text, 5, what="alice's turn in her hand")
    await emu.wait_for(lambda: "Waiting for **Alice" in b_hand.text, 5, what="bob's hand")
    # Her next own click on the table opens a new hand: the old one (the follow-up) goes.
    current = Table(emu, channel).message()
    assert current is not None
    again = await show_hand(emu, alice, current)
    await emu.wait_for(lambda: a_hand.deleted, 5, what="alice's previous hand deleted")
    assert again.ephemeral and not again.deleted

    leaks = {
        (m.id, n): bits
        for m in _public(emu, channel)
        for n, state in enumerate(_versions(m))
        if (bits := _private_bits(state))
    }
    assert leaks == {}, f"a hand showed in public: {leaks}"
    tables = [m for m in _public(emu, channel) if m.id == table.id]
    assert tables and not tables[0].deleted, "the table was deleted by a hand click"
    assert current.id == table.id
