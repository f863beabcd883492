"""`python -m bot` / `uno-bot`: read settings, open and migrate the database, start the client.

Problems an operator can fix (no token, a rejected token, a bad setting, an unreachable
database) end with one line on stderr, not a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from pydantic import ValidationError

from bot.discord_internals import point_at
from bot.settings import Settings
from bot.store.errors import StorageUnavailable

if TYPE_CHECKING:  # (bot.client itself is imported when the bot runs)
    from bot.budget_sharing import BudgetSharing
    from bot.client import UnoBotMixin
    from bot.store import Database

log = logging.getLogger("bot")

#: Seconds the worker processes killed at close have to be gone before any left is killed here.
EXIT_GRACE = 0.5


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (Linux and macOS; not Windows), else asyncio's.
    Every click is a few round trips over sockets (the gateway, the answer, the table): with a
    thousand games open, side by side, uvloop took 5% off the bot's CPU per click and a third
    off the answers' p99 (docs/benchmarks.md, "A thousand games per token")."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def apply_endpoints(settings: Settings) -> None:
    """Point discord.py at DISCORD_API_BASE / DISCORD_GATEWAY_URL (an emulator, in tests)."""
    point_at(settings.discord_api_base, settings.discord_gateway_url)


#: Allocations between two collections of the collector's youngest generation (Python's default
#: up to 3.13: 700). A click's objects live across its awaits (Discord's round trips); at 700, a
#: thousand games allocate so fast that they outlived both young generations, filled the oldest
#: and set off a full collection every second or two, each pausing every answer for up to
#: 0.4 s. At 2,000 they mostly die young: a quarter of the full collections and, side by
#: side, 16% less CPU per interaction, the same memory (docs/benchmarks.md, "A thousand games
#: per token").
YOUNG_GENERATION = 2000


async def run(settings: Settings, token: str) -> None:
    from bot.client import create_bot
    from bot.store import open_database

    database = await open_database(
        settings.resolved_database_url, pool_size=settings.database_pool_size
    )
    try:
        # The bot never joins voice: PyNaCl/davey are not needed, so don't warn about them.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        bot = create_bot(settings, database)
        _stop_on_signals(bot)
        sharing = await _share_the_budget(bot, database, token)
        # Long-lived start-up objects (modules, cogs, catalogue) leave the collector's sight,
        # so full collections during play stay short.
        gc.collect()
        gc.freeze()
        gc.set_threshold(YOUNG_GENERATION, *gc.get_threshold()[1:])
        try:
            async with bot:
                await bot.start(token)
        finally:
            if sharing is not None:
                await sharing.stop()
    finally:
        _kill_worker_processes()
        await database.close()


async def _share_the_budget(
    bot: UnoBotMixin, database: Database, token: str
) -> BudgetSharing | None:
    """On PostgreSQL, the processes of one token share its REQUEST_BUDGET by themselves
    (bot/budget_sharing.py); on SQLite (one process) this one has all of it."""
    from bot.budget_sharing import BudgetSharing

    if database.is_sqlite or bot.request_budget is None:
        return None
    sharing = BudgetSharing.for_token(bot.request_budget, database.engine, token)
    await sharing.start()
    return sharing


def _kill_worker_processes() -> None:
    """SIGKILL the worker processes still alive once the client is closed. Closing the cogs kills
    them (cogs/uno/drawing/workers.py); this is for a close that failed midway, since a stopped or
    stuck worker would hold the exit (the interpreter joins its child processes at exit). Those just
    killed get `EXIT_GRACE` seconds to be gone first (blocking: the bot is ending)."""
    until = time.monotonic() + EXIT_GRACE
    for child in multiprocessing.active_children():
        child.join(max(0.0, until - time.monotonic()))
    for child in multiprocessing.active_children():
        log.warning("worker process %s still running at exit: killed", child.pid)
        child.kill()


def _stop_on_signals(bot: UnoBotMixin) -> None:
    """SIGTERM/SIGINT: a graceful shutdown (bot.shutdown: answer what is in flight, bounded);
    a second signal closes at once. discord.py's `Client.run` is not used: its own signal
    handling would close the client with interactions still being answered."""
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()

    def stop() -> None:
        first = bot.accepting_interactions
        task = asyncio.ensure_future(bot.shutdown() if first else bot.close())
        tasks.add(task)  # a reference, so the task is not collected midway
        task.add_done_callback(tasks.discard)
        log.info("signal received: %s", "shutting down" if first else "closing now")

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop)


def _fail(line: str, code: int) -> None:
    print(line, file=sys.stderr)
    sys.exit(code)


def setup_logging(level_name: str) -> None:
    """Log to stderr: colours only on a terminal, and no Alembic chatter.

    discord.py colours its lines whenever it thinks it runs in Docker, even into a file or a pipe,
    so plain lines are chosen here when stderr is not a terminal. Alembic logs each plugin it
    loads and its migration context at INFO on every start: below DEBUG only the migrations it
    applies (one "Running upgrade" line each) and its warnings are kept.
    """
    level = getattr(logging, level_name.upper(), logging.INFO)
    if sys.stderr.isatty():
        discord.utils.setup_logging(level=level)
    else:
        plain = logging.Formatter(
            "[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{"
        )
        discord.utils.setup_logging(level=level, formatter=plain)
    if level > logging.DEBUG:
        logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
        logging.getLogger("alembic.runtime.migration").addFilter(_only_applied_migrations)


def _only_applied_migrations(record: logging.LogRecord) -> bool:
    """A schema change applied at start-up is worth a line; the context Alembic chose is not."""
    return record.levelno >= logging.WARNING or record.getMessage().startswith("Running ")


def main() -> None:
    try:
        settings = Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "settings"
        _fail(f"invalid setting {where.upper()}: {first.get('msg')}", 2)
        return
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        _fail("DISCORD_TOKEN is missing: copy .env.example to .env and set it", 2)
    setup_logging(settings.log_level)
    apply_endpoints(settings)
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(run(settings, token))
    except discord.LoginFailure:
        _fail("DISCORD_TOKEN was rejected by Discord: check the token in .env", 1)
    except StorageUnavailable as exc:
        _fail(f"could not open the database {exc}", 1)
    except discord.PrivilegedIntentsRequired:
        _fail("Discord refused the gateway intents (no privileged intents should be needed)", 1)
    except OSError as exc:
        _fail(f"could not connect: {exc}", 1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
