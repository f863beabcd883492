"""Card pictures on the way out: drawn in a worker process and attached to a message.

A message's keyword arguments carry the picture to show under "picture" (a `Picture` from
bot/ui/pictures.py; the embed already points at it); `attach` turns it into the file discord.py
sends: `files` for a new message, `attachments` for an edit, which replaces what the message had
(an edit without a picture removes the old one; `keep=True` leaves the one it has).

Drawing and encoding take 1-8 ms of Python and Pillow, so worker processes draw (workers.py,
`Drawing`): one for the pictures an answer waits for (a hand, after a click), one for those drawn
in the background (the table, hands edited as the game goes on), so an answer never queues
behind a table. Until they are up, and whenever one fails, a thread draws. Files
already drawn are kept by what they show (`Picture.key`): the same picture is never drawn twice
while it is in the cache, and a cached one costs no round trip.
"""

from __future__ import annotations

import io
import logging
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import discord

from bot.ui.art.encode import warm_up
from bot.ui.pictures import Picture
from cogs.uno.house import House
from cogs.uno.workers import WorkerProcess

log = logging.getLogger(__name__)

#: Encoded pictures kept by what they show (~10 KB each).
CACHE_SIZE = 512


class Drawing:
    """Draws pictures off the event loop (worker processes), with a cache of recent files."""

    def __init__(self) -> None:
        # One process for the pictures an answer waits for, one for those drawn in the
        # background: an answer never queues behind a table.
        self._workers = {
            urgent: WorkerProcess("picture" if urgent else "background picture", warm_up)
            for urgent in (True, False)
        }
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()

    def start(self) -> None:
        """Start the worker processes in the background (the bot answers meanwhile)."""
        for worker in self._workers.values():
            worker.start()

    async def wait_ready(self) -> bool:
        """Wait for the processes' start (tests and benchmarks); whether both are up."""
        return all([await worker.wait_ready() for worker in self._workers.values()])

    async def close(self) -> None:
        for worker in self._workers.values():
            await worker.close()

    async def render(self, picture: Picture, *, urgent: bool = False) -> bytes:
        """The encoded picture: from the cache, else drawn in a worker (or a thread);
        `urgent`: an answer waits for it."""
        cached = self._cache.get(picture.key)
        if cached is not None:
            self._cache.move_to_end(picture.key)
            return cached
        worker = self._workers[urgent]
        if not worker.ready and self._workers[not urgent].ready:
            worker = self._workers[not urgent]
        data = await worker.run(picture.render)
        self._cache[picture.key] = data
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return data


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
