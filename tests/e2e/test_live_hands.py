"""Open hands follow the game: the bot edits each player's latest hand as their view changes.

A player who keeps the hand of their last click sees their turn arrive in it (no Refresh), has
one live hand (opening another deletes the previous), and sees cards someone else's action
gave them. How many clicks a turn takes overall: benchmarks/clicks_per_turn.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from testing.fakediscord import FakeDiscord, Message
from testing.players import actions, answer, card_buttons, deal, hand_size, open_game, show_hand

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _game(s: Any, hands: list[str], starter: str) -> tuple[FakeDiscord, list[Any], Message]:
    """Alice, Bob and Carol with these cards; Alice plays first."""
    emu = s.emu
    channel = s.channel()
    users = s.users("alice", "bob", "carol")
    s.fix_deal(channel, {"deck": deal(hands, starter), "dealer_seat": 2})
    table = await open_game(emu, channel, users[0], users[1:])
    return emu, users, table


def plays(hand: Message) -> list[str]:
    return [a for a in actions(hand) if a.startswith("play:")]


async def test_open_hand_is_edited_when_the_turn_arrives(s) -> None:
    emu, (alice, bob, carol), table = await _game(
        s, ["R1 R2 G3 G4 Y5 Y6 B7", "R3 R4 G5 G6 Y7 Y8 B9", "R6 R7 G7 G8 Y9 B1 B2"], "R5"
    )
    a_hand = await show_hand(emu, alice, table)
    b_hand = await show_hand(emu, bob, table)
    c_hand = await show_hand(emu, carol, table)
    assert plays(b_hand) == [] and "Waiting for **Alice" in b_hand.text
    a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["play:R1"]))
    # Bob's hand, opened before and never clicked since, now offers his red cards.
    await emu.wait_for(lambda: plays(b_hand), 5, what="bob's hand shows his turn")
    assert "Your turn" in b_hand.text, b_hand.text
    assert set(plays(b_hand)) == {"play:R3", "play:R4"}
    # Carol's open hand names the new current player too.
    await emu.wait_for(lambda: "Waiting for **Bob" in c_hand.text, 5, what="carol's hand")
    # Bob plays from it in one click, and then Carol's hand is hers to play.
    b_hand = await answer(await emu.click(bob, b_hand, actions(b_hand)["play:R3"]))
    await emu.wait_for(lambda: plays(c_hand), 5, what="carol's hand shows her turn")
    assert set(plays(c_hand)) == {"play:R6", "play:R7"}
    # Alice's hand (the answer to her move) follows as well.
    await emu.wait_for(lambda: "Waiting for **Carol" in a_hand.text, 5, what="alice's hand")
    assert len(emu.ephemerals(bob)) == 1


async def test_one_live_hand_per_player(s) -> None:
    emu, (alice, bob, _carol), table = await _game(
        s, ["R1 R2 G3 G4 Y5 Y6 B7", "R3 R4 G5 G6 Y7 Y8 B9", "R6 R7 G7 G8 Y9 B1 B2"], "R5"
    )
    first = await show_hand(emu, bob, table)
    second = await show_hand(emu, bob, table)
    await emu.wait_for(lambda: first.deleted, 5, what="bob's first hand deleted")
    assert not second.deleted and emu.ephemerals(bob) == [second]
    # A move answered in place (a click on the live hand) keeps that one message.
    a_hand = await show_hand(emu, alice, table)
    a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["play:R1"]))
    await emu.wait_for(lambda: plays(second), 5, what="bob's turn in his hand")
    after = await answer(await emu.click(bob, second, actions(second)["play:R3"]))
    assert after.message_id == second.message_id and not after.deleted
    assert emu.ephemerals(bob) == [second] and emu.ephemerals(alice) == [a_hand]


async def test_penalty_from_someone_else_shows_in_the_open_hand(s) -> None:
    emu, (alice, bob, carol), table = await _game(
        s, ["RD R2 G3 G4 Y5 Y6 B7", "G5 G6 Y7 Y8 B9 B8 Y1", "R6 R7 G7 G8 Y9 B1 B2"], "R5"
    )
    b_hand = await show_hand(emu, bob, table)
    c_hand = await show_hand(emu, carol, table)
    assert hand_size(b_hand) == 7
    a_hand = await show_hand(emu, alice, table)
    await answer(await emu.click(alice, a_hand, actions(a_hand)["play:RD"]))
    # Bob draws two without a click (no stacking by default): his open hand shows them.
    await emu.wait_for(lambda: hand_size(b_hand) == 9, 5, what="bob's two penalty cards")
    assert plays(b_hand) == []
    # One line tells Bob what happened to him, naming the cards he drew, speaking to him.
    first_line = b_hand.text.splitlines()[1]
    assert first_line.startswith(f"{alice.global_name} played 🟥 Red Draw Two · You drew 2 cards: ")
    # The list of drawn cards ends its sentence: "..., 🟥 Red 1 · You are skipped".
    assert first_line.endswith(" · You are skipped"), first_line
    assert bob.global_name not in b_hand.text, b_hand.text
    # His cards are on his buttons, not listed a second time in the text.
    held = [name for name, _ in card_buttons(b_hand)]  # (a button: its label, or its card)
    assert "Your cards" not in b_hand.text and held.count("Yellow 7") == 1, (b_hand.text, held)
    # Carol, skipped past Bob, finds her turn in the hand she opened before.
    await emu.wait_for(lambda: plays(c_hand), 5, what="carol's turn")
    assert "Your turn" in c_hand.text
    assert f"{bob.global_name} drew 2 cards, is skipped" in c_hand.text, c_hand.text
