"""Card pictures on the way out: rendered in a worker thread and attached to a message.

A message's keyword arguments carry the picture to show under "picture" (a `Picture` from
bot/ui/pictures.py; the embed already points at it); `attach` renders it off the event loop
(the art caches what it drew, so a picture shown again costs no drawing) and turns it into the
file discord.py sends: `files` for a new message, `attachments` for an edit, which replaces
what the message had (an edit without a picture removes the old one).
"""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord

from bot.ui.pictures import Picture
from cogs.uno.house import House

#: One thread draws every picture, one after another: more would only take turns at the same
#: interpreter lock, and each would keep the event loop waiting for it in turn.
_DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="uno-pictures")


def images_on(house: House, guild_id: int) -> bool:
    """The server's card pictures setting (on until its settings are read)."""
    return house.card_images.get(guild_id, True)


async def picture_file(picture: Picture) -> discord.File:
    """The encoded picture as a file with its alt text, rendered in a worker thread."""
    data = await asyncio.get_running_loop().run_in_executor(_DRAWING, picture.render)
    return discord.File(io.BytesIO(data), picture.filename, description=picture.description)


async def attach(kwargs: dict[str, Any], *, edit: bool) -> dict[str, Any]:
    """`kwargs` ready for discord.py: its "picture" rendered and attached."""
    out = dict(kwargs)
    picture: Picture | None = out.pop("picture", None)
    if picture is None:
        if edit:
            out["attachments"] = []
        return out
    file = await picture_file(picture)
    out["attachments" if edit else "files"] = [file]
    return out
