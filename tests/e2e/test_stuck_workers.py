"""Stuck worker processes do not stall the bot: with both of its picture workers stopped
(SIGSTOP), a move is answered (without its picture if need be), another channel's Show my hand
is answered, the table is updated and, once the stuck processes are replaced, gets its picture
back; and SIGTERM still ends the bot within 10 s, its new picture processes stopped as well.
With the thinking process stopped, an expert computer plays on (its late decision is `hard`'s).

The workers are found as the bot process's children started by multiprocessing's "spawn"
(/proc/<pid>/task/*/children and their command lines): no expert is seated here, so those are
exactly the two picture processes. Run with `-s` to see the bot's lines about them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
from pathlib import Path

import pytest

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord, InteractionResult, Message, User
from testing.fakediscord.process import BotProcess
from testing.players import (
    Table,
    actions,
    answer,
    open_game,
    show_hand,
    table_with,
    take_turn,
    version_of,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Generous bounds for what should take about a second (a picture's deadline, then the answer).
ANSWERED_WITHIN = 10.0
PICTURE_BACK_WITHIN = 30.0


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


async def _move(emu: FakeDiscord, user: User, hand: Message) -> InteractionResult:
    """The first card the hand may play (a colour first if it asks for one), else a draw."""
    if hand.selects:
        select = hand.selects[0]
        first = select["options"][0]["value"]
        return await emu.select(user, hand, select["custom_id"], [first])
    acts = actions(hand)
    wanted = [a for a in acts if a.startswith(("color:", "play:"))] + ["draw"]
    return await emu.click(user, hand, acts[wanted[0]])


def _running(pid: int) -> bool:
    """Whether the process exists and is not a zombie (killed, waiting to be reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _embed_points_at_nothing(msg: Message) -> bool:
    """Whether an embed names an `attachment://` image the message does not carry."""
    return any(
        str((e.get("image") or {}).get("url") or "").startswith("attachment://") for e in msg.embeds
    )


def _shows_picture(msg: Message | None, filename: str) -> bool:
    if msg is None or not msg.embeds:
        return False
    names = {a["filename"]: a["url"] for a in msg.attachments}
    return filename in names and (msg.embeds[0].get("image") or {}).get("url") == names[filename]


async def test_stopped_picture_processes_stall_nothing(tmp_path: Path) -> None:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Stuck")
    env = bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id))
    bot = emu.bot_process(env=env)
    stopped: list[int] = []
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        await emu.wait_for(
            lambda: (
                "background picture process ready" in bot.output
                and "] cogs.uno.workers: picture process ready" in bot.output
            ),
            30,
            what="both picture processes",
        )
        first, second = emu.add_channel(guild, "stuck-1"), emu.add_channel(guild, "stuck-2")
        host, guest = emu.add_user("host", guild), emu.add_user("guest", guild)
        other_host, other_guest = emu.add_user("host2", guild), emu.add_user("guest2", guild)
        table = await open_game(emu, first, host, [guest])
        other_table = await open_game(emu, second, other_host, [other_guest])
        first_player = Table(emu, first).current_player(table)
        player = host if first_player == host.id else guest
        hand = await show_hand(emu, player, table)
        assert _shows_picture(hand, "hand.png")  # pictures work before the stop

        assert bot.pid is not None
        stopped = _spawned_workers(bot.pid)
        assert len(stopped) == 2, f"expected the two picture processes: {stopped}"
        for pid in stopped:
            os.kill(pid, signal.SIGSTOP)

        # A move: answered, text-only if its picture is late, never pointing at a missing file.
        version = version_of(hand)
        assert version is not None
        result = await _move(emu, player, hand)
        moved = await emu.wait_for(
            lambda: (m := result.message) is not None and (version_of(m) or 0) > version and m,
            ANSWERED_WITHIN,
            what="the move's answer",
        )
        assert not _embed_points_at_nothing(moved)
        # Another channel's Show my hand, a hand never drawn before.
        other = await asyncio.wait_for(show_hand(emu, other_guest, other_table), ANSWERED_WITHIN)
        assert "Your hand" in other.text and not _embed_points_at_nothing(other)
        # The table shows the move.
        shown = await Table(emu, first).at_version(version + 1, timeout=ANSWERED_WITHIN)
        assert not _embed_points_at_nothing(shown)
        # The stuck processes were replaced: the table gets its picture back by itself.
        await emu.wait_for(
            lambda: _shows_picture(Table(emu, first).message(), "table.png"),
            PICTURE_BACK_WITHIN,
            what="the table's picture back",
        )

        # SIGTERM with the new processes stopped too: they must not hold the exit.
        again = [pid for pid in _spawned_workers(bot.pid) if pid not in stopped]
        assert again, "no new picture process was started"
        for pid in again:
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        loop = asyncio.get_running_loop()
        started = loop.time()
        code = await bot.stop(timeout=15)
        seconds = loop.time() - started
        print(
            "\n".join(
                ln for ln in bot.lines if "picture" in ln or "shutdown" in ln or "worker" in ln
            )
        )
        print(f"exit code {code} after {seconds:.1f} s")
        assert seconds < 10, f"SIGTERM took {seconds:.1f} s\n{bot.output[-3000:]}"
        assert code == 0, bot.output[-3000:]
        assert not emu.violations, [str(v) for v in emu.violations]
        assert not [pid for pid in stopped if _running(pid)], "the bot left workers behind"
        errors = [ln for ln in bot.lines if "[ERROR" in ln or "Traceback" in ln]
        assert not errors, bot.output[-3000:]  # a replaced worker is a warning, not an error
    finally:
        for pid in stopped:  # whatever happened, leave no stopped process behind
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        await bot.stop()
        await emu.stop()


async def _started_bot(emu: FakeDiscord, tmp_path: Path) -> tuple[int, BotProcess]:
    """A bot process of its own (it gets SIGTERM), its picture processes up: (guild, bot)."""
    guild = emu.add_guild("Stuck")
    bot = emu.bot_process(env=bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id)))
    await bot.start()
    await emu.wait_for_bot(timeout=30)
    await emu.wait_for_commands(guild, timeout=30)
    await emu.wait_for(
        lambda: (
            "background picture process ready" in bot.output
            and "] cogs.uno.workers: picture process ready" in bot.output
        ),
        30,
        what="both picture processes",
    )
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


async def test_sigterm_shows_a_table_waiting_for_a_stopped_picture_process(tmp_path: Path) -> None:
    """The table of the last move waits for its picture (its deadline: 3 s) when SIGTERM comes:
    the shutdown waits for it, and the table shows the move, text-only, before the bot ends."""
    emu = FakeDiscord()
    await emu.start()
    bot: BotProcess | None = None
    stopped: list[int] = []
    try:
        guild, bot = await _started_bot(emu, tmp_path)
        ready = re.search(r"background picture process ready \(pid (\d+)", bot.output)
        assert ready is not None, bot.output[-2000:]
        channel = emu.add_channel(guild, "last-move")
        host, guest = emu.add_user("host", guild), emu.add_user("guest", guild)
        table = await open_game(emu, channel, host, [guest])
        player = host if Table(emu, channel).current_player(table) == host.id else guest
        hand = await show_hand(emu, player, table)
        version = version_of(hand)
        assert version is not None

        stopped.append(int(ready[1]))
        os.kill(stopped[0], signal.SIGSTOP)  # the background one: tables, not answers
        result = await _move(emu, player, hand)
        await emu.wait_for(
            lambda: (m := result.message) is not None and (version_of(m) or 0) > version,
            ANSWERED_WITHIN,
            what="the move's answer",
        )
        loop = asyncio.get_running_loop()
        started = loop.time()
        code = await bot.stop(timeout=15)
        seconds = loop.time() - started
        assert seconds < 10 and code == 0, bot.output[-3000:]
        shown = Table(emu, channel).message()
        assert shown is not None and (version_of(shown) or 0) > version, bot.output[-3000:]
        assert not _embed_points_at_nothing(shown)
        assert not emu.violations, [str(v) for v in emu.violations]
    finally:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if bot is not None:
            await bot.stop()
        await emu.stop()
