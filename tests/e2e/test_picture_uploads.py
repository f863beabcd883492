"""No picture is uploaded twice to a message: an edit whose picture is unchanged names the
attachment the message already has (Discord keeps it) instead of sending the same bytes again.
The emulator sees every upload of an edit and records those equal to a picture the message
already showed (`identical_uploads`)."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from testing.fakediscord import Message
from testing.players import actions, answer, deal, open_game, play_match, show_hand

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_match_uploads_no_picture_its_message_already_shows(s) -> None:
    emu = s.emu
    channel = s.channel()
    players = s.users("ada", "bea", "cy")
    since = len(emu.identical_uploads)
    uploads_before = set(emu.attachment_blobs)
    await open_game(emu, channel, players[0], players[1:], target=100)
    rounds = await play_match(emu, channel, players[0], players)
    assert rounds >= 1
    await asyncio.sleep(1.5)  # the last edits of the hands and the table land
    names = [emu.attachment_names[a] for a in emu.attachment_blobs if a not in uploads_before]
    assert "table.png" in names and "hand.png" in names  # pictures were shown at all
    again = [u for u in emu.identical_uploads[since:] if u[0] == channel]
    routes = Counter((name, route) for _, name, _, route in again)
    assert again == [], f"{len(again)} pictures uploaded again: {dict(routes)}"


async def test_a_waiting_players_hand_keeps_its_picture_while_the_others_play(s) -> None:
    """The hand picture shows the cards alone, those one may play standing up on one's turn:
    the others' moves edit a waiting player's hand (whose turn, the card to match, the
    buttons) and keep its file; one's turn coming, or a move that changes the hand, uploads
    the new picture."""
    emu = s.emu
    channel = s.channel()
    alice, bob, carol = s.users("alice", "bob", "carol")
    hands = ["R1 R2 G3 G4 Y5 Y6 B7", "R3 R4 G5 G6 Y7 Y8 B9", "R6 R7 G7 G8 Y9 B1 B2"]
    s.fix_deal(channel, {"deck": deal(hands, "R5"), "dealer_seat": 2})
    table = await open_game(emu, channel, alice, [bob, carol])
    a_hand = await show_hand(emu, alice, table)
    b_hand = await show_hand(emu, bob, table)
    c_hand = await show_hand(emu, carol, table)

    def picture_id(hand: Message) -> str:
        (attachment,) = hand.attachments
        assert attachment["filename"] == "hand.png"
        return str(attachment["id"])

    carols, bobs = picture_id(c_hand), picture_id(b_hand)
    await answer(await emu.click(alice, a_hand, actions(a_hand)["play:R1"]))
    await emu.wait_for(lambda: "Waiting for **Bob" in c_hand.text, 5, what="carol's hand")
    await emu.wait_for(lambda: "Your turn" in b_hand.text, 5, what="bob's turn in his hand")
    assert picture_id(c_hand) == carols  # still waiting: her picture kept
    assert picture_id(b_hand) != bobs  # his turn came: the cards he may play stand up
    bobs = picture_id(b_hand)
    b_hand = await answer(await emu.click(bob, b_hand, actions(b_hand)["play:R3"]))
    assert picture_id(b_hand) != bobs  # he played a card: his new hand
    await emu.wait_for(lambda: "Your turn" in c_hand.text, 5, what="carol's turn in her hand")
    assert picture_id(c_hand) != carols and "R6" in " ".join(actions(c_hand))
