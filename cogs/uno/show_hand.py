"""A player's hand: shown privately (ephemeral), to the player it belongs to only, and from then
on kept up to date as their live hand (live_hands.py)."""

from __future__ import annotations

from typing import Any

import discord

from bot.ui.errors import UserError
from cogs.uno.answer_in_time import respond
from cogs.uno.hand_view import hand_kwargs
from cogs.uno.pictures import images_on
from cogs.uno.running import RunningGames


class Hands:
    def __init__(self, games: RunningGames) -> None:
        self.games = games

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        *,
        page: int = 0,
        edit: bool = False,
        notice: str | None = None,
    ) -> None:
        running = await self.games.get(game_id)
        live = running.live
        self.games.shared.require_channel(interaction, live.channel_id)
        user = interaction.user.id
        if user not in live.game.players:
            raise UserError("error.not_a_player")
        if user in live.game.left:
            raise UserError("error.you_left")
        pictures = images_on(self.games.shared, live.guild_id)
        kwargs = hand_kwargs(
            live, user, interaction.locale, page=page, notice=notice, pictures=pictures
        )
        hands = running.hands  # the game's live hands: this answer becomes the player's
        if edit and hands.replaced(interaction.message):
            edit = False  # the player opened a newer hand: this one is going; answer anew
        async with hands.answer(interaction, user, kwargs, edit=edit) as (kwargs, shown):
            await respond(interaction, edit=edit, **({} if edit else {"ephemeral": True}), **kwargs)
            hands.register(interaction, user, page=page, picture=shown)
