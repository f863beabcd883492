"""Drawing pictures off the event loop (cogs/uno/drawing/renderer.py): cached by what they show,
drawn in worker processes once they are up (attached to messages: tests/cogs/test_delivery.py)."""

from __future__ import annotations

import io
import threading

import pytest
from PIL import Image

from bot.engine import Game, RuleSet
from bot.ui.art.encode import table_palette
from bot.ui.art.table_picture import picture_size
from bot.ui.pictures import Picture, table_picture
from cogs.uno.drawing.renderer import Drawing

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
