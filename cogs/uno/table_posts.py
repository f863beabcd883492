"""`/uno table`: a running game's table (or a lobby) posted anew on request.

What a table shows is table_view.py; keeping it current is its owner's table (running.py,
game_table.py), and where it was posted is the owner's to record (`RunningGame.table_posted`).
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from bot.store import GameStatus
from cogs.uno.lobby_view import lobby_kwargs
from cogs.uno.pictures import attach, has_picture
from cogs.uno.running import RunningGames
from cogs.uno.shared import Shared
from cogs.uno.table_view import table_kwargs


class TablePosts:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared

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
            await running.table.flush(timeout=5)
            response = await interaction.response.send_message(**sent)
            if picture is not None and not has_picture(sent):
                running.table.picture_missing()  # late: the next update brings it
            else:
                running.table.showing(picture.key if picture else None)
            old = live.table_message_id
            message_id = (
                getattr(response, "message_id", None) or (await interaction.original_response()).id
            )
            await running.table_posted(message_id)
        if live.game.version != shown_version:  # a move came while it was drawn: show it
            running.table.request()
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await (
                    shared.bot.get_partial_messageable(live.channel_id)
                    .get_partial_message(old)
                    .delete()
                )
