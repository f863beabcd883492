"""Keeping each channel's public table message current without one edit per click.

`request(game_id)` marks the table dirty; one task per game edits the message, and requests that
arrive meanwhile collapse into one more edit with the newest state. Edits of one table are at
least `EDIT_INTERVAL` apart (Discord allows about five edits per five seconds in a channel): the
first request is shown at once, a burst of clicks costs one more edit at the end of the interval.
A table older than `REPOST_AFTER` (Discord refuses edits of old messages, error 30046), deleted,
or whose edit Discord refused with 30046 anyway, is posted anew and the old one deleted.
Interaction tokens are never used here: only the channel endpoints.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from discord.http import handle_message_parameters

log = logging.getLogger(__name__)

#: Age at which a table is posted anew (the setting TABLE_REPOST_AFTER overrides it).
REPOST_AFTER = timedelta(minutes=50)
#: Seconds between two edits of one table (the setting TABLE_EDIT_INTERVAL overrides it).
EDIT_INTERVAL = 1.0

#: Renders a game's table now: (channel id, message id or None, send/edit kwargs), or None when
#: the game is gone.
Renderer = Callable[[int], tuple[int, int | None, dict[str, Any]] | None]
#: Called after a re-post with (game id, new message id).
OnPosted = Callable[[int, int], Any]


class TableUpdater:
    def __init__(self, bot: discord.Client, render: Renderer, on_posted: OnPosted) -> None:
        self._bot = bot
        self._render = render
        self._on_posted = on_posted
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._repost: set[int] = set()
        settings = getattr(bot, "settings", None)
        self.interval = float(getattr(settings, "table_edit_interval", EDIT_INTERVAL))
        repost_after = getattr(settings, "table_repost_after", None)
        self.repost_after = (
            REPOST_AFTER if repost_after is None else timedelta(seconds=repost_after)
        )
        self._earliest: dict[int, float] = {}  # game id -> loop time of its next allowed edit

    def request(self, game_id: int, *, repost: bool = False) -> None:
        self._dirty.add(game_id)
        if len(self._earliest) > 256:
            now = asyncio.get_running_loop().time()
            self._earliest = {g: at for g, at in self._earliest.items() if at > now}
        if repost:
            self._repost.add(game_id)
        running = self._tasks.get(game_id)
        # A finished task whose done-callback has not run yet would never see this request.
        if running is None or running.done():
            task = asyncio.create_task(self._run(game_id), name=f"uno-table-{game_id}")
            self._tasks[game_id] = task
            task.add_done_callback(lambda t, g=game_id: self._forget_task(g, t))

    def _forget_task(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is task:  # only its own entry, not a successor's
            del self._tasks[game_id]

    async def flush(self, game_id: int) -> None:
        task = self._tasks.get(game_id)
        if task is not None:
            await asyncio.shield(task)

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        self._tasks.clear()

    async def _run(self, game_id: int) -> None:
        loop = asyncio.get_running_loop()
        while game_id in self._dirty:
            wait = self._earliest.get(game_id, 0.0) - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)  # requests meanwhile join this edit
            self._dirty.discard(game_id)
            try:
                await self._update(game_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not update the table of game %s", game_id)
            self._earliest[game_id] = loop.time() + self.interval

    async def _edit(self, channel_id: int, message_id: int, kwargs: dict[str, Any]) -> None:
        """`PartialMessage.edit` without turning Discord's answer into a Message nobody reads:
        with a hundred busy tables, parsing those answers is a measurable share of the bot's
        time. The table's buttons are DynamicItems, so no view needs storing either."""
        with handle_message_parameters(
            previous_allowed_mentions=self._bot.allowed_mentions, **kwargs
        ) as params:
            await self._bot.http.edit_message(channel_id, message_id, params=params)

    async def _update(self, game_id: int) -> None:
        rendered = self._render(game_id)
        if rendered is None:
            return
        channel_id, message_id, kwargs = rendered
        channel = self._bot.get_partial_messageable(channel_id)
        # Discord's rule is about the message's age, which its id tells: a table that began as
        # the lobby message is as old as the lobby.
        old = (
            message_id is not None
            and datetime.now(UTC) - discord.utils.snowflake_time(message_id) > self.repost_after
        )
        repost = game_id in self._repost or message_id is None or old
        self._repost.discard(game_id)
        if not repost and message_id is not None:
            try:
                await self._edit(channel_id, message_id, kwargs)
                return
            except discord.NotFound:
                pass
            except discord.HTTPException as exc:
                if exc.code != 30046:
                    raise
        message = await channel.send(**{k: v for k, v in kwargs.items() if v is not None})
        await self._on_posted(game_id, message.id)
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).delete()
            except discord.HTTPException:
                log.info("old table %s of game %s not deleted", message_id, game_id)
