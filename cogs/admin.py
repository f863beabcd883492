"""`/uno-admin`: server-manager commands (hidden from members without Manage Server)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.i18n.translator import cmd_text


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(commands.GroupCog, group_name="uno-admin", group_description=cmd_text("cmd.admin")):
    def __init__(self, bot: Any) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="sync", description=cmd_text("cmd.admin.sync"))
    async def sync(self, interaction: discord.Interaction[Any]) -> None:
        if not await self.bot.is_owner(interaction.user):
            await interaction.response.send_message(
                t("error.owner_only", interaction.locale), ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        done = await self.bot.sync_commands(force=True)
        await interaction.followup.send(
            t("notice.synced", interaction.locale, where=done), ephemeral=True
        )


async def setup(bot: Any) -> None:
    await bot.add_cog(AdminCog(bot))
