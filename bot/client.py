"""The discord.py bot: loads the cogs, registers the persistent buttons, syncs commands wisely.

Command sync policy: to `DEV_GUILD_ID` at every start when it is set (instant, for development);
otherwise globally, but only when the command definitions changed since the last global sync (a
hash kept in the database), so deployments get new commands by themselves and restarts cost no
sync (Discord allows 200 command creates a day per guild).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord.ext import commands

from bot.i18n import available_locales, catalogue
from bot.i18n.translator import CatalogueTranslator
from bot.settings import Settings
from bot.store import Database
from bot.ui.items import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.uno", "cogs.admin")
COMMANDS_HASH_KEY = "commands_hash"


class UnoBotMixin:
    """Everything our bot adds to discord.py's Bot; mixed into a sharded and a plain class."""

    settings: Settings
    database: Database
    components: Any

    def _init_uno(self, settings: Settings, database: Database) -> None:
        self.settings = settings
        self.database = database
        self.components = None  # the game service, installed by cogs.uno
        self.synced_at_start: str | None = None  # "guild", "global" or None, for tests/logs

    async def setup_hook(self) -> None:
        bot: commands.Bot = self  # type: ignore[assignment]
        await bot.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        bot.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.sync_commands()

    def command_hash(self) -> str:
        """A digest of every command definition and its translations."""
        bot: commands.Bot = self  # type: ignore[assignment]
        definitions = sorted(
            (c.to_dict(bot.tree) for c in bot.tree.get_commands()), key=lambda d: d["name"]
        )
        translations = {
            code: {
                k: v
                for k, v in catalogue(code).items()
                if k.startswith(("cmd.", "preset.", "scoring.", "color.", "leaderboard.sort."))
            }
            for code in available_locales()
        }
        blob = json.dumps([definitions, translations], sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    async def sync_commands(self, *, force: bool = False) -> str:
        bot: commands.Bot = self  # type: ignore[assignment]
        guild_id = self.settings.dev_guild_id
        if guild_id and not force:
            guild = discord.Object(id=guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), guild_id)
            self.synced_at_start = "guild"
            return "guild"
        digest = self.command_hash()
        async with self.database.read() as unit:
            stored = await unit.settings.get_value(COMMANDS_HASH_KEY)
        if stored == digest and not force:
            log.info("commands unchanged since the last global sync: not syncing")
            return "unchanged"
        synced = await bot.tree.sync()
        async with self.database.write() as unit:
            await unit.settings.set_value(COMMANDS_HASH_KEY, digest)
        log.info("synced %d global commands", len(synced))
        self.synced_at_start = "global"
        return "global"

    async def on_ready(self) -> None:
        user = getattr(self, "user", None)
        log.info("ready as %s", user)


def _intents() -> discord.Intents:
    # Interactions carry the member: no privileged intents, only guilds (for channel lookups).
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class UnoBot(UnoBotMixin, commands.Bot):
    def __init__(self, settings: Settings, database: Database, **options: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=_intents(), **options)
        self._init_uno(settings, database)


class ShardedUnoBot(UnoBotMixin, commands.AutoShardedBot):
    def __init__(self, settings: Settings, database: Database, **options: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=_intents(), **options)
        self._init_uno(settings, database)


def create_bot(settings: Settings, database: Database) -> commands.Bot:
    """A sharded bot when SHARD_COUNT is set (SHARD_IDS: the shards this process runs)."""
    options: dict[str, Any] = {
        "allowed_mentions": discord.AllowedMentions.none(),
        "help_command": None,
        # Nothing here reads a cached message (interactions carry theirs): no cache to fill.
        "max_messages": None,
    }
    if settings.owner_ids:
        options["owner_ids"] = set(settings.owner_ids)
    if settings.shard_count:
        return ShardedUnoBot(
            settings,
            database,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
            **options,
        )
    return UnoBot(settings, database, **options)
