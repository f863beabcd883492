"""`/uno table`: a running game's table (or a lobby) posted anew on request.

What a table shows is table_view.py; keeping it current is its owner's table (running.py,
game_table.py), and where it was posted is the owner's to record (`RunningGame.table_posted`).
`/uno table` is answered at once, and the owner's table posts the running game's table anew in
the background: the answer never waits for a table edit, the request budget or the game's lock.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.store import GameStatus
from cogs.uno.answer_in_time import in_time, respond
from cogs.uno.cooldowns import MemberCooldown
from cogs.uno.lobby_view import lobby_kwargs
from cogs.uno.running import RunningGames
from cogs.uno.shared import Shared

#: Seconds between two `/uno table` of one member in one channel: a re-post is a new public
#: message (and the deletion of the old one), paid from the request budget all tables share.
REPOST_EVERY = 10.0


class TablePosts:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        # (channel, member): one `/uno table` in REPOST_EVERY seconds
        self.cooldown = MemberCooldown(REPOST_EVERY, "table.repost_wait")

    async def repost_table(
        self, interaction: discord.Interaction[Any], games: RunningGames
    ) -> None:
        """`/uno table`: the channel's lobby or running table posted anew, at the bottom of the
        channel. A running game's table is re-posted by its owner's table, in the background:
        the asker is told at once (privately) that it comes, and never waits for a table edit
        under way, the request budget or the game's lock. One a member in REPOST_EVERY seconds
        per channel (a re-post is a public message and costs the budget every table shares)."""
        asker = (interaction.channel_id or 0, interaction.user.id)
        self.cooldown.check(asker)
        shared = self.shared
        record = await shared.channel_game(interaction.channel_id or 0)
        if record.status is GameStatus.LOBBY:
            self.cooldown.use(asker)
            kwargs = lobby_kwargs(shared, record)
            response = await interaction.response.send_message(**kwargs)
            message_id = (
                getattr(response, "message_id", None) or (await interaction.original_response()).id
            )
            async with shared.db.write() as unit:
                await unit.games.set_table_message(record.id, message_id)
            await shared.edit_public(record.channel_id, record.table_message_id, view=None)
            return
        await in_time(interaction, self._repost_running(interaction, games, record.id, asker))

    async def _repost_running(
        self,
        interaction: discord.Interaction[Any],
        games: RunningGames,
        game_id: int,
        asker: tuple[int, int],
    ) -> None:
        running = await games.get(game_id)  # (held, or loaded and its clock armed)
        self.cooldown.use(asker)
        text = t("table.reposting", interaction.locale)
        # Told first: an ask Discord already reported failed (its answer refused) posts
        # nothing, as a click too late is not applied. The post itself is never waited for.
        await respond(interaction, ephemeral=True, content=text)
        running.table.request(repost=True)
