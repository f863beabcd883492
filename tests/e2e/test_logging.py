"""What the bot writes to a log file at start-up: plain lines, and no Alembic chatter."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="session")

ANSI_ESCAPE = re.compile(r"\x1b\[")


async def test_start_up_log_is_plain_and_has_no_alembic_context_lines(tmp_path: Path) -> None:
    """Stderr goes to a pipe (not a terminal): no colour codes, and of Alembic only the migrations
    applied. (discord.py colours inside Docker even when stderr is no terminal, as in this CI.)"""
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Logs")
    bot = emu.bot_process(env=bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id)), cwd=str(ROOT))

    def ready_lines() -> int:
        return bot.output.count("ready as")

    try:
        for start in (1, 2):  # a fresh database (migrations run), then an up-to-date one
            await bot.start()
            await emu.wait_for(lambda n=start: ready_lines() >= n, 30, what=f"start {start}")
            await bot.stop()
    finally:
        await bot.stop()
        await emu.stop()
    lines = bot.lines
    assert [line for line in lines if ANSI_ESCAPE.search(line)] == []
    alembic = [line for line in lines if "alembic" in line]
    assert alembic, lines
    assert all("Running upgrade" in line for line in alembic), alembic
    # Each migration is reported once, by the first start only.
    assert len(alembic) == len({line.split("Running upgrade", 1)[1] for line in alembic})
