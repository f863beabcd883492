"""`/uno-admin`: server-manager commands (hidden from members without Manage Server).

`settings` shows this server's defaults with selects that change them
(cogs/uno/lobby/settings_panel.py), `set` changes one by name (rules are validated by the engine and
refused with its reason), `reset` goes back to the official rules and default settings.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import InvalidRules
from bot.host import Interaction, UnoHost
from bot.i18n import AUTO, t
from bot.i18n.translator import cmd_name, cmd_text
from bot.store import GuildConfig, UnitOfWork
from bot.store.rating_model import SeasonEnd
from bot.ui.errors import send_ephemeral, user_error_text
from bot.ui.rule_errors import rules_error
from bot.ui.rule_options import (
    option_choices,
    option_label,
    value_choices,
)
from cogs.uno.boards import announce_season_ends
from cogs.uno.delivery import Ready
from cogs.uno.lobby.settings_panel import changed_config, server_panel


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class AdminCog(
    commands.GroupCog, group_name=cmd_name("admin"), group_description=cmd_text("cmd.admin")
):
    def __init__(self, bot: UnoHost) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name=cmd_name("admin.sync"), description=cmd_text("cmd.admin.sync"))
    async def sync(self, interaction: Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            await interaction.response.send_message(
                t("error.owner_only", interaction.locale), ephemeral=True
            )
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.sync_commands(force=True)  # (forced: always the global commands)
        await interaction.followup.send(t("notice.synced", interaction.locale), ephemeral=True)

    # ------------------------------------------------------------------ server settings

    def _allowed(self, interaction: Interaction) -> bool:
        return interaction.guild_id is not None and interaction.permissions.manage_guild

    async def _show(
        self, interaction: Interaction, config: GuildConfig, notice: str | None
    ) -> None:
        panel = Ready(server_panel(config, interaction.locale, notice=notice)).send()
        await interaction.response.send_message(**panel, ephemeral=True)

    @app_commands.command(
        name=cmd_name("admin.settings"), description=cmd_text("cmd.admin.settings")
    )
    async def settings(self, interaction: Interaction) -> None:
        if not self._allowed(interaction):
            await send_ephemeral(interaction, t("error.no_permission", interaction.locale))
            return
        async with self.bot.database.read() as unit:
            config = await unit.settings.guild(interaction.guild_id or 0)  # (checked above)
        await self._show(interaction, config, None)

    @app_commands.command(name=cmd_name("admin.set"), description=cmd_text("cmd.admin.set"))
    @app_commands.rename(option=cmd_name("option.option"), value=cmd_name("option.value"))
    @app_commands.describe(option=cmd_text("cmd.set.option"), value=cmd_text("cmd.set.value"))
    async def set(self, interaction: Interaction, option: str, value: str) -> None:
        locale = interaction.locale
        if not self._allowed(interaction):
            await send_ephemeral(interaction, t("error.no_permission", locale))
            return
        guild_id = interaction.guild_id or 0
        try:
            async with self.bot.database.write() as unit:
                config = await unit.settings.update_guild(
                    guild_id, partial(changed_config, option=option, value=value)
                )
        except InvalidRules as exc:
            text = user_error_text(rules_error(exc), locale)
            await send_ephemeral(interaction, text)
            return
        service = self.bot.uno
        if service is not None:
            service.settings_changed(guild_id)
        notice = t("notice.setting_changed", locale, option=option_label(option, locale))
        await self._show(interaction, config, notice)

    @set.autocomplete("option")
    async def set_option(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=label, value=name)
            for label, name in option_choices(current, interaction.locale)
        ]

    @set.autocomplete("value")
    async def set_value(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        option = str(getattr(interaction.namespace, "option", "") or "")
        return [
            app_commands.Choice(name=label, value=value)
            for label, value in value_choices(option, current, interaction.locale)
        ]

    @app_commands.command(name=cmd_name("admin.reset"), description=cmd_text("cmd.admin.reset"))
    async def reset(self, interaction: Interaction) -> None:
        if not self._allowed(interaction):
            await send_ephemeral(interaction, t("error.no_permission", interaction.locale))
            return
        guild_id = interaction.guild_id or 0
        config = GuildConfig(guild_id)
        async with self.bot.database.write() as unit:
            await unit.settings.save_guild(config)
        service = self.bot.uno
        if service is not None:
            service.settings_changed(guild_id)
        await self._show(interaction, config, t("notice.settings_reset", interaction.locale))

    # ------------------------------------------------------------------ rating seasons

    @app_commands.command(
        name=cmd_name("admin.season_end"), description=cmd_text("cmd.admin.season_end")
    )
    @app_commands.rename(channel=cmd_name("option.channel"))
    @app_commands.describe(channel=cmd_text("cmd.admin.season_end.channel"))
    async def season_end(
        self, interaction: Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        """End the rating season now: its champion and top ten are archived and announced, the
        next season starts with every rating carried over (bot/store/ratings.py). A `channel`
        given is where this and later champions are announced."""
        locale = interaction.locale
        if not self._allowed(interaction):
            await send_ephemeral(interaction, t("error.no_permission", locale))
            return
        guild_id = interaction.guild_id or 0
        chosen = None if channel is None else channel.id

        async def work(unit: UnitOfWork) -> tuple[SeasonEnd | None, GuildConfig]:
            if chosen is not None:
                config = await unit.settings.update_guild(
                    guild_id, lambda c: replace(c, season_channel_id=chosen)
                )
            else:
                config = await unit.settings.guild(guild_id)
            return await unit.ratings.end_season(guild_id), config

        ended, config = await self.bot.database.transact(work)
        if ended is None:
            await send_ephemeral(interaction, t("notice.season_empty", locale))
            return
        notice = t("notice.season_ended", locale, season=ended.number, next=ended.number + 1)
        await send_ephemeral(interaction, notice)  # first: the interaction waits 3 s at most
        language = config.language
        public = interaction.guild_locale if language == AUTO else language
        service = self.bot.uno
        if service is not None:  # posted by this process's outbox
            await service.announce_season_ends(guild_id, public)
        else:  # (no game service: saved, and posted at the next start)
            await announce_season_ends(self.bot.database, None, guild_id, public)


async def setup(bot: UnoHost) -> None:
    await bot.add_cog(AdminCog(bot))
