"""Card pictures on Discord: the table and the hand carry their picture, the embed shows it, the
hand's buttons wear the card emojis; `card_images: off` gives text only."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from PIL import Image

from bot.engine import Card
from bot.ui.art.hand_picture import hand_size
from bot.ui.art.table_picture import HEIGHT, WIDTH
from bot.ui.card_emojis import NAME, wanted_emojis
from bot.ui.cards import card_text
from testing.fakediscord import MANAGE_GUILD, FakeDiscord, Message
from testing.players import (
    actions,
    answer,
    card_buttons,
    deal,
    open_game,
    show_hand,
    table_with,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

WANTED = len(wanted_emojis())
CARD_BUTTON = re.compile(r"^uno:\d+:\d+:play:([A-Z0-9]+)$")


def _picture(emu: FakeDiscord, msg: Message, filename: str) -> Image.Image:
    """The message's attachment `filename`, checked to be what its embed shows, and its alt."""
    (attachment,) = [a for a in msg.attachments if a["filename"] == filename]
    assert attachment.get("description"), "a picture without alt text"
    assert msg.embeds[0]["image"]["url"] == attachment["url"]  # the embed points at it
    blob = emu.attachment_blobs[int(attachment["id"])]
    assert blob.startswith(b"\x89PNG")
    image = Image.open(io.BytesIO(blob))
    image.load()
    image.info["alt"] = attachment["description"]
    image.info["bytes"] = len(blob)
    return image


async def test_the_table_and_the_hand_carry_their_pictures(s: Any) -> None:
    emu = s.emu
    channel = s.channel()
    host, guest = s.users("host", "guest")
    # The host plays first, with cards to play (a seeded deal could give them none).
    hands = ["R1 R2 G3 G4 B5 Y6 W", "Y1 Y2 B3 B4 G5 G6 W4"]
    s.fix_deal(channel, {"deck": deal(hands, "R5"), "dealer_seat": 1})
    await open_game(emu, channel, host, [guest])
    table = await emu.wait_for(table_with(emu, channel, "UNO — round 1"), 5)
    picture = _picture(emu, table, "table.png")
    assert picture.size == (WIDTH, HEIGHT) and picture.info["bytes"] <= 60_000
    assert "Host" in picture.info["alt"] and "Guest" in picture.info["alt"]  # their names

    hand = await show_hand(emu, host, table)
    if "color:R" in actions(hand):  # a wild starter: the first player names the colour first
        assert "Your hand, 7 cards" in _picture(emu, hand, "hand.png").info["alt"]
        hand = await answer(await emu.click(host, hand, actions(hand)["color:R"]))
    picture = _picture(emu, hand, "hand.png")
    assert any(enabled for _, enabled in card_buttons(hand))
    # The picture shows the buttons' cards, in their order, every copy, and nothing else.
    expected = []
    for label, _ in card_buttons(hand):
        name, _, copies = label.partition(" ×")
        expected += [name] * int(copies or 1)
    assert picture.info["alt"] == f"Your hand, {len(expected)} cards: {', '.join(expected)}."
    assert picture.size == hand_size(len(expected))


async def test_hand_buttons_wear_the_card_emojis_uploaded_at_start_up(s: Any) -> None:
    emu = s.emu
    await emu.wait_for(lambda: len(emu.app_emojis) >= WANTED, 30, what="the card emojis")
    await emu.wait_for(lambda: "card emojis ready" in s.bot.log_tail(400), 10)
    channel = s.channel()
    host, guest = s.users("host", "guest")
    table = await open_game(emu, channel, host, [guest])
    hand = await show_hand(emu, host, table)
    emojis = hand.button_emojis
    cards = [b for b in hand.buttons if b.custom_id and CARD_BUTTON.match(b.custom_id)]
    assert cards
    for button in cards:
        code = CARD_BUTTON.match(button.custom_id or "")[1]
        emoji = emojis.get(button.custom_id)
        assert emoji is not None and emoji.get("id"), button
        assert emu.app_emojis[int(emoji["id"])]["name"] == emoji["name"]
        assert emoji["name"].startswith(f"uno_{code}_")
    # The card to match is the hand's thumbnail: its emoji's image on Discord's CDN.
    thumbnail = hand.embeds[0]["thumbnail"]["url"]
    found = re.fullmatch(r"https://cdn\.discordapp\.com/emojis/(\d+)\.png", thumbnail)
    assert found is not None, thumbnail
    key = NAME.fullmatch(emu.app_emojis[int(found[1])]["name"])
    assert key is not None
    code = re.sub(r"c[RYGB]$", "", key[1]) if key[1].startswith("W") else key[1]
    assert f"Top card: {card_text(Card.of(code))}" in hand.embeds[0]["description"]


async def test_card_images_off_gives_text_only(s: Any) -> None:
    emu = s.emu
    channel = s.channel()
    (admin,) = s.users("admin", permissions=MANAGE_GUILD)
    (guest,) = s.users("guest")
    set_images = "uno-admin set"
    try:
        done = await answer(
            await emu.slash(admin, channel, set_images, option="card_images", value="off")
        )
        assert "Card pictures" in done.text
        table = await open_game(emu, channel, admin, [guest])
        table = await emu.wait_for(table_with(emu, channel, "UNO — round 1"), 5)
        assert not table.attachments and "image" not in table.embeds[0]
        hand = await show_hand(emu, admin, table)
        assert not hand.attachments and "image" not in hand.embeds[0]
        assert hand.button_emojis  # today's emojis, none of them custom
        assert not any(emoji.get("id") for emoji in hand.button_emojis.values())
    finally:
        await answer(await emu.slash(admin, channel, set_images, option="card_images", value="on"))
