"""Posting the outbox of public messages (bot/store/public_posts.py) until Discord took each one.

A round's results, a match's (with its rating changes and the Rematch / Game record / Replay
buttons) and a season's champion are saved with the change they tell of; this process-wide
poster carries them to their channel, one channel's posts in the order they were saved:

- a post Discord did not take (5xx, 429, a network error, no answer within `ATTEMPT_TIMEOUT`)
  is tried again `RETRY_FIRST` seconds later, doubling up to `RETRY_MAX`, until it is taken;
- a channel the bot cannot post in (403, 404) is given up with one warning, the post marked so;
- a post is marked posted, with its message, right after Discord took it, and every try sends
  the post's own nonce with `enforce_nonce`: Discord answers a repeat from the same author in
  the same channel within minutes with the first message instead of a second one, so a post
  that reached Discord but whose answer was lost (or whose process died before marking it) is
  never shown twice;
- a post still pending when the process stopped is posted by the next one (`sweep`).

The running game's owner drives it for its own channel (game/results.py: `post_now` before the
table moves on, waiting only while the posts go through, never while they are retried); the
times scale with UNO_TEST_TIMER_SCALE so the e2e tests of a bad day take seconds.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Collection, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, TypedDict

import aiohttp
import discord

from bot.store import PendingPost, UnitOfWork
from bot.ui.outgoing import Outgoing
from bot.ui.table_message import rematch_view
from cogs.uno.delivery import Ready
from cogs.uno.shared import Shared

log = logging.getLogger(__name__)

#: Seconds before a post Discord did not take is tried again; doubled per failure up to RETRY_MAX.
RETRY_FIRST = 1.0
RETRY_MAX = 60.0
#: Seconds one try may take (discord.py itself retries a 500 for up to 25 s): then it is tried
#: again with the same nonce, which cannot post it twice.
ATTEMPT_TIMEOUT = 10.0

#: Days a post is kept once done (posted, given up): pruned at start-up.
KEEP_DAYS = 7

#: What "Discord did not take it this time" looks like (anything else is a bug, or a refusal).
_TRANSIENT = (aiohttp.ClientError, OSError, asyncio.TimeoutError)


class PostPayload(TypedDict):
    """A message as the outbox stores it: the JSON of a `public_posts` row (`post_payload`)."""

    embeds: list[dict[str, Any]]
    locale: str
    rematch_of: int | None
    edit_of: int | None


def post_payload(
    embeds: list[discord.Embed],
    *,
    locale: str,
    rematch_of: int | None = None,
    edit_of: int | None = None,
) -> PostPayload:
    """A message as the outbox stores it (JSON): its embeds as rendered now, and (a match's
    results) the game whose Rematch / Game record / Replay buttons it carries, in `locale`.
    `edit_of`: not a new message but this one's last state (a closed table: no buttons, no
    picture)."""
    return PostPayload(
        embeds=[dict(embed.to_dict()) for embed in embeds],
        locale=locale,
        rematch_of=rematch_of,
        edit_of=edit_of,
    )


def stored_message(payload: Mapping[str, Any]) -> Outgoing:
    """The stored message (`post_payload`), the same whenever it goes out: its embeds and any
    Rematch / Game record / Replay buttons; no text and no picture (an edit to it removes
    them)."""
    embeds = tuple(discord.Embed.from_dict(data) for data in payload.get("embeds") or [])
    game_id = payload.get("rematch_of")
    view = None if game_id is None else rematch_view(int(game_id), payload.get("locale") or "en")
    return Outgoing(embeds=embeds, view=view)


class PublicPoster:
    """Every channel's pending public posts, each posted until Discord took it."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        scale = shared.settings.uno_test_timer_scale
        self.retry_first = RETRY_FIRST * scale
        self.retry_max = RETRY_MAX * scale
        self.attempt_timeout = ATTEMPT_TIMEOUT * scale
        # channel id -> the task posting its pending posts; channels with posts saved since
        # their task last read them; a set event once a channel's current try has settled.
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._wanted: set[int] = set()
        self._settled: dict[int, asyncio.Event] = {}
        self._failing: set[int] = set()  # channels whose current post Discord did not take yet
        self._settling: set[asyncio.Task[None]] = set()  # final tables' standby copies
        self._closed = False

    def deliver(self, channel_id: int) -> None:
        """Post the channel's pending posts (saved just now), in the background."""
        if self._closed:
            return
        self._wanted.add(channel_id)
        self._settled.setdefault(channel_id, asyncio.Event()).clear()
        task = self._tasks.get(channel_id)
        if task is None or task.done():
            task = asyncio.create_task(self._run(channel_id), name=f"uno-posts-{channel_id}")
            self._tasks[channel_id] = task
            task.add_done_callback(functools.partial(self._forget, channel_id))

    async def post_now(self, channel_id: int, timeout: float) -> bool:
        """Deliver the channel's pending posts and wait (at most `timeout` seconds) until they
        went out: True if they did. A failed try ends the wait at once: the posts are retried
        in the background and the caller (a game showing its change) moves on."""
        self.deliver(channel_id)
        task = self._tasks.get(channel_id)
        settled = self._settled.get(channel_id)
        if task is None or settled is None or channel_id in self._failing:
            return False  # an earlier post is being retried: these follow it, later
        waiter = asyncio.ensure_future(settled.wait())
        try:
            await asyncio.wait({task, waiter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
        return task.done()

    async def sweep(self, *, shard_ids: Collection[int] | None = None, shard_count: int = 1) -> int:
        """At start-up: post what the last process saved but Discord never took (for the
        servers of this process's shards, game/registry.py's `shard_filter`), its standby final
        tables included; forget the posts done more than KEEP_DAYS ago. How many channels have posts
        waiting."""

        async def take_over(unit: UnitOfWork) -> list[PendingPost]:
            found = await unit.posts.pending(
                shard_ids=shard_ids, shard_count=shard_count, standby=True
            )
            await unit.posts.wake_standby([post.id for post in found])
            await unit.posts.prune(datetime.now(UTC) - timedelta(days=KEEP_DAYS))
            return found

        pending = await self.shared.db.transact(take_over)
        channels = sorted({post.channel_id for post in pending})
        for channel_id in channels:
            self.deliver(channel_id)
        if pending:
            log.info("%d public posts left by the last run: posting them", len(pending))
        return len(channels)

    def final_table_shown(self, game_id: int, channel_id: int, *, shown: bool) -> None:
        """A finished match's table: this process showed its final state (`shown`: the copy
        kept for a restart is dropped) or gave up waiting (the copy is posted now)."""
        if self._closed:
            return

        async def settle() -> None:
            async def work(unit: UnitOfWork) -> int:
                return await unit.posts.settle_standby(game_id, shown=shown)

            try:
                woken = await self.shared.db.transact(work)
            except Exception:  # kept for the next start-up: nothing is lost
                log.warning("final table of game %s: not settled", game_id, exc_info=True)
                return
            if woken and not shown:
                self.deliver(channel_id)

        task = asyncio.create_task(settle(), name=f"uno-final-table-{game_id}")
        self._settling.add(task)
        task.add_done_callback(self._settling.discard)

    async def close(self) -> None:
        """Stop posting (shutdown): what is still pending stays saved for the next run."""
        self._closed = True
        tasks = [*self._tasks.values(), *self._settling]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _forget(self, channel_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(channel_id) is task:
            del self._tasks[channel_id]
            self._failing.discard(channel_id)
            event = self._settled.pop(channel_id, None)
            if event is not None:
                event.set()

    # ------------------------------------------------------------------ posting

    async def _run(self, channel_id: int) -> None:
        failures = 0
        while channel_id in self._wanted:
            self._wanted.discard(channel_id)
            try:
                async with self.shared.db.read() as unit:
                    pending = await unit.posts.pending(channel_id=channel_id)
            except Exception as exc:  # the store logs its faults; try again later
                failures += 1
                self._wanted.add(channel_id)
                self._settle(channel_id)
                log.warning("public posts of channel %s not read (%s); retrying", channel_id, exc)
                await asyncio.sleep(self._delay(failures))
                continue
            for post in pending:
                await self._post(post)

    async def _post(self, post: PendingPost) -> None:
        """Post `post` until Discord took it or refused it for good, then mark it so (the mark
        is retried by itself: a post Discord took is never sent again by this process)."""
        failures = 0
        message_id: int | None = None
        while True:
            try:
                message_id = await asyncio.wait_for(self._send(post), self.attempt_timeout)
                self._failing.discard(post.channel_id)
                break
            except (discord.Forbidden, discord.NotFound) as exc:
                log.warning(
                    "%s post %s not shown: channel %s refused it (%s)",
                    post.kind,
                    post.id,
                    post.channel_id,
                    exc,
                )
                break
            except discord.HTTPException as exc:
                if exc.status < 500 and exc.status != 429:
                    log.error("%s post %s refused by Discord: %s", post.kind, post.id, exc)
                    break
                failures = self._failed(post, failures, exc)
            except _TRANSIENT as exc:
                failures = self._failed(post, failures, exc)
            except Exception:  # a bug (an unreadable payload): it must not block the channel
                log.exception("%s post %s cannot be sent", post.kind, post.id)
                break
            await asyncio.sleep(self._delay(failures))
        while True:
            try:
                await self._mark(post, message_id)
                break
            except Exception as exc:  # the store logs its own faults
                failures = self._failed(post, failures, exc)
            await asyncio.sleep(self._delay(failures))
        if failures and message_id is not None:
            log.info("%s post %s shown after %d tries", post.kind, post.id, failures + 1)

    async def _send(self, post: PendingPost) -> int:
        channel = self.shared.bot.get_partial_messageable(post.channel_id)
        edit_of = post.payload.get("edit_of")
        if edit_of is not None:  # an edit: done twice, it shows the same
            edit = Ready(stored_message(post.payload)).edit()
            await channel.get_partial_message(int(edit_of)).edit(**edit)
            return int(edit_of)
        message = await channel.send(**Ready(stored_message(post.payload)).send(), nonce=post.nonce)
        return int(message.id)

    async def _mark(self, post: PendingPost, message_id: int | None) -> None:
        async def work(unit: UnitOfWork) -> None:
            if message_id is None:
                await unit.posts.mark_undeliverable(post.id)
            else:
                await unit.posts.mark_posted(post.id, message_id)

        await self.shared.db.transact(work)

    def _failed(self, post: PendingPost, failures: int, exc: BaseException) -> int:
        failures += 1
        self._failing.add(post.channel_id)
        self._settle(post.channel_id)
        delay = self._delay(failures)
        if failures == 1:
            log.warning(
                "%s post %s in channel %s failed (%s); retrying in %.1f s",
                post.kind,
                post.id,
                post.channel_id,
                str(exc) or type(exc).__name__,
                delay,
            )
        else:
            log.info("%s post %s still failing (%d tries: %s)", post.kind, post.id, failures, exc)
        return failures

    def _settle(self, channel_id: int) -> None:
        event = self._settled.get(channel_id)
        if event is not None:
            event.set()

    def _delay(self, failures: int) -> float:
        return float(min(self.retry_max, self.retry_first * 2 ** (failures - 1)))
