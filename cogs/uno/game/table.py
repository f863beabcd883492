"""One running game's public table, kept current without one edit per click.

Its owner (game/owner.py) `request`s an update after every saved change; one task edits the message,
and requests that arrive meanwhile collapse into one more edit with the newest state. Edits of one
table are at least TABLE_EDIT_INTERVAL apart (Discord allows about five edits per five seconds in
a channel): the first request is shown at once, a burst of clicks costs one more edit at the end
of the interval. A table older than TABLE_REPOST_AFTER (Discord refuses edits of old messages,
error 30046), deleted, or whose edit Discord refused with 30046 anyway, is posted anew and the
old one deleted.

A table heals itself: an edit or re-post that fails for any other reason (Discord's 5xx after
discord.py's own retries, a network error, a 429 that outlasts them) is tried again later with
the then-latest state, `RETRY_FIRST` seconds after the first failure, doubling up to `RETRY_MAX`,
until it lands. Otherwise a table would name the wrong player until somebody acts, and with the
turn timer off nobody might. Only a channel the bot cannot reach (403, or 404 on posting) is left
alone: that needs an operator, and the next request tries again.

A table goes through the token of a click in its game whenever one is fresh (game/table_tokens.py):
posted as that click's public follow-up (or, after a Start that edited the lobby into it, as
the Start's `@original`) and edited and deleted through its token, on routes exempt from
Discord's global limit; moved to a newer click's token before that one expires. An edit or post
through a token that fails in any way (401 or 404 for a spent token, a 5xx, no answer within
`table_tokens.REQUEST_TIMEOUT`) is never retried through it: the same update goes through the
channel routes at once, and the table stays there (paced by the request budget) until the next
click. So an expired token never freezes a table.

The table's picture (the `Outgoing`'s, see cogs/uno/delivery.py) is uploaded only when what it
shows changed: an edit that leaves it as it was sends no file and no `attachments` field, which
keeps the message's attachment (Discord changes only the fields an edit names; an edit that
names `attachments` drops those it does not list), and the embed's `attachment://table.png`
still points at it. It is drawn in a thread (drawing/renderer.py); a picture not
drawn in time (drawing/renderer.py, `PictureLate`) is left out: the table goes text-only, its
picture is marked unknown, and another update `PICTURE_RETRY` seconds later brings it.

A finished game's owner `retire`s its table: what it shows then is kept, so that the edit its end
requested still reaches Discord after the game stopped rendering (the more so while requests
wait for the budget). `table_message` renders a table from the saved state for whoever shows
one (the owner's updates, the first table at the start, `/uno table`). What every table of the
process shares (the bot, the pace, the budget, the updates in flight, finished at shutdown) is
`TableUpdater`; each game's owner gets its own `GameTable` from it, which holds all of its state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from datetime import UTC, datetime, timedelta
from typing import Protocol

import discord

from bot.host import Interaction, UnoHost
from bot.request_budget import Priority, RequestBudget, priority
from bot.ui.outgoing import Outgoing
from bot.ui.pictures import table_picture
from bot.ui.table_message import render_table
from cogs.uno.delivery import EditKwargs, ready
from cogs.uno.game import table_tokens
from cogs.uno.game.clock import MAX_TIMEOUTS
from cogs.uno.game.live import LiveGame
from cogs.uno.game.table_tokens import TableReach, TableToken
from cogs.uno.shared import Shared

log = logging.getLogger(__name__)

#: Seconds before the first retry of a failed table update; doubled per failure up to RETRY_MAX.
RETRY_FIRST = 1.0
RETRY_MAX = 30.0
#: How long `flush` waits for a failing table before leaving it to heal in the background.
FLUSH_TIMEOUT = 30.0
#: Seconds after a table went out without its (late) picture until an update brings it: time
#: for a stuck drawing thread to be replaced (at once, by the picture that found it stuck).
PICTURE_RETRY = 2.0

#: Discord's codes for a message that is gone, and one too old for more edits (error 30046):
#: a table whose edit meets one is posted anew.
UNKNOWN_MESSAGE = 10008
_REPOST_CODES = (UNKNOWN_MESSAGE, 30046)

#: A table as rendered: (channel id, message id or None, the message).
Rendered = tuple[int, int | None, Outgoing]
#: Renders the game's table now (its owner's saved state).
Renderer = Callable[[], Rendered]
#: Called after a re-post with the new message id (the owner records it).
OnPosted = Callable[[int], Awaitable[None]]


class Tables(Protocol):
    """What a table shares with every other table of the process (game/table.py)."""

    bot: UnoHost
    interval: float  # seconds between two edits of one table
    repost_after: timedelta  # a table this old is posted anew
    budget: RequestBudget | None  # paces the busy tables
    token_ttl: float  # seconds after its click that a token carries a table
    closed: bool  # shutting down: no more updates

    @property
    def busy(self) -> int: ...

    def started(self, task: asyncio.Task[None], table: GameTable) -> None: ...


class _Unknown:
    """What the table message's picture shows when nobody knows (after a restart)."""


UNKNOWN = _Unknown()


class GameTable:
    def __init__(self, tables: Tables, game_id: int, render: Renderer, on_posted: OnPosted) -> None:
        self._tables = tables
        self.game_id = game_id
        self._render = render
        self._on_posted = on_posted
        self._dirty = False
        self._task: asyncio.Task[None] | None = None
        self._repost = False  # post anew, until the new table is posted and stored
        self._earliest = 0.0  # loop time of its next allowed edit
        self._failures = 0  # failed updates in a row
        # The state that has not reached Discord yet: shown even if the game ends (and stops
        # rendering) before Discord recovers.
        self._unsent: Rendered | None = None
        self._final: Rendered | None = None  # its table as the game retired, until shown
        self._retired = False
        # What the table message's picture shows (None: it has none); UNKNOWN after a
        # restart, so the next update uploads it.
        self._pictured: Hashable | _Unknown | None = UNKNOWN
        self._picture_retry: asyncio.TimerHandle | None = None
        # The click tokens that reach its message (held in memory only: game/table_tokens.py).
        self.reach = TableReach(tables.token_ttl)

    @property
    def failing(self) -> bool:
        """Whether the table is waiting for Discord to accept an update."""
        return self._failures > 0

    def showing(self, key: Hashable | None) -> None:
        """The table message was just sent elsewhere with the picture `key` (None: none)."""
        self._pictured = key

    def picture_missing(self) -> None:
        """The table message went out without its picture (late): it is uploaded by an update
        `PICTURE_RETRY` seconds from now."""
        self._pictured = UNKNOWN
        if self._tables.closed or self._picture_retry is not None:
            return

        def retry() -> None:
            self._picture_retry = None
            self.request()

        loop = asyncio.get_running_loop()
        self._picture_retry = loop.call_later(PICTURE_RETRY, retry)

    def request(self, *, repost: bool = False) -> None:
        if self._tables.closed:
            return
        self._dirty = True
        if repost:
            self._repost = True
        running = self._task
        # A finished task whose last loop has not seen this request would never see it.
        if running is None or running.done():
            task = asyncio.create_task(self._run(), name=f"uno-table-{self.game_id}")
            self._task = task
            self._tables.started(task, self)

    def retire(self) -> None:
        """The game leaves the running games now: keep its table as it is, for the edit its end
        requests (which may run after this, the more so while requests wait for the budget)."""
        if not self._retired:
            self._final = self._render()
            self._retired = True

    async def flush(self, timeout: float | None = FLUSH_TIMEOUT) -> bool:
        """Wait until the table shows its latest state; False if it is still failing after
        `timeout` seconds (it goes on healing in the background)."""
        task = self._task
        if task is None or task.done():
            return True
        done, _ = await asyncio.wait({task}, timeout=timeout)  # never cancels the task
        return bool(done)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._dirty:
            wait = self._earliest - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)  # requests meanwhile join this edit
            self._dirty = False
            pause = self._tables.interval
            budget = self._tables.budget
            # The busy tables on channel routes share the budget; one on a token does not.
            if budget is not None and self.reach.current is None:
                pause = budget.pacing(pause, tables=self._tables.busy)
            try:
                await self._update()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                retry = self._retry_after(exc)
                if retry is not None:
                    self._dirty = True  # tried again with the then-latest state
                    pause = max(pause, retry)
            else:
                self._healed()
            self._earliest = loop.time() + pause

    def _retry_after(self, exc: Exception) -> float | None:
        """Seconds until the next try of a failed update, or None to give up."""
        game_id = self.game_id
        if isinstance(exc, discord.Forbidden | discord.NotFound):
            # The channel is gone or closed to the bot: retrying cannot help.
            log.warning("table of game %s not shown: %s", game_id, exc)
            self._failures = 0
            self._unsent = None
            return None
        failures = self._failures = self._failures + 1
        delay = min(RETRY_MAX, RETRY_FIRST * 2.0 ** (failures - 1))
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

    def _healed(self) -> None:
        self._unsent = None
        if self._failures:
            self._failures = 0
            log.info("table of game %s is up to date again", self.game_id)

    async def _edit(self, channel_id: int, message_id: int, kwargs: EditKwargs) -> None:
        """Edit the table by ids alone (`PartialMessage.edit`): no Message object is kept. The
        table's buttons are DynamicItems, so discord.py stores no view for it either."""
        channel = self._tables.bot.get_partial_messageable(channel_id)
        with priority(Priority.TABLE_EDIT):
            await channel.get_partial_message(message_id).edit(**kwargs)

    async def _update(self) -> None:
        if self._retired:
            # The game ended: its last state still has to reach Discord if it has not yet.
            rendered = self._unsent or self._final
            if rendered is None:
                return
        else:
            rendered = self._render()
        self._unsent = rendered
        await self._show(*rendered)
        self._unsent = None
        self._final = None

    async def _show(self, channel_id: int, message_id: int | None, table: Outgoing) -> None:
        channel = self._tables.bot.get_partial_messageable(channel_id)
        picture = table.picture
        key = picture.key if picture is not None else None
        # Discord's rule is about the message's age, which its id tells: a table that began as
        # the lobby message is as old as the lobby.
        old = (
            message_id is not None
            and datetime.now(UTC) - discord.utils.snowflake_time(message_id)
            > self._tables.repost_after
        )
        if await self._through_token(channel, message_id, table, old=old):
            return
        if not self._repost and message_id is not None and not old:
            keep = self._pictured == key  # (UNKNOWN never is)
            edit = await ready(table, edit=True, keep=keep, urgent=False)
            late = picture is not None and not edit.pictured
            try:
                await self._edit(channel_id, message_id, edit.edit())
                if late:
                    self.picture_missing()
                else:
                    self._pictured = key
                return
            except discord.NotFound:
                pass
            except discord.HTTPException as exc:
                if exc.code != 30046:
                    raise
        self._repost = True  # until the new table is posted and stored
        new = await ready(table, edit=False, urgent=False)
        late = picture is not None and not new.pictured
        message = await channel.send(**new.send())
        if late:
            self.picture_missing()
        else:
            self._pictured = key
        try:
            await self._on_posted(message.id)
        except Exception:
            # Not stored: the next try posts again, so this copy must not stay as a second table.
            await self._delete(channel, message.id)
            raise
        self._repost = False
        if message_id is not None:
            await self._delete(channel, message_id)

    async def _through_token(
        self,
        channel: discord.PartialMessageable,
        message_id: int | None,
        table: Outgoing,
        *,
        old: bool,
    ) -> bool:
        """Show the table through a click's token if one is fresh: edited through the token that
        reaches its message, or posted as a newer click's follow-up. False: it goes through the
        channel (no token, or Discord refused this one: never tried through it again)."""
        reach = self.reach
        token = reach.reaching(message_id)
        carrier = reach.carrier(channel.id, message_id)
        if carrier is None and (self._repost or old):  # posted anew: through the freshest token
            carrier = reach.fresh(channel.id) or (token.interaction if token else None)
        if carrier is not None:
            return await self._post_through(carrier, channel, message_id, table, token)
        if token is None or self._repost or old:
            return False
        picture = table.picture
        key = picture.key if picture is not None else None
        edit = await ready(table, edit=True, keep=self._pictured == key, urgent=False)
        try:
            await table_tokens.edit(token, edit.edit())
        except discord.HTTPException as exc:
            if exc.code not in _REPOST_CODES:
                log.info("table of game %s: its token's edit failed (%s)", self.game_id, exc)
                reach.refused(token)
                return False
            # The message is gone or too old to edit, the token good: posted anew through it.
            self._repost = True
            gone = exc.code == UNKNOWN_MESSAGE  # (nothing to delete)
            return await self._post_through(
                token.interaction, channel, None if gone else message_id, table, token
            )
        except (TimeoutError, OSError) as exc:
            log.info(
                "table of game %s: its token's edit failed (%r); via the channel", self.game_id, exc
            )
            reach.refused(token)
            return False
        if picture is not None and not edit.pictured:
            self.picture_missing()
        else:
            self._pictured = key
        return True

    async def _post_through(
        self,
        carrier: Interaction,
        channel: discord.PartialMessageable,
        message_id: int | None,
        table: Outgoing,
        before: TableToken | None,
    ) -> bool:
        """Post the table anew as `carrier`'s public follow-up and delete the old one (through
        its own token, `before`, if it has one); False if Discord refused the post."""
        picture = table.picture
        key = picture.key if picture is not None else None
        new = await ready(table, edit=False, urgent=False)
        reach = self.reach
        try:
            message = await table_tokens.post(carrier, new.send())
        except (discord.HTTPException, TimeoutError, OSError) as exc:
            log.info(
                "table of game %s: a follow-up failed (%r); via the channel", self.game_id, exc
            )
            reach.refused(carrier)
            return False
        reach.posted(carrier, message.id, original=False)
        if picture is not None and not new.pictured:
            self.picture_missing()
        else:
            self._pictured = key
        try:
            await self._on_posted(message.id)
        except Exception:
            # Not stored: the next try posts again, so this copy must not stay as a second table.
            posted = reach.current
            reach.current = before
            if posted is not None:
                await self._delete_through(posted, channel)
            raise
        self._repost = False
        if message_id is None:
            return True
        if before is not None and before.message == message_id:
            await self._delete_through(before, channel)
        else:
            await self._delete(channel, message_id)
        return True

    async def _delete_through(self, token: TableToken, channel: discord.PartialMessageable) -> None:
        """Delete a table message through its token, or through the channel if that fails."""
        try:
            await table_tokens.delete(token)
        except (discord.HTTPException, TimeoutError, OSError):
            self.reach.refused(token)
            await self._delete(channel, token.message)

    async def _delete(self, channel: discord.PartialMessageable, message_id: int) -> None:
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException:
            log.info("old table %s of game %s not deleted", message_id, self.game_id)


def table_message(shared: Shared, live: LiveGame) -> Outgoing:
    """The running game's table, with the turn timer's countdown (and warning) when it is on,
    and (card pictures on) its picture."""
    locale = shared.public_locale(live.guild_id)
    current = live.game.current_player
    lost = live.timeouts.get(current, 0) if current is not None else 0
    picture = (
        table_picture(live.game, live.names, locale) if shared.images_on(live.guild_id) else None
    )
    table = render_table(
        live.game,
        live.game_id,
        live.names,
        locale,
        log=live.log.lines(),
        deadline=live.deadline,
        last_chance=lost if lost >= MAX_TIMEOUTS - 1 else 0,
        pictured=picture is not None,
        spectator_view=live.view(None),
    )
    return table.showing(picture)


class TableUpdater:
    def __init__(
        self,
        bot: UnoHost,
        *,
        interval: float,
        repost_after: float,
        budget: RequestBudget | None = None,
        token_ttl: float = table_tokens.TOKEN_TTL,
    ) -> None:
        """`interval`: seconds between two edits of one table (TABLE_EDIT_INTERVAL);
        `repost_after`: a table this many seconds old is posted anew (TABLE_REPOST_AFTER);
        `budget`: the process's request budget, which paces busy tables (REQUEST_BUDGET);
        `token_ttl`: seconds after its click that a token carries a table (TABLE_TOKEN_TTL)."""
        self.bot = bot
        self.token_ttl = token_ttl
        self.interval = interval
        self.repost_after = timedelta(seconds=repost_after)
        self.budget = budget
        self.closed = False
        # The tables' updates in flight, every game's (a finished game's last edit included).
        self._updates: dict[asyncio.Task[None], GameTable] = {}

    def table(self, game_id: int, render: Renderer, on_posted: OnPosted) -> GameTable:
        """A game's table: `render` gives what it shows now, `on_posted` records a re-post."""
        return GameTable(self, game_id, render, on_posted)

    @property
    def busy(self) -> int:
        """How many tables are being updated now through the channel routes (they share the
        budget's pace; one on a click's token does not count against it)."""
        return sum(1 for table in self._updates.values() if table.reach.current is None)

    def started(self, task: asyncio.Task[None], table: GameTable) -> None:
        """`table`'s update task began: followed until it ends."""
        self._updates[task] = table
        task.add_done_callback(lambda done: self._updates.pop(done, None))

    async def flush_all(self, timeout: float) -> bool:
        """Wait (at most `timeout` seconds) until every table shows its latest state."""
        tasks = set(self._updates)
        if not tasks:
            return True
        _, pending = await asyncio.wait(tasks, timeout=timeout)
        return not pending

    async def close(self) -> None:
        """Stop every table's updates (pending edits are dropped) and wait until they ended."""
        self.closed = True
        tasks = list(self._updates)
        self._updates.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
