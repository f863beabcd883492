"""A player's hand: shown privately (ephemeral), to the player it belongs to only."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.ui.errors import UserError
from bot.ui.hand import render_hand
from cogs.uno.deadline import respond
from cogs.uno.house import House
from cogs.uno.live import LiveGame
from cogs.uno.pictures import attach, images_on


def host_for_next(live: LiveGame) -> int | None:
    """Who may start the next round: the host, or anyone once the host has left."""
    return live.host_id if live.host_present else None


def hand_kwargs(
    live: LiveGame,
    user: int,
    locale: object,
    *,
    page: int = 0,
    notice: str | None = None,
    pictures: bool = False,
) -> dict[str, Any]:
    """Keyword arguments for the message showing `user` their hand (`pictures`: with its
    picture under "picture", for `pictures.attach`, and card emojis on the buttons)."""
    return render_hand(
        live.game,
        live.game_id,
        user,
        live.names,
        locale,
        page=page,
        notice=notice,
        host_id=host_for_next(live),
        pictures=pictures,
    )


#: Told of every answer that showed a player their hand: (interaction, game, player, page=).
#: live_hands.py keeps that message up to date (a callback: it imports this module).
HandShown = Callable[..., None]


def no_hand_kept(*args: Any, **kwargs: Any) -> None:
    """A HandShown that keeps nothing up to date."""


#: Waits (briefly) until no edit of a player's hand is on its way: (game id, player).
#: An answer sent meanwhile could reach Discord first and then be overwritten by that older
#: edit (live_hands.py), all the more since an edit with a picture is the larger request.
HandQuiet = Callable[[int, int], Awaitable[None]]


async def nothing_in_flight(game_id: int, user: int) -> None:
    """A HandQuiet for hands nobody edits in the background."""


class Hands:
    def __init__(
        self, house: House, shown: HandShown = no_hand_kept, quiet: HandQuiet = nothing_in_flight
    ) -> None:
        self.house = house
        self.shown = shown
        self.quiet = quiet

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        *,
        page: int = 0,
        edit: bool = False,
        notice: str | None = None,
    ) -> None:
        live = await self.house.get_live(game_id)
        self.house.require_channel(interaction, live.channel_id)
        user = interaction.user.id
        if user not in live.game.players:
            raise UserError("error.not_a_player")
        if user in live.game.left:
            raise UserError("error.you_left")
        pictures = images_on(self.house, live.guild_id)
        kwargs = hand_kwargs(
            live, user, interaction.locale, page=page, notice=notice, pictures=pictures
        )
        kwargs = await attach(kwargs, edit=edit)
        await self.quiet(live.game_id, user)
        await respond(interaction, edit=edit, **({} if edit else {"ephemeral": True}), **kwargs)
        self.shown(interaction, live, user, page=page)
