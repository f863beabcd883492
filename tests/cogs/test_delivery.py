"""The one adapter from an `Outgoing` to discord.py (cogs/uno/delivery.py): a new message gets
its picture as a file with its alt text, an edit replaces the message's picture, keeps it, or
removes it, and a picture drawn too late is left out with no embed pointing at it."""

from __future__ import annotations

import io
import time

import discord
import pytest

from bot.engine import Game, RuleSet
from bot.ui.outgoing import Outgoing
from bot.ui.pictures import Picture, table_picture
from bot.ui.plain_view import PlainView
from cogs.uno.delivery import Ready, ready
from cogs.uno.drawing import renderer as pictures
from cogs.uno.drawing.renderer import Drawing

NAMES = {1: "Ann", 2: "Ben"}


def _picture() -> Picture:
    game = Game.new([1, 2], RuleSet(), seed=4, dealer=2)
    picture = table_picture(game, NAMES, None)
    assert picture is not None
    return picture


def _table() -> Outgoing:
    return Outgoing.of(discord.Embed(description="x"), PlainView()).showing(_picture())


@pytest.mark.asyncio
async def test_a_new_message_uploads_its_picture_and_an_edit_replaces_keeps_or_removes_it() -> None:
    table = _table()
    assert table.picture is not None
    new = (await ready(table, edit=False)).send()
    assert [f.filename for f in new["files"]] == ["table.png"]
    assert new["files"][0].description == table.picture.description  # the alt text
    assert new["embeds"][0].image.url == "attachment://table.png"
    assert "content" not in new  # nothing to say: the key is left out, not sent as null
    edited = await ready(table, edit=True)
    assert [f.filename for f in edited.edit()["attachments"]] == ["table.png"]
    assert edited.pictured and edited.shown == table.picture.key
    kept = await ready(table, edit=True, keep=True)
    assert "attachments" not in kept.edit()  # Discord reads it as "unchanged"
    assert kept.pictured and kept.shown == table.picture.key
    bare = await ready(Outgoing(content="x"), edit=True)
    assert bare.edit()["attachments"] == [] and bare.shown is None  # an old picture removed


@pytest.mark.asyncio
async def test_a_kept_picture_is_named_by_id_when_the_message_is_known() -> None:
    shown = object()  # the clicked message's attachment (discord.Attachment)
    kept = await ready(_table(), edit=True, keep=True, existing=[shown])
    assert kept.edit()["attachments"] == [shown]  # nothing uploaded, the attachment named
    assert kept.file is None


@pytest.mark.asyncio
async def test_keep_means_nothing_for_a_new_message() -> None:
    new = await ready(_table(), edit=False, keep=True)
    assert [f.filename for f in new.send()["files"]] == ["table.png"]


def test_an_edit_replaces_the_whole_message_and_a_send_leaves_out_what_it_lacks() -> None:
    view = PlainView()
    message = Outgoing(content=None, embeds=(discord.Embed(description="x"),), view=view)
    edit = Ready(message).edit()
    assert edit["content"] is None and edit["view"] is view and edit["attachments"] == []
    assert [e.description for e in edit["embeds"]] == ["x"]
    assert Ready(Outgoing(content="hi")).edit()["view"] is None  # its buttons removed
    assert Ready(Outgoing(content="hi")).send() == {"content": "hi"}
    mentions = discord.AllowedMentions(users=True)
    pinged = Ready(Outgoing(content="hi", allowed_mentions=mentions)).send()
    assert pinged["allowed_mentions"] is mentions


def test_other_files_go_with_the_message() -> None:
    record = discord.File(io.BytesIO(b"{}"), "record.json")
    message = Outgoing(content="here", files=(record,))
    assert Ready(message).send()["files"] == [record]
    assert Ready(message).edit()["attachments"] == [record]


def _slow(picture: Picture, seconds: float) -> Picture:
    def render() -> bytes:
        time.sleep(seconds)
        return picture.render()

    return Picture(picture.filename, picture.key, picture.describe, render)


@pytest.mark.asyncio
async def test_a_late_picture_is_left_out_and_the_embed_shows_no_image(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    picture = _picture()
    monkeypatch.setattr(pictures, "DRAWING", Drawing())  # not started: a thread draws
    monkeypatch.setattr(pictures, "URGENT_DEADLINE", 0.05)
    embed = discord.Embed(description="x")
    slow = Outgoing.of(embed).showing(_slow(picture, 0.5))
    new = await ready(slow, edit=False)
    assert "files" not in new.send() and not new.pictured and new.shown is None
    assert new.send()["embeds"][0].image.url is None
    assert new.send()["embeds"][0].description == "x"
    assert slow.embeds[0].image.url == f"attachment://{picture.filename}"  # untouched
    edited = await ready(slow, edit=True)
    assert edited.edit()["attachments"] == []  # no stale picture either
    assert edited.edit()["embeds"][0].image.url is None
    assert (await ready(Outgoing.of(embed).showing(picture), edit=False)).pictured


def test_a_picture_cannot_be_forgotten_on_the_way() -> None:
    with pytest.raises(ValueError, match="picture"):
        Ready(_table())  # neither drawn nor kept: its embed would point at nothing
