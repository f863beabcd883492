"""The cogs load, define the documented commands, and parse typed input safely."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.client import EXTENSIONS, create_bot
from bot.settings import Settings
from bot.store import open_database
from cogs.uno.commands import parse_card_input
from cogs.uno.game.live import stat_counters

UNO_COMMANDS = {
    "new",
    "join",
    "leave",
    "start",
    "kick",
    "end",
    "hand",
    "play",
    "draw",
    "uno",
    "catch",
    "table",
    "rules",
    "leaderboard",
    "stats",
    "help",
    "addbot",
    "setrule",
    "export",
    "verify",
    "replay",
}


@pytest.fixture
async def bot(tmp_path: Path) -> Any:
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}")
    bot = create_bot(Settings(_env_file=None, discord_token="x"), database)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    yield bot
    await bot.close()
    await database.close()


async def test_every_extension_loads_and_defines_the_commands(bot: Any) -> None:
    groups = {c.name: c for c in bot.tree.get_commands()}
    assert set(groups) == {"uno", "uno-admin"}
    assert {c.name for c in groups["uno"].commands} == UNO_COMMANDS
    assert {c.name for c in groups["uno-admin"].commands} == {
        "sync",
        "settings",
        "set",
        "reset",
        "end-season",
    }
    admin = groups["uno-admin"].to_dict(bot.tree)
    assert int(admin["default_member_permissions"]) == 1 << 5  # Manage Server
    assert bot.uno is not None


async def test_command_hash_is_stable(bot: Any) -> None:
    assert bot.command_hash() == bot.command_hash()


def test_sharded_bot_when_shard_count_is_set(tmp_path: Path) -> None:
    from discord.ext import commands

    async def make() -> Any:
        database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
        settings = Settings(_env_file=None, discord_token="x", shard_count=2, shard_ids="0,1")
        bot = create_bot(settings, database)
        await database.close()
        return bot

    bot = asyncio.run(make())
    assert isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_ids == [0, 1] and bot.shard_count == 2


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("R7", "R7"),
        ("r7", "R7"),
        ("Red 7", "R7"),
        ("wild draw four", "W4"),
        ("W4:uno", "W4:uno"),
        ("nonsense", None),
        ("", None),
        ("play:R7", None),
    ],
)
def test_parse_card_input(typed: str, code: str | None) -> None:
    assert parse_card_input(typed) == code


def test_stat_counters_from_events() -> None:
    from bot.engine import Card, Color
    from bot.engine import events as E

    counts = stat_counters(
        [
            E.CardPlayed(1, Card.of("R7")),
            E.UnoCalled(1),
            E.UnoCaught(2, 1, 2),
            E.ChallengeResolved(3, 1, True, ()),
            E.ColorChosen(1, Color.RED),
        ]
    )
    assert counts == {
        1: {"cards_played": 1, "uno_calls": 1},
        2: {"catches": 1},
        3: {"challenges_won": 1},
    }


def test_help_names_every_uno_command() -> None:
    from bot.ui.help import HELP_TOPICS, render_help

    text = "\n".join(render_help(None, topic).embeds[0].description for topic in HELP_TOPICS)
    missing = [name for name in sorted(UNO_COMMANDS) if f"`/uno {name}`" not in text]
    assert not missing, f"/uno help does not mention: {missing}"
