"""Card pictures on the way out: drawn in a worker process and attached to a message.

A message's keyword arguments carry the picture to show under "picture" (a `Picture` from
bot/ui/pictures.py; the embed already points at it); `attach` turns it into the file discord.py
sends: `files` for a new message, `attachments` for an edit, which replaces what the message had
(an edit without a picture removes the old one; `keep=True` leaves the one it has).

Drawing and encoding take 1-8 ms of Python and Pillow. In a thread they would hold the
interpreter lock against the event loop, so every answer waiting for the loop would wait for
them too; worker processes draw instead (`Drawing`), and the loop only sends them a small value
and gets the file back: one for the pictures an answer waits for (a hand, after a click), one for
those drawn in the background (the table, hands edited as the game goes on), so an answer never
queues behind a table. Until they are up, and whenever one fails, a thread draws. Files
already drawn are kept by what they show (`Picture.key`): the same picture is never drawn twice
while it is in the cache, and a cached one costs no round trip.
"""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
from collections import OrderedDict
from collections.abc import Hashable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import discord

from bot.ui.art.encode import warm_up
from bot.ui.pictures import Picture
from cogs.uno.house import House

log = logging.getLogger(__name__)

#: Encoded pictures kept by what they show (~10 KB each).
CACHE_SIZE = 512


class Drawing:
    """Draws pictures off the event loop (worker processes), with a cache of recent files."""

    def __init__(self) -> None:
        self._pools: dict[bool, Executor] = {}  # urgent? -> its worker, once it is ready
        self._starting: asyncio.Task[None] | None = None
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()

    def start(self) -> None:
        """Start the worker processes in the background (the bot answers meanwhile)."""
        if self._starting is None:
            self._starting = asyncio.create_task(self._start(), name="uno-pictures-start")

    async def _start(self) -> None:
        await asyncio.gather(self._start_one(True), self._start_one(False))

    async def _start_one(self, urgent: bool) -> None:
        # "spawn": a fresh interpreter that inherits none of the bot's sockets or threads.
        pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        try:
            faces = await asyncio.get_running_loop().run_in_executor(pool, warm_up)
        except asyncio.CancelledError:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        except Exception:
            log.warning("a picture process did not start; drawing in a thread", exc_info=True)
            pool.shutdown(wait=False, cancel_futures=True)
            return
        self._pools[urgent] = pool
        log.info("picture process ready (%d faces drawn)", faces)

    async def close(self) -> None:
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            await asyncio.gather(self._starting, return_exceptions=True)
        self._starting = None
        pools, self._pools = self._pools, {}
        for pool in pools.values():
            pool.shutdown(wait=False, cancel_futures=True)

    async def render(self, picture: Picture, *, urgent: bool = False) -> bytes:
        """The encoded picture: from the cache, else drawn in a worker (or a thread);
        `urgent`: an answer waits for it."""
        cached = self._cache.get(picture.key)
        if cached is not None:
            self._cache.move_to_end(picture.key)
            return cached
        data = await self._draw(picture, urgent)
        self._cache[picture.key] = data
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return data

    async def _draw(self, picture: Picture, urgent: bool) -> bytes:
        pool = self._pools.get(urgent) or self._pools.get(not urgent)
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, picture.render)
            except Exception:  # the process died (BrokenProcessPool) or could not be reached
                log.warning("a picture process failed; drawing in a thread", exc_info=True)
                self._pools = {k: p for k, p in self._pools.items() if p is not pool}
        return await asyncio.to_thread(picture.render)


#: The bot's one drawing worker (started by the cog: `DRAWING.start()`).
DRAWING = Drawing()


def images_on(house: House, guild_id: int) -> bool:
    """The server's card pictures setting (on until its settings are read)."""
    return house.card_images.get(guild_id, True)


async def picture_file(picture: Picture, *, urgent: bool = False) -> discord.File:
    """The encoded picture as a file with its alt text, drawn off the event loop."""
    data = await DRAWING.render(picture, urgent=urgent)
    return discord.File(io.BytesIO(data), picture.filename, description=picture.description)


async def attach(
    kwargs: dict[str, Any], *, edit: bool, keep: bool = False, urgent: bool = True
) -> dict[str, Any]:
    """`kwargs` ready for discord.py: its "picture" drawn and attached; `keep` (an edit of a
    message that already shows this picture): nothing sent, the message keeps its file;
    `urgent` (the default): an interaction's answer waits for it."""
    out = dict(kwargs)
    picture: Picture | None = out.pop("picture", None)
    if keep and edit:
        return out
    if picture is None:
        if edit:
            out["attachments"] = []
        return out
    file = await picture_file(picture, urgent=urgent)
    out["attachments" if edit else "files"] = [file]
    return out
