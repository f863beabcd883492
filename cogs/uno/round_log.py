"""The table's Log button: the round's whole log, shown privately to whoever clicks it.

The table shows only the newest few lines (phones); anyone in the channel (players and
onlookers alike: the log is public) can read the whole round here. Lines are in the server's
language, as the table tells them; the log lives in memory, so after a restart it starts at
the "resumed" line.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.ui.table_message import render_round_log
from cogs.uno.running import RunningGames


class RoundLog:
    def __init__(self, games: RunningGames) -> None:
        self.games = games

    async def show(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        running = await self.games.get(game_id)
        live = running.live
        self.games.shared.require_channel(interaction, live.channel_id)
        embed, whole = render_round_log(
            live.log.round_lines(), live.game.round_number, interaction.locale
        )
        extra: dict[str, Any] = {}
        if whole is not None:  # too long for the message: the whole log as a file
            data = io.BytesIO(whole.encode())
            extra["file"] = discord.File(data, f"round-{live.game.round_number}.txt")
        await interaction.response.send_message(embed=embed, ephemeral=True, **extra)
