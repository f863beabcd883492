"""The end of a rating season in public: each ended season's champion and top ten are announced
once, in the channel the admin chose or else the channel of the season's last counted match.

Seasons end in the store (bot/store/ratings.py): by `/uno-admin end-season`, or lazily when a
monthly or quarterly period is over, at the first counted match or leaderboard view after it.
An ended season waits there, unannounced, until one caller claims its announcement.
"""

from __future__ import annotations

import logging

from bot.store import Database, UnitOfWork
from bot.ui.stats import render_season_end
from cogs.uno.public_posts import PublicPoster, post_payload

log = logging.getLogger(__name__)


async def announce_season_ends(
    db: Database, posts: PublicPoster | None, guild_id: int, locale: object
) -> None:
    """Post the champion of every ended season of the server not announced yet: the claim and
    the post are saved together (the outbox, public_posts.py), so a post Discord does not take
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
            [render_season_end(end.number, end.standings, locale)], locale=str(locale)
        )

        async def claim(
            unit: UnitOfWork,
            number: int = end.number,
            where: int | None = channel,
            payload: dict[str, object] = payload,
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
