"""Drawing pictures off the event loop (cogs/uno/drawing/attach.py): cached by what they show,
drawn in worker processes once they are up, attached as files with their alt text."""

from __future__ import annotations

import io
import threading
import time

import discord
import pytest
from PIL import Image

from bot.engine import Game, RuleSet
from bot.ui.art.encode import table_palette
from bot.ui.art.table_picture import picture_size
from bot.ui.pictures import Picture, table_picture
from cogs.uno.drawing import attach as pictures
from cogs.uno.drawing.attach import Drawing, attach, has_picture

NAMES = {1: "Ann", 2: "Ben"}


def _counting(picture: Picture, calls: list[str]) -> Picture:
    def render() -> bytes:
        calls.append(threading.current_thread().name)
        return picture.render()

    return Picture(picture.filename, picture.key, picture.describe, render)


@pytest.mark.asyncio
async def test_a_picture_is_drawn_once_off_the_loop_then_served_from_the_cache() -> None:
    game = Game.new([1, 2], RuleSet(), seed=4, dealer=2)
    picture = table_picture(game, NAMES, None)
    assert picture is not None
    calls: list[str] = []
    drawing = Drawing()  # not started: a thread draws
    first = await drawing.render(_counting(picture, calls))
    again = await drawing.render(_counting(picture, calls))
    assert first == again and first.startswith(b"\x89PNG")
    assert len(calls) == 1 and calls[0] != threading.main_thread().name


@pytest.mark.asyncio
async def test_the_worker_processes_draw_the_same_picture() -> None:
    game = Game.new([1, 2], RuleSet(), seed=4, dealer=2)
    picture = table_picture(game, NAMES, None)
    assert picture is not None
    drawing = Drawing()
    drawing.start()
    try:
        assert await drawing.wait_ready()  # both processes are up
        data = await drawing.render(picture, urgent=True)
        image = Image.open(io.BytesIO(data))
        assert image.size == picture_size(2) and image.mode == "P"
        assert image.getpalette() == table_palette().getpalette()  # the table's own palette
    finally:
        await drawing.close()


@pytest.mark.asyncio
async def test_attach_files_a_new_message_and_replaces_or_keeps_on_an_edit() -> None:
    game = Game.new([1, 2], RuleSet(), seed=4, dealer=2)
    picture = table_picture(game, NAMES, None)
    kwargs = {"content": "x", "picture": picture}
    new = await attach(kwargs, edit=False)
    assert [f.filename for f in new["files"]] == ["table.png"] and "picture" not in new
    assert new["files"][0].description == picture.description  # the alt text
    edited = await attach(kwargs, edit=True)
    assert [f.filename for f in edited["attachments"]] == ["table.png"]
    assert "attachments" not in await attach(kwargs, edit=True, keep=True)
    assert (await attach({"content": "x"}, edit=True))["attachments"] == []  # removed


@pytest.mark.asyncio
async def test_a_kept_picture_is_named_by_id_when_the_message_is_known() -> None:
    game = Game.new([1, 2], RuleSet(), seed=4, dealer=2)
    picture = table_picture(game, NAMES, None)
    assert picture is not None
    shown = object()  # the clicked message's attachment (discord.Attachment)
    kept = await attach({"picture": picture}, edit=True, keep=True, existing=[shown])
    assert kept == {"attachments": [shown]}  # nothing uploaded, the attachment named
    assert pictures.shown_after(picture, kept, kept=True) == picture.key
    sent = await attach({"picture": picture}, edit=True)
    assert pictures.shown_after(picture, sent, kept=False) == picture.key
    assert pictures.shown_after(None, {"attachments": []}, kept=False) is None


def _slow(picture: Picture, seconds: float) -> Picture:
    def render() -> bytes:
        time.sleep(seconds)
        return picture.render()

    return Picture(picture.filename, picture.key, picture.describe, render)


@pytest.mark.asyncio
async def test_a_late_picture_is_left_out_and_the_embed_shows_no_image(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game.new([1, 2], RuleSet(), seed=4, dealer=2)
    picture = table_picture(game, NAMES, None)
    assert picture is not None
    monkeypatch.setattr(pictures, "DRAWING", Drawing())  # not started: a thread draws
    monkeypatch.setattr(pictures, "URGENT_DEADLINE", 0.05)
    embed = discord.Embed(description="x")
    picture.point(embed)
    kwargs = {"embed": embed, "picture": _slow(picture, 0.5)}
    new = await attach(kwargs, edit=False)
    assert "files" not in new and not has_picture(new) and "picture" not in new
    assert new["embed"].image.url is None and new["embed"].description == "x"
    assert embed.image.url == f"attachment://{picture.filename}"  # the caller's is untouched
    edited = await attach(kwargs, edit=True)
    assert edited["attachments"] == [] and edited["embed"].image.url is None  # no stale one
    assert has_picture(await attach({"embed": embed, "picture": picture}, edit=False))
