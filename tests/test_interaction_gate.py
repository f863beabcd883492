"""The interaction gate (bot/client.py `admit`), reached through discord.py's public checks: the
command tree's `interaction_check` and the buttons' `dispatch`. Refused once a shutdown began or
past Discord's window; an admitted interaction's task is kept in flight until it ends, which is
what a shutdown waits for; the server's language is noted."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.client import AdmittingTree, create_bot
from bot.settings import Settings
from bot.store import open_database
from bot.ui.errors import ANSWER_WINDOW
from bot.ui.items import Click, dispatch

GUILD = 42


@pytest.fixture
async def bot(tmp_path: Path) -> Any:
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}")
    bot = create_bot(Settings(_env_file=None, discord_token="x"), database)
    yield bot
    await bot.close()
    await database.close()


def _interaction(bot: Any, *, age: float = 0.0, locale: str | None = "de") -> Any:
    return SimpleNamespace(
        id=1,
        client=bot,
        created_at=discord.utils.utcnow() - timedelta(seconds=age),
        guild_id=GUILD,
        guild_locale=None if locale is None else discord.Locale(locale),
    )


async def test_the_bots_tree_is_the_admitting_one(bot: Any) -> None:
    assert isinstance(bot.tree, AdmittingTree)


async def test_an_admitted_interactions_task_is_in_flight_until_it_ends(bot: Any) -> None:
    release = asyncio.Event()
    admitted: list[bool] = []

    async def command() -> None:
        admitted.append(await bot.tree.interaction_check(_interaction(bot)))
        await release.wait()

    task = asyncio.create_task(command())
    await asyncio.sleep(0)
    assert admitted == [True]
    assert task in bot._in_flight
    assert bot.guild_locale(GUILD) == "de"
    release.set()
    await task
    assert task not in bot._in_flight


async def test_nothing_is_admitted_once_a_shutdown_began(bot: Any) -> None:
    bot.accepting_interactions = False
    assert not await bot.tree.interaction_check(_interaction(bot))
    assert not bot._in_flight
    assert bot.guild_locale(GUILD) is None


async def test_an_interaction_past_discords_window_is_refused(bot: Any) -> None:
    assert not await bot.tree.interaction_check(_interaction(bot, age=ANSWER_WINDOW + 0.5))
    assert not bot._in_flight
    assert await bot.tree.interaction_check(_interaction(bot, age=ANSWER_WINDOW - 1.0))


async def test_a_refused_click_reaches_no_handler(bot: Any) -> None:
    clicks: list[Click] = []

    class Handler:
        async def handle_click(self, interaction: Any, click: Click) -> None:
            clicks.append(click)

    bot.uno = Handler()
    click = Click("hand", 7)
    bot.accepting_interactions = False
    await dispatch(_interaction(bot), click)
    assert clicks == []
    bot.accepting_interactions = True
    await dispatch(_interaction(bot), click)
    assert clicks == [click]
