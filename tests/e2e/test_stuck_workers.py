"""A stuck worker process does not stall the bot: with the thinking process stopped (SIGSTOP),
an expert computer plays on (its late decision is `hard`'s), and SIGTERM still ends the bot
within 10 s. (Pictures are drawn in threads of the bot, whose stuck case is
tests/cogs/test_drawing_thread.py; the replay process's is test_replay_stuck.py.)

The workers are found as the bot process's children started by multiprocessing's "spawn"
(/proc/<pid>/task/*/children and their command lines). Run with `-s` to see the bot's lines
about them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from pathlib import Path

import pytest

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord, User
from testing.fakediscord.process import BotProcess
from testing.players import (
    Table,
    actions,
    answer,
    show_hand,
    table_with,
    take_turn,
    version_of,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            out += [int(c) for c in (task / "children").read_text().split()]
    return out


def _spawned_workers(pid: int) -> list[int]:
    """The bot's children that multiprocessing's "spawn" started (not its resource tracker)."""
    workers = []
    for child in _children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"spawn_main" in cmdline:
            workers.append(child)
    return workers


def _running(pid: int) -> bool:
    """Whether the process exists and is not a zombie (killed, waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


async def _started_bot(emu: FakeDiscord, tmp_path: Path) -> tuple[int, BotProcess]:
    """A bot process of its own (it gets SIGTERM), its pictures warmed up: (guild, bot)."""
    guild = emu.add_guild("Stuck")
    bot = emu.bot_process(env=bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id)))
    await bot.start()
    await emu.wait_for_bot(timeout=30)
    await emu.wait_for_commands(guild, timeout=30)
    await emu.wait_for(lambda: "pictures ready" in bot.output, 30, what="the pictures warmed up")
    return guild, bot


async def _play_until(emu: FakeDiscord, channel: int, human: User, done: object) -> None:
    """The human plays each of their turns (the computer plays the others) until `done()` is
    true at one of them; their turns are where the game waits, so nothing races."""
    table = Table(emu, channel)
    for _ in range(200):
        msg = await emu.wait_for(
            lambda: (
                (m := table.message()) is not None
                and ("match is over" in m.text or table.current_player(m) == human.id)
                and m
            ),
            30,
            what="the human's turn",
        )
        if done():
            return
        assert "match is over" not in msg.text, "the game ended first"
        hand = await show_hand(emu, human, msg)
        if "Your turn" in hand.text or actions(hand).keys() & {"accept", "keep", "color:R"}:
            hand = await take_turn(emu, human, hand)
            if "keep" in actions(hand):
                await answer(await emu.click(human, hand, actions(hand)["keep"]))
        version = version_of(msg) or 0
        await emu.wait_for(
            lambda v=version: (version_of(table.message()) or 0) > v, 30, what="the move shown"
        )
    raise AssertionError("200 turns and still not there")


async def test_a_stopped_thinking_process_leaves_the_expert_playing(tmp_path: Path) -> None:
    emu = FakeDiscord()
    await emu.start()
    bot: BotProcess | None = None
    stopped: list[int] = []
    try:
        guild, bot = await _started_bot(emu, tmp_path)
        assert bot.pid is not None
        pictures = set(_spawned_workers(bot.pid))
        channel = emu.add_channel(guild, "expert")
        alice = emu.add_user("alice", guild)
        await answer(await emu.slash(alice, channel, "uno new"))
        await answer(await emu.slash(alice, channel, "uno addbot", level="expert"))
        deal = {str(channel): {"rules": {"scoring": "none"}, "seed": 5}}
        (tmp_path / "decks.json").write_text(json.dumps(deal))
        lobby = await emu.wait_for(table_with(emu, channel, "(expert)"), 10, what="the seat")
        await answer(await emu.click(alice, lobby, label="Start"))

        # Once the expert has thought (its process started), the game waits for the process.
        def thinking_started() -> bool:
            return "starting the thinking process" in bot.output

        await _play_until(emu, channel, alice, thinking_started)
        await emu.wait_for(lambda: "thinking process ready" in bot.output, 30, what="thinking")
        (thinking,) = [p for p in _spawned_workers(bot.pid) if p not in pictures]
        os.kill(thinking, signal.SIGSTOP)
        stopped.append(thinking)

        await _play_until(emu, channel, alice, lambda: "expert decision late" in bot.output)
        # (_play_until returned at the human's turn: the expert's late move was played.)
        lines = [ln for ln in bot.lines if "thinking" in ln]
        assert any("thinking process answered nothing" in ln for ln in lines), lines

        loop = asyncio.get_running_loop()
        started = loop.time()
        code = await bot.stop(timeout=15)
        seconds = loop.time() - started
        print("\n".join(lines), f"\nexit code {code} after {seconds:.1f} s")
        assert seconds < 10 and code == 0, bot.output[-3000:]
        assert not [pid for pid in stopped if _running(pid)], "the bot left workers behind"
        assert not emu.violations, [str(v) for v in emu.violations]
    finally:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if bot is not None:
            await bot.stop()
        await emu.stop()
