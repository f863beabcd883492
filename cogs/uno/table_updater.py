"""Keeping each channel's public table message current without one edit per click.

`request(game_id)` marks the table dirty; one task per game edits the message, and requests that
arrive meanwhile collapse into one more edit with the newest state. Edits of one table are at
least TABLE_EDIT_INTERVAL apart (Discord allows about five edits per five seconds in a channel): the
first request is shown at once, a burst of clicks costs one more edit at the end of the interval.
A table older than TABLE_REPOST_AFTER (Discord refuses edits of old messages, error 30046), deleted,
or whose edit Discord refused with 30046 anyway, is posted anew and the old one deleted.

A table heals itself: an edit or re-post that fails for any other reason (Discord's 5xx after
discord.py's own retries, a network error, a 429 that outlasts them) is tried again later with
the then-latest state, `RETRY_FIRST` seconds after the first failure, doubling up to `RETRY_MAX`,
until it lands. Otherwise a table would name the wrong player until somebody acts, and with the
turn timer off nobody might. Only a channel the bot cannot reach (403, or 404 on posting) is left
alone: that needs an operator, and the next request tries again.
Interaction tokens are never used here: only the channel endpoints.

The table's picture (kwargs "picture", see pictures.py) is uploaded only when what it shows
changed: an edit that leaves it as it was sends no file and no `attachments` field, which
keeps the message's attachment (Discord changes only the fields an edit names; an edit that
names `attachments` drops those it does not list), and the embed's `attachment://table.png`
still points at it. It is drawn in a thread (pictures.py); a picture not
drawn in time (pictures.py, `PictureLate`) is left out: the table goes text-only, its picture
is marked unknown, and another update `PICTURE_RETRY` seconds later brings it.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Hashable
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.discord_internals import edit_channel_message
from bot.request_budget import Priority, RequestBudget, priority
from bot.ui.pictures import Picture
from cogs.uno.pictures import PictureLate, picture_file, without_picture

log = logging.getLogger(__name__)

#: Ended games whose last table is kept until their final edit runs (see `retire`).
FINAL_KEPT = 256

#: Seconds before the first retry of a failed table update; doubled per failure up to RETRY_MAX.
RETRY_FIRST = 1.0
RETRY_MAX = 30.0
#: How long `flush` waits for a failing table before leaving it to heal in the background.
FLUSH_TIMEOUT = 30.0
#: Seconds after a table went out without its (late) picture until an update brings it: time
#: for a stuck drawing thread to be replaced (at once, by the picture that found it stuck).
PICTURE_RETRY = 2.0

#: A table as rendered: (channel id, message id or None, send/edit kwargs).
Rendered = tuple[int, int | None, dict[str, Any]]
#: Renders a game's table now, or None when the game is gone.
Renderer = Callable[[int], Rendered | None]
#: Called after a re-post with (game id, new message id).
OnPosted = Callable[[int, int], Any]


class TableUpdater:
    def __init__(
        self,
        bot: discord.Client,
        render: Renderer,
        on_posted: OnPosted,
        *,
        interval: float,
        repost_after: float,
        budget: RequestBudget | None = None,
    ) -> None:
        """`interval`: seconds between two edits of one table (TABLE_EDIT_INTERVAL);
        `repost_after`: a table this many seconds old is posted anew (TABLE_REPOST_AFTER);
        `budget`: the process's request budget, which paces busy tables (REQUEST_BUDGET)."""
        self._bot = bot
        self._render = render
        self._on_posted = on_posted
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._repost: set[int] = set()
        self.interval = interval
        self.repost_after = timedelta(seconds=repost_after)
        self._earliest: dict[int, float] = {}  # game id -> loop time of its next allowed edit
        self._failures: dict[int, int] = {}  # game id -> failed updates in a row
        # game id -> the state that has not reached Discord yet: shown even if the game ends
        # (and stops rendering) before Discord recovers.
        self._unsent: dict[int, Rendered] = {}
        # game id -> its table as the game left the running games (retire), until shown
        self._final: dict[int, Rendered] = {}
        # game id -> what the table message's picture shows (None: it has none); absent: not
        # known (after a restart), so the next update uploads it.
        self._pictured: dict[int, Hashable | None] = {}
        self._picture_retries: dict[int, asyncio.TimerHandle] = {}
        self._closed = False
        # The process's request budget: paces the edits harder while it is pressed.
        self._budget = budget

    @property
    def failing(self) -> set[int]:
        """The games whose table is waiting for Discord to accept an update."""
        return set(self._failures)

    def showing(self, game_id: int, key: Hashable | None) -> None:
        """The table message was just sent elsewhere with the picture `key` (None: none)."""
        self._pictured[game_id] = key

    def picture_missing(self, game_id: int) -> None:
        """The table message went out without its picture (late): it is uploaded by an update
        `PICTURE_RETRY` seconds from now."""
        self._pictured.pop(game_id, None)
        if self._closed or game_id in self._picture_retries:
            return

        def retry() -> None:
            del self._picture_retries[game_id]
            self.request(game_id)

        loop = asyncio.get_running_loop()
        self._picture_retries[game_id] = loop.call_later(PICTURE_RETRY, retry)

    def request(self, game_id: int, *, repost: bool = False) -> None:
        if self._closed:
            return
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
            task.add_done_callback(functools.partial(self._forget_task, game_id))

    def retire(self, game_id: int) -> None:
        """The game leaves the running games now, and can no longer be rendered: keep its
        table as it is, for the edit its end requests (which may run after this, the more so
        while requests wait for the budget)."""
        rendered = self._render(game_id)
        if rendered is None:
            return
        if len(self._final) >= FINAL_KEPT:  # ends whose edit never came: oldest first
            del self._final[next(iter(self._final))]
        self._final[game_id] = rendered

    def _forget_task(self, game_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(game_id) is task:  # only its own entry, not a successor's
            del self._tasks[game_id]

    async def flush(self, game_id: int, timeout: float | None = FLUSH_TIMEOUT) -> bool:
        """Wait until the game's table shows its latest state; False if it is still failing
        after `timeout` seconds (it goes on healing in the background)."""
        task = self._tasks.get(game_id)
        if task is None:
            return True
        done, _ = await asyncio.wait({task}, timeout=timeout)  # never cancels the task
        return bool(done)

    async def flush_all(self, timeout: float) -> bool:
        """Wait (at most `timeout` seconds) until every table shows its latest state."""
        tasks = set(self._tasks.values())
        if not tasks:
            return True
        _, pending = await asyncio.wait(tasks, timeout=timeout)
        return not pending

    async def close(self) -> None:
        """Stop every table task (pending edits are dropped) and wait until they have ended."""
        self._closed = True
        for handle in self._picture_retries.values():
            handle.cancel()
        self._picture_retries.clear()
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, game_id: int) -> None:
        loop = asyncio.get_running_loop()
        while game_id in self._dirty:
            wait = self._earliest.get(game_id, 0.0) - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)  # requests meanwhile join this edit
            self._dirty.discard(game_id)
            pause = self.interval
            if self._budget is not None:  # the busy tables share the budget
                pause = self._budget.pacing(pause, tables=len(self._tasks))
            try:
                await self._update(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                retry = self._retry_after(game_id, exc)
                if retry is not None:
                    self._dirty.add(game_id)  # tried again with the then-latest state
                    pause = max(pause, retry)
            else:
                self._healed(game_id)
            self._earliest[game_id] = loop.time() + pause

    def _retry_after(self, game_id: int, exc: Exception) -> float | None:
        """Seconds until the next try of a failed update, or None to give up."""
        if isinstance(exc, discord.Forbidden | discord.NotFound):
            # The channel is gone or closed to the bot: retrying cannot help.
            log.warning("table of game %s not shown: %s", game_id, exc)
            self._failures.pop(game_id, None)
            self._unsent.pop(game_id, None)
            return None
        failures = self._failures[game_id] = self._failures.get(game_id, 0) + 1
        delay = min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1))
        if isinstance(exc, discord.RateLimited):
            delay = max(delay, exc.retry_after)
        if failures == 1:
            log.warning(
                "could not update the table of game %s; retrying in %.0f s",
                game_id,
                delay,
                exc_info=exc,
            )
        else:
            log.warning(
                "table of game %s still failing (%d tries: %s); retrying in %.0f s",
                game_id,
                failures,
                exc,
                delay,
            )
        return delay

    def _healed(self, game_id: int) -> None:
        self._unsent.pop(game_id, None)
        if self._failures.pop(game_id, None):
            log.info("table of game %s is up to date again", game_id)

    async def _edit(self, channel_id: int, message_id: int, kwargs: dict[str, Any]) -> None:
        """`PartialMessage.edit` without turning Discord's answer into a Message nobody reads:
        with a hundred busy tables, parsing those answers is a measurable share of the bot's
        time. The table's buttons are DynamicItems, so no view needs storing either."""
        with priority(Priority.TABLE_EDIT):
            await edit_channel_message(self._bot, channel_id, message_id, kwargs)

    async def _update(self, game_id: int) -> None:
        rendered = self._render(game_id)
        if rendered is None:
            # The game ended: its last state still has to reach Discord if it has not yet.
            rendered = self._unsent.get(game_id) or self._final.get(game_id)
            if rendered is None:
                self._pictured.pop(game_id, None)
                return
        self._unsent[game_id] = rendered
        await self._show(game_id, *rendered)
        self._unsent.pop(game_id, None)
        self._final.pop(game_id, None)

    async def _show(
        self, game_id: int, channel_id: int, message_id: int | None, kwargs: dict[str, Any]
    ) -> None:
        channel = self._bot.get_partial_messageable(channel_id)
        kwargs = dict(kwargs)
        picture: Picture | None = kwargs.pop("picture", None)
        key = picture.key if picture is not None else None
        # Discord's rule is about the message's age, which its id tells: a table that began as
        # the lobby message is as old as the lobby.
        old = (
            message_id is not None
            and datetime.now(UTC) - discord.utils.snowflake_time(message_id) > self.repost_after
        )
        if game_id not in self._repost and message_id is not None and not old:
            edit = dict(kwargs)
            late = False
            if game_id not in self._pictured or self._pictured[game_id] != key:
                edit["attachments"], late = await self._files(picture)
                if late and picture is not None:
                    edit = without_picture(edit, picture)
            try:
                await self._edit(channel_id, message_id, edit)
                if late:
                    self.picture_missing(game_id)
                else:
                    self._pictured[game_id] = key
                return
            except discord.NotFound:
                pass
            except discord.HTTPException as exc:
                if exc.code != 30046:
                    raise
        self._repost.add(game_id)  # until the new table is posted and stored
        new = {k: v for k, v in kwargs.items() if v is not None}
        files, late = await self._files(picture)
        if files:
            new["file"] = files[0]
        elif late and picture is not None:
            new = without_picture(new, picture)
        message = await channel.send(**new)
        if late:
            self.picture_missing(game_id)
        else:
            self._pictured[game_id] = key
        try:
            await self._on_posted(game_id, message.id)
        except Exception:
            # Not stored: the next try posts again, so this copy must not stay as a second table.
            await self._delete(channel, message.id, game_id)
            raise
        self._repost.discard(game_id)
        if message_id is not None:
            await self._delete(channel, message_id, game_id)

    @staticmethod
    async def _files(picture: Picture | None) -> tuple[list[discord.File], bool]:
        """The table's picture as the files to upload, and whether it was left out (late)."""
        if picture is None:
            return [], False
        try:
            return [await picture_file(picture)], False
        except PictureLate:
            log.info("table picture left out: not drawn in time")
            return [], True

    @staticmethod
    async def _delete(channel: discord.PartialMessageable, message_id: int, game_id: int) -> None:
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException:
            log.info("old table %s of game %s not deleted", message_id, game_id)
