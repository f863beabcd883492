"""The public table of a running game: what it shows, where it is, and `/uno table`.

Updates are coalesced by TableUpdater (table_updater.py); this module gives it the rendering and
records the message it posted, and re-posts a table (or a lobby) on request: `/uno table` is
answered at once, and the table updater posts the running game's table anew in the background.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.store import GameStatus
from bot.ui.pictures import table_picture
from bot.ui.table_message import render_table
from cogs.uno.answer_in_time import in_time, respond
from cogs.uno.cooldowns import MemberCooldown
from cogs.uno.live import LiveGame
from cogs.uno.lobby_view import lobby_kwargs
from cogs.uno.pictures import images_on
from cogs.uno.running import RunningGames
from cogs.uno.shared import Shared
from cogs.uno.table_updater import TableUpdater
from cogs.uno.turn_clock import MAX_TIMEOUTS

#: Seconds between two `/uno table` of one member in one channel: a re-post is a new public
#: message (and the deletion of the old one), paid from the request budget all tables share.
REPOST_EVERY = 10.0


def table_kwargs(shared: Shared, live: LiveGame) -> dict[str, Any]:
    """The running game's table, with the turn timer's countdown (and warning) when it is on,
    and (card pictures on) its picture under "picture" (see pictures.py)."""
    locale = shared.public_locale(live.guild_id)
    current = live.game.current_player
    lost = live.timeouts.get(current, 0) if current is not None else 0
    picture = (
        table_picture(live.game, live.names, locale) if images_on(shared, live.guild_id) else None
    )
    kwargs = render_table(
        live.game,
        live.game_id,
        live.names,
        locale,
        log=live.log.lines(),
        deadline=live.deadline,
        last_chance=lost if lost >= MAX_TIMEOUTS - 1 else 0,
        pictured=picture is not None,
    )
    if picture is not None:
        picture.point(kwargs["embed"])
        kwargs["picture"] = picture
    return kwargs


class TablePosts:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        settings = shared.settings
        self.updater = TableUpdater(
            shared.bot,
            self._render_job,
            self._posted,
            interval=settings.table_edit_interval,
            repost_after=settings.table_repost_after,
            budget=shared.bot.request_budget,
        )
        # (channel, member): one `/uno table` in REPOST_EVERY seconds
        self.cooldown = MemberCooldown(REPOST_EVERY, "table.repost_wait")

    def _render_job(self, game_id: int) -> Any:
        live = self.shared.live.get(game_id)
        if live is None:
            return None
        return live.channel_id, live.table_message_id, table_kwargs(self.shared, live)

    async def _posted(self, game_id: int, message_id: int) -> None:
        live = self.shared.live.get(game_id)
        if live is not None:
            live.table_message_id = message_id
        async with self.shared.db.write() as unit:
            await unit.games.set_table_message(game_id, message_id)

    async def repost_table(
        self, interaction: discord.Interaction[Any], games: RunningGames
    ) -> None:
        """`/uno table`: the channel's lobby or running table posted anew, at the bottom of the
        channel. A running game's table is re-posted by its table updater, in the background:
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
        self.updater.request(running.live.game_id, repost=True)
