"""The public table of a running game: what it shows, where it is, and `/uno table`.

Updates are coalesced by TableUpdater (table_updater.py); this module gives it the rendering and
records the message it posted, and re-posts a table (or a lobby) on request.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.store import GameStatus
from bot.ui.pictures import table_picture
from bot.ui.table_message import render_table
from cogs.uno.live import LiveGame
from cogs.uno.lobby_view import lobby_kwargs
from cogs.uno.pictures import attach, has_picture, images_on
from cogs.uno.running import RunningGames
from cogs.uno.shared import Shared
from cogs.uno.table_updater import TableUpdater
from cogs.uno.turn_clock import MAX_TIMEOUTS


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
        shared = self.shared
        record = await shared.channel_game(interaction.channel_id or 0)
        if record.status is GameStatus.LOBBY:
            kwargs = lobby_kwargs(shared, record)
            response = await interaction.response.send_message(**kwargs)
            message_id = (
                getattr(response, "message_id", None) or (await interaction.original_response()).id
            )
            async with shared.db.write() as unit:
                await unit.games.set_table_message(record.id, message_id)
            await shared.edit_public(record.channel_id, record.table_message_id, view=None)
            return
        running = await games.get(record.id)
        live = running.live
        kwargs = table_kwargs(shared, live)  # the saved state: no lock needed to read it
        shown_version = live.game.version
        picture = kwargs.get("picture")
        sent = await attach(kwargs, edit=False)  # drawn before the lock is taken
        async with running.lock:  # no move meanwhile, and the updater's edits land first
            await self.updater.flush(live.game_id, timeout=5)
            response = await interaction.response.send_message(**sent)
            if picture is not None and not has_picture(sent):
                self.updater.picture_missing(live.game_id)  # late: the next update brings it
            else:
                self.updater.showing(live.game_id, picture.key if picture else None)
            old = live.table_message_id
            message_id = (
                getattr(response, "message_id", None) or (await interaction.original_response()).id
            )
            await self._posted(live.game_id, message_id)
        if live.game.version != shown_version:  # a move came while it was drawn: show it
            self.updater.request(live.game_id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await (
                    shared.bot.get_partial_messageable(live.channel_id)
                    .get_partial_message(old)
                    .delete()
                )
