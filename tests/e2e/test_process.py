"""The bot as an operator runs it: start-up errors, global command sync, restarts."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord
from testing.players import answer, open_game, show_hand
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _run_bot(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=str(cwd),
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, err.decode()


async def test_missing_token_is_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    code, err = await _run_bot(env, tmp_path)  # no .env in tmp_path
    assert code == 2
    assert err.strip() == "DISCORD_TOKEN is missing: copy .env.example to .env and set it"


async def test_rejected_token_is_one_line(tmp_path: Path) -> None:
    emu = FakeDiscord(token="the-right-token")
    await emu.start()
    try:
        env = bot_env(emu, tmp_path, DISCORD_TOKEN="a-wrong-token", PYTHONPATH=str(ROOT))
        code, err = await _run_bot(env, tmp_path)
    finally:
        await emu.stop()
    assert code == 1
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        "DISCORD_TOKEN was rejected by Discord: check the token in .env"
    )


async def test_global_sync_only_when_changed_and_buttons_survive_restart(tmp_path: Path) -> None:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Prod")
    channel = emu.add_channel(guild, "uno")
    env = bot_env(emu, tmp_path)  # no DEV_GUILD_ID: global commands
    bot = emu.bot_process(env=env, cwd=str(ROOT))
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(None, timeout=30)
        assert emu.command_syncs[None] == 1
        alice = emu.add_user("alice", guild)
        bob = emu.add_user("bob", guild)
        table = await open_game(emu, channel, alice, [bob])
        await bot.stop()

        await bot.start()
        await emu.wait_for_bot(timeout=30, new=True)
        await asyncio.sleep(0.5)
        assert emu.command_syncs[None] == 1, "a restart must not sync again"
        hand = await show_hand(emu, alice, table)  # a button from before the restart
        assert "Your hand — 7 cards" in hand.text
        board = await answer(await emu.slash(bob, channel, "uno leaderboard", private=True))
        assert board.ephemeral
        emu.assert_clean()
    finally:
        await bot.stop()
        await emu.stop()
