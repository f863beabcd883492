"""The contract between the client (bot/client.py) and the cogs it loads, as two Protocols.

The cogs may not import the client (it sits above them and loads them by name), yet they use
it: its settings, its database, its command tree, a few of discord.py's calls. `UnoHost` says
exactly which, so the cogs are type-checked against it and a test's stand-in bot knows what to
offer; `GameService` is what the game installs on the host (`host.uno`) for the client and the
admin cog to call. bot/client.py checks that its bots are `UnoHost`s.
"""

from __future__ import annotations

from typing import Protocol, TypeAlias

import discord
from discord import app_commands
from discord.ext import commands

from bot.request_budget import RequestBudget
from bot.settings import Settings
from bot.store import Database
from bot.ui.items import Click

#: An interaction as the cogs receive it: discord.py's, from the host's client.
Interaction: TypeAlias = discord.Interaction[discord.Client]


class GameService(Protocol):
    """What the client and the admin cog ask of the game (cogs.uno's `UnoApp`, installed as
    `host.uno` while the cog is loaded)."""

    async def handle_click(self, interaction: Interaction, click: Click) -> None: ...

    async def stop_clocks(self) -> None: ...

    def running_games(self) -> int: ...

    async def finish_tables(self, timeout: float) -> bool: ...

    def settings_changed(self, guild_id: int) -> None: ...

    async def announce_season_ends(self, guild_id: int, locale: object) -> None: ...


class UnoHost(Protocol):
    """The bot as the cogs use it: a discord.py `commands.Bot` (plain or sharded) with the
    process's settings and database, the game service slot and the request budget."""

    settings: Settings
    database: Database
    uno: GameService | None
    request_budget: RequestBudget | None

    @property
    def tree(self) -> app_commands.CommandTree[discord.Client]: ...

    async def add_cog(self, cog: commands.Cog, /) -> None: ...

    async def is_owner(self, user: discord.abc.User, /) -> bool: ...

    async def sync_commands(self, *, force: bool = False) -> str: ...

    def guild_locale(self, guild_id: int) -> str | None: ...

    def get_partial_messageable(
        self, id: int, /, *, guild_id: int | None = None
    ) -> discord.PartialMessageable: ...

    async def fetch_application_emojis(self) -> list[discord.Emoji]: ...

    async def create_application_emoji(self, *, name: str, image: bytes) -> discord.Emoji: ...
