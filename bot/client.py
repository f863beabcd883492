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
from collections.abc import Callable, Coroutine, Generator
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord.ext import commands

from bot.discord_internals import wrap_interaction_parser
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


def interaction_age(data: Any) -> float:
    """Seconds since Discord created the raw interaction `data` (its id is a snowflake, whose
    time is Discord's clock); 0 for an id that is not one."""
    try:
        created = discord.utils.snowflake_time(int(data["id"]))
    except (KeyError, TypeError, ValueError, OverflowError):
        return 0.0
    return (discord.utils.utcnow() - created).total_seconds()


T = TypeVar("T")

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
        wrap_interaction_parser(self, self._interaction_create)

    def _interaction_create(self, parse: Callable[[Any], None], data: Any) -> None:
        """discord.py's INTERACTION_CREATE handler, refused once a shutdown began, and with
        every task it starts (the command, button or modal callback) kept as in flight."""
        if not self.accepting_interactions:
            log.info("shutting down: interaction %s ignored", data.get("id"))
            return
        age = interaction_age(data)
        if age >= ANSWER_WINDOW:
            # Discord has told its user it failed: applied now, it would be "failed" and done.
            log.info("interaction %s arrived %.1f s late: not applied", data.get("id"), age)
            return
        self._note_guild_locale(data)
        loop = asyncio.get_running_loop()
        previous = loop.get_task_factory()
        created: list[asyncio.Future[Any]] = []

        def factory(
            loop: asyncio.AbstractEventLoop,
            coro: Coroutine[Any, Any, T] | Generator[Any, None, T],
            /,
            **kwargs: Any,
        ) -> asyncio.Future[T]:
            task: asyncio.Future[T]
            if previous is not None:
                task = previous(loop, coro, **kwargs)
            else:
                task = asyncio.Task(coro, loop=loop, **kwargs)
            created.append(task)
            return task

        # The parser only starts tasks (synchronously): this factory sees exactly those.
        loop.set_task_factory(factory)
        try:
            parse(data)
        finally:
            loop.set_task_factory(previous)
        for task in created:
            self._in_flight.add(task)
            task.add_done_callback(self._in_flight.discard)

    def _note_guild_locale(self, data: Any) -> None:
        """Remember the server's Discord language from an interaction, before any task of it
        runs, so the server's public messages speak it (when its setting is "auto")."""
        guild_id, locale = data.get("guild_id"), data.get("guild_locale")
        if guild_id and isinstance(locale, str):
            self._guild_locales[int(guild_id)] = locale

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


class UnoBot(UnoBotMixin, commands.Bot):
    def __init__(self, settings: Settings, database: Database, **options: Any) -> None:
        options = self._with_request_budget(settings, options)
        super().__init__(command_prefix=commands.when_mentioned, intents=_intents(), **options)
        self._init_uno(settings, database)


class ShardedUnoBot(UnoBotMixin, commands.AutoShardedBot):
    def __init__(self, settings: Settings, database: Database, **options: Any) -> None:
        options = self._with_request_budget(settings, options)
        super().__init__(command_prefix=commands.when_mentioned, intents=_intents(), **options)
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
