"""Public leaderboards without noise: a board already posted in the channel within the last
minutes is refreshed in place (edited with the latest standings) and the asker is pointed to it
privately, instead of a new public message.

Refresh and point, rather than only point: the board everyone sees then shows the standings of
the moment it was asked for, and the channel gets no new message. One lock per channel makes the
decision and the post one step, so any number of concurrent asks give at most one new message.
What was posted is kept in memory: a channel belongs to one process, and after a restart the
worst case is one new board. The pointer says when the board was posted as a Discord timestamp
(read from its message id), which each reader's app words in their language ("5 seconds ago").

Every board is one game's (bot/engine/game_kinds.py): classic, No Mercy, ... each with its own
points and ratings; a posted board is refreshed only by an ask for the same game, sort and page.

A board with nobody on it (a new server, a page past the last) is not posted: the asker alone is
told there is nothing to post, and the channel gets no empty message.

The end of a rating season in public: each ended season's champion and top ten are announced
once, in the channel the admin chose or else the channel of the season's last counted match.

Seasons end in the store (bot/store/ratings.py): by `/uno-admin end-season`, or lazily when a
monthly or quarterly period is over, at the first counted match or leaderboard view after it.
An ended season waits there, unannounced, until one caller claims its announcement.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.host import Interaction
from bot.i18n import t
from bot.store import Database, UnitOfWork, is_leaderboard_sort
from bot.ui.outgoing import Outgoing
from bot.ui.stats import render_leaderboard, render_rating_board, render_season_end
from cogs.uno.answers import answers_in_time, respond
from cogs.uno.outbox import PostPayload, PublicPoster, post_payload
from cogs.uno.shared import Shared

#: How long a posted board is refreshed instead of posted again (seconds).
FRESH_FOR = 300.0


@dataclass(frozen=True, slots=True)
class PostedBoard:
    message_id: int
    posted_at: float  # on the boards' clock


class PublicBoards:
    def __init__(
        self,
        shared: Shared,
        *,
        fresh_for: float = FRESH_FOR,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.shared = shared
        self.fresh_for = fresh_for
        self.clock = clock
        self._posted: dict[tuple[int, str, str, int], PostedBoard] = {}
        self._locks: dict[int, asyncio.Lock] = {}

    def recent(self, channel_id: int, game: str, sort: str, page: int) -> PostedBoard | None:
        """The board of this game, sort and page posted in the channel within `fresh_for`."""
        posted = self._posted.get((channel_id, game, sort, page))
        if posted is None or self.clock() - posted.posted_at > self.fresh_for:
            return None
        return posted

    def _remember(self, channel_id: int, game: str, sort: str, page: int, message_id: int) -> None:
        now = self.clock()
        for key, old in list(self._posted.items()):  # forget the stale ones
            if now - old.posted_at > self.fresh_for:
                del self._posted[key]
        self._posted[(channel_id, game, sort, page)] = PostedBoard(message_id, now)

    async def show(self, interaction: Interaction, game: str, sort: str, page: int) -> None:
        """`/uno leaderboard` in public: refresh and point to a recent board, or post one."""
        channel_id = interaction.channel_id or 0
        lock = self._locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            posted = self.recent(channel_id, game, sort, page)
            if posted is not None and await self._refresh(interaction, posted, game, sort, page):
                return
            await self._post(interaction, game, sort, page)

    async def _board(
        self, guild_id: int, game: str, sort: str, page: int
    ) -> tuple[discord.Embed, bool]:
        await self.shared.load_settings(guild_id)
        locale = self.shared.public_locale(guild_id)
        return await self._render(guild_id, game, sort, page, locale)

    async def render(
        self, guild_id: int, game: str, sort: str, page: int, locale: object
    ) -> discord.Embed:
        """A board of `game`: "rating" (the current season's ratings), "season:N" (an ended
        season's final standings) or a totals sort ("points", "wins", ...)."""
        return (await self._render(guild_id, game, sort, page, locale))[0]

    async def _render(
        self, guild_id: int, game: str, sort: str, page: int, locale: object
    ) -> tuple[discord.Embed, bool]:
        """The board (see `render`) and whether anyone is on it."""
        async with self.shared.db.read() as unit:
            if sort == "rating" or sort.startswith("season:"):
                season = int(sort.split(":")[1]) if ":" in sort else None
                rated = await unit.ratings.board(guild_id, game=game, season=season, page=page)
                board = None
            elif is_leaderboard_sort(sort):
                board = await unit.stats.leaderboard(guild_id, game=game, sort=sort, page=page)
                rated = None
            else:
                raise ValueError(f"no board sorted by {sort!r}")
        if board is not None:
            return render_leaderboard(board, locale), bool(board.entries)
        if rated is None:
            empty = discord.Embed(description=t("leaderboard.empty", locale), colour=0xF1C40F)
            return empty, False
        return render_rating_board(rated, locale), bool(rated.entries)

    @answers_in_time(ephemeral=False)
    async def _post(self, interaction: Interaction, game: str, sort: str, page: int) -> None:
        channel_id = interaction.channel_id or 0
        embed, anyone = await self._board(interaction.guild_id or 0, game, sort, page)
        if not anyone:  # (an empty board is no news for the channel)
            text = t("leaderboard.nothing_to_post", interaction.locale)
            await respond(interaction, Outgoing(content=text), ephemeral=True)
            return
        response = await respond(interaction, Outgoing.of(embed))
        message_id = getattr(response, "message_id", None)
        if message_id is None:
            message_id = (await interaction.original_response()).id
        self._remember(channel_id, game, sort, page, message_id)

    @answers_in_time()
    async def _refresh(
        self, interaction: Interaction, posted: PostedBoard, game: str, sort: str, page: int
    ) -> bool:
        """Edit the posted board with the latest standings and point the asker to it; False
        (nothing answered) if that board is gone."""
        channel_id = interaction.channel_id or 0
        embed, _ = await self._board(interaction.guild_id or 0, game, sort, page)
        message = self.shared.bot.get_partial_messageable(
            channel_id, guild_id=interaction.guild_id
        ).get_partial_message(posted.message_id)
        try:
            await message.edit(embed=embed)
        except discord.HTTPException:
            self._posted.pop((channel_id, game, sort, page), None)
            return False
        posted_at = discord.utils.snowflake_time(posted.message_id)
        when = discord.utils.format_dt(posted_at, "R")  # ("5 seconds ago", in the reader's app)
        text = t("leaderboard.refreshed", interaction.locale, when=when, link=message.jump_url)
        await respond(interaction, Outgoing(content=text), ephemeral=True)
        return True


log = logging.getLogger(__name__)


async def announce_season_ends(
    db: Database, posts: PublicPoster | None, guild_id: int, locale: object
) -> None:
    """Post the champion of every ended season of the server not announced yet: the claim and
    the post are saved together (the outbox, outbox.py), so a post Discord does not take
    now, or that a restart interrupts, is posted later, and never twice. `posts`: this
    process's poster (None: the next start-up posts it)."""
    async with db.read() as unit:
        pending = await unit.ratings.unannounced(guild_id)
        if not pending:
            return
        chosen = (await unit.settings.guild(guild_id)).season_channel_id
    for end in pending:
        channel = chosen or end.channel_id
        payload = post_payload(
            [render_season_end(end.number, end.boards, locale)], locale=str(locale)
        )

        async def claim(
            unit: UnitOfWork,
            number: int = end.number,
            where: int | None = channel,
            payload: PostPayload = payload,
        ) -> bool:
            if not await unit.ratings.claim_announcement(guild_id, number):
                return False  # somebody else announces it
            if where is not None:
                await unit.posts.add(
                    guild_id=guild_id,
                    channel_id=where,
                    game_id=None,
                    kind="season",
                    payload=payload,
                )
            return True

        if await db.transact(claim) and channel is not None and posts is not None:
            posts.deliver(channel)


async def roll_over_if_due(db: Database, guild_id: int) -> None:
    """End the current season if its monthly or quarterly period is over (a lazy check)."""

    async def work(unit: UnitOfWork) -> None:
        await unit.ratings.roll_over_if_due(guild_id)

    await db.transact(work)
