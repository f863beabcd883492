"""The discord.py bot: loads the cogs, registers the persistent buttons, syncs commands wisely.

Command sync policy: to `DEV_GUILD_ID` at every start when it is set (instant, for development);
otherwise globally, but only when the command definitions changed since the last global sync (a
hash kept in the database), so deployments get new commands by themselves and restarts cost no
sync (Discord allows 200 command creates a day per guild).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import GameService, UnoHost
from bot.i18n import available_locales, catalogue
from bot.i18n.translator import CatalogueTranslator
from bot.request_budget import RequestBudget, RequestCounter, log_summaries, trace_config
from bot.settings import Settings
from bot.store import Database
from bot.ui.errors import ANSWER_WINDOW
from bot.ui.items import DYNAMIC_ITEMS

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.uno", "cogs.admin")
COMMANDS_HASH_KEY = "commands_hash"
#: Catalogue keys that appear in the command tree (their translations are part of its hash).
COMMAND_KEYS = (
    "cmd.",
    "cmdname.",
    "preset.",
    "scoring.",
    "color.",
    "leaderboard.sort.",
    "computer.level.",
)
#: Seconds a shutdown waits for the interactions being processed, then for the pending tables:
#: at least SHUTDOWN_TABLES_GRACE, else what the interactions left of SHUTDOWN_GRACE (a table
#: whose picture is late waits for that picture's deadline, 3 s, before it goes text-only).
#: Together well under the 10 s a process manager gives before SIGKILL.
SHUTDOWN_INTERACTIONS_GRACE = 6.0
SHUTDOWN_TABLES_GRACE = 2.0
SHUTDOWN_GRACE = 8.0


def interaction_age(interaction: discord.Interaction[Any]) -> float:
    """Seconds since Discord created the interaction (its id is a snowflake, whose time is
    Discord's clock)."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds()


if TYPE_CHECKING:
    # The mixin is only ever mixed into a discord.py Bot (plain or sharded, which share
    # everything used here): to the type checker it is one.
    _BotBase = commands.Bot
else:
    _BotBase = object


class UnoBotMixin(_BotBase):
    """Everything our bot adds to discord.py's Bot; mixed into a sharded and a plain class."""

    settings: Settings
    database: Database
    uno: GameService | None

    request_budget: RequestBudget | None
    request_counter: RequestCounter

    def _with_request_budget(self, settings: Settings, options: dict[str, Any]) -> dict[str, Any]:
        """discord.py's options plus the trace (`http_trace`, a public hook on discord.py's HTTP
        session) that counts every request and schedules the global-limited ones within
        REQUEST_BUDGET (request_budget.py). Called before discord.py's own __init__."""
        budget = RequestBudget(settings.request_budget) if settings.request_budget else None
        self.request_budget, self.request_counter = budget, RequestCounter()
        return {**options, "http_trace": trace_config(budget, self.request_counter)}

    def _init_uno(self, settings: Settings, database: Database) -> None:
        self.settings = settings
        self.database = database
        self.uno = None  # the game, installed by cogs.uno
        self.synced_at_start: str | None = None  # "guild", "global" or None, for tests/logs
        self.accepting_interactions = True  # False once a shutdown began
        self._summaries: asyncio.Task[None] | None = None
        self._in_flight: set[asyncio.Future[Any]] = set()  # tasks processing an interaction
        self._guild_locales: dict[int, str] = {}  # guild id -> its language, as interactions say

    def admit(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether to process `interaction`: asked first thing in the task discord.py starts
        for it, by every entry point (the command tree's `interaction_check`, the buttons'
        `dispatch`, the unknown-button listener), through discord.py's public checks. Refused
        once a shutdown began, or when it arrived past Discord's window (its user was told it
        failed: applied now, it would be "failed" and done). An admitted one's task is kept
        as in flight, which a shutdown waits for, and its server's language is noted."""
        if not self.accepting_interactions:
            log.info("shutting down: interaction %s ignored", interaction.id)
            return False
        age = interaction_age(interaction)
        if age >= ANSWER_WINDOW:
            log.info("interaction %s arrived %.1f s late: not applied", interaction.id, age)
            return False
        locale = interaction.guild_locale
        self._note_guild_locale(interaction.guild_id, None if locale is None else locale.value)
        task = asyncio.current_task()
        if task is not None and task not in self._in_flight:
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)
        return True

    def _note_guild_locale(self, guild_id: int | None, locale: str | None) -> None:
        """Remember the server's Discord language from an interaction, before the interaction
        is processed, so the server's public messages speak it (when its setting is "auto")."""
        if guild_id and locale:
            self._guild_locales[guild_id] = locale

    def guild_locale(self, guild_id: int) -> str | None:
        """The server's own Discord language: from its latest interaction, else from the
        gateway's copy of the server (`preferred_locale`), else None."""
        known = self._guild_locales.get(guild_id)
        if known is not None:
            return known
        guild = self.get_guild(guild_id)
        return None if guild is None else str(guild.preferred_locale.value)

    def running_games(self) -> int | None:
        """How many games this process runs (None before the game service is installed)."""
        return None if self.uno is None else self.uno.running_games()

    async def shutdown(self) -> None:
        """Stop gracefully: no new interactions, no more timers or computer moves, the ones in
        flight finished and answered, the latest tables shown; then close the client."""
        if not self.accepting_interactions:
            return
        self.accepting_interactions = False
        loop = asyncio.get_running_loop()
        started = loop.time()
        service = self.uno
        if service is not None:
            await service.stop_clocks()
        in_flight = set(self._in_flight)
        if in_flight:
            _, late = await asyncio.wait(in_flight, timeout=SHUTDOWN_INTERACTIONS_GRACE)
            if late:
                log.warning("shutdown: %d interactions still running, abandoned", len(late))
        if service is not None:
            left = SHUTDOWN_GRACE - (loop.time() - started)
            if not await service.finish_tables(max(SHUTDOWN_TABLES_GRACE, left)):
                log.warning("shutdown: some tables could not be brought up to date")
        log.info(
            "shutdown: %d interactions finished in %.1f s; closing",
            len(in_flight),
            loop.time() - started,
        )
        if self._summaries is not None:
            self._summaries.cancel()
        log.info("%s", self.request_counter.summary(self.running_games()))
        await self.close()

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self._summaries = asyncio.create_task(
            log_summaries(self.request_counter, self.running_games)
        )
        await self.sync_commands()

    def command_hash(self) -> str:
        """A digest of every command definition and its translations."""
        definitions = sorted(
            (c.to_dict(self.tree) for c in self.tree.get_commands()), key=lambda d: d["name"]
        )
        translations = {
            code: {k: v for k, v in catalogue(code).items() if k.startswith(COMMAND_KEYS)}
            for code in available_locales()
        }
        blob = json.dumps([definitions, translations], sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    async def sync_commands(self, *, force: bool = False) -> str:
        guild_id = self.settings.dev_guild_id
        if guild_id and not force:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), guild_id)
            self.synced_at_start = "guild"
            return "guild"
        digest = self.command_hash()
        async with self.database.read() as unit:
            stored = await unit.settings.get_value(COMMANDS_HASH_KEY)
        if stored == digest and not force:
            log.info("commands unchanged since the last global sync: not syncing")
            return "unchanged"
        synced = await self.tree.sync()
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


class AdmittingTree(app_commands.CommandTree[Any]):
    """The command tree, whose global check (public: `CommandTree.interaction_check`) is the
    bot's `admit`."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        client = self.client
        return not isinstance(client, UnoBotMixin) or client.admit(interaction)


class UnoBot(UnoBotMixin, commands.Bot):
    def __init__(self, settings: Settings, database: Database, **options: Any) -> None:
        options = self._with_request_budget(settings, options)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=_intents(),
            tree_cls=AdmittingTree,
            **options,
        )
        self._init_uno(settings, database)


class ShardedUnoBot(UnoBotMixin, commands.AutoShardedBot):
    def __init__(self, settings: Settings, database: Database, **options: Any) -> None:
        options = self._with_request_budget(settings, options)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=_intents(),
            tree_cls=AdmittingTree,
            **options,
        )
        self._init_uno(settings, database)


if TYPE_CHECKING:

    def _hosts_the_cogs(bot: UnoBot | ShardedUnoBot) -> UnoHost:
        """(For the type checker: both bots are what the cogs expect, bot/host.py.)"""
        return bot


def create_bot(settings: Settings, database: Database) -> UnoBot | ShardedUnoBot:
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
