"""The end of a rating season in public: each ended season's champion and top ten are announced
once, in the channel the admin chose or else the channel of the season's last counted match.

Seasons end in the store (bot/store/ratings.py): by `/uno-admin end-season`, or lazily when a
monthly or quarterly period is over, at the first counted match or leaderboard view after it.
An ended season waits there, unannounced, until one caller claims its announcement.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.store import Database, UnitOfWork
from bot.ui.stats import render_season_end

log = logging.getLogger(__name__)


async def announce_season_ends(db: Database, bot: Any, guild_id: int, locale: object) -> None:
    """Post the champion of every ended season of the server not announced yet."""
    async with db.read() as unit:
        pending = await unit.ratings.unannounced(guild_id)
        if not pending:
            return
        chosen = (await unit.settings.guild(guild_id)).season_channel_id
    for end in pending:

        async def claim(unit: UnitOfWork, number: int = end.number) -> bool:
            return await unit.ratings.claim_announcement(guild_id, number)

        if not await db.transact(claim):
            continue  # somebody else announces it
        channel = chosen or end.channel_id
        if channel is None:
            continue
        embed = render_season_end(end.number, end.standings, locale)
        try:
            await bot.get_partial_messageable(channel).send(embed=embed)
        except discord.HTTPException:
            log.warning("could not announce season %s in channel %s", end.number, channel)


async def roll_over_if_due(db: Database, guild_id: int) -> None:
    """End the current season if its monthly or quarterly period is over (a lazy check)."""

    async def work(unit: UnitOfWork) -> None:
        await unit.ratings.roll_over_if_due(guild_id)

    await db.transact(work)
