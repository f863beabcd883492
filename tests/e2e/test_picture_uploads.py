"""No picture is uploaded twice to a message: an edit whose picture is unchanged names the
attachment the message already has (Discord keeps it) instead of sending the same bytes again.
The emulator sees every upload of an edit and records those equal to a picture the message
already showed (`identical_uploads`)."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from testing.players import open_game, play_match

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
