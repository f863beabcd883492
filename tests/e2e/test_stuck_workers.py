"""A stuck worker does not stall the bot.

- The thinking process stopped (SIGSTOP): an expert computer plays on (its late decision is
  `hard`'s), and SIGTERM still ends the bot within 10 s.
- Both drawing threads stuck (the test hook UNO_TEST_STUCK_PICTURES: while its file exists,
  the first thread of each kind to start a picture never finishes it): a click is answered in
  time without its picture, the table goes on text-only, each stuck thread is replaced, the
  next edits bring the pictures back, and SIGTERM still ends the bot within 10 s.

(The replay process's stuck case is test_replay_stuck.py.) The workers are found as the bot
process's children started by multiprocessing's "spawn" (/proc/<pid>/task/*/children and their
command lines). Run with `-s` to see the bot's lines about them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from testing.bot_env import bot_env
from testing.clicks import my_turn
from testing.fakediscord import FakeDiscord, Message, User
from testing.fakediscord.process import BotProcess
from testing.players import (
    Table,
    actions,
    answer,
    deal,
    open_game,
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


async def _started_bot(emu: FakeDiscord, tmp_path: Path, **env: str) -> tuple[int, BotProcess]:
    """A bot process of its own (it gets SIGTERM), its pictures warmed up: (guild, bot)."""
    guild = emu.add_guild("Stuck")
    bot = emu.bot_process(env=bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id), **env))
    await bot.start()
    await emu.wait_for_bot(timeout=30)
    await emu.wait_for_commands(guild, timeout=30)
    await emu.wait_for(lambda: "pictures ready" in bot.output, 30, what="the pictures warmed up")
    return guild, bot


async def _play_until(
    emu: FakeDiscord, channel: int, human: User, done: object, output: Callable[[], str]
) -> None:
    """The human plays each of their turns (the computer plays the others) until `done()` is
    true at one of them; their turns are where the game waits, so nothing races. `output`: the
    bot's log so far, told when a move does not reach the table."""
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
        # Read before the move: the emulator edits a message in place, so `msg` itself shows
        # the move once its table edit lands (a fast one landed before this was read, and the
        # wait below then waited for a second move that nobody would make).
        version = version_of(msg) or 0
        hand = await show_hand(emu, human, msg)
        # The table says it is the human's turn: their hand must offer a decision (a silent
        # wait for a move that nobody makes would only time out, saying nothing of why).
        assert my_turn(hand), f"the human's turn, but their hand says:\n{hand.text}"
        hand = await take_turn(emu, human, hand)
        if "keep" in actions(hand):
            await answer(await emu.click(human, hand, actions(hand)["keep"]))

        def shown(v: int = version) -> bool:  # (a match's last table has no game buttons)
            now = table.message()
            return now is not None and ((version_of(now) or 0) > v or "match is over" in now.text)

        try:
            await emu.wait_for(shown, 30, what="the move shown")
        except TimeoutError:
            now = table.message()
            raise AssertionError(
                f"the move was not shown within 30 s.\nThe answer to the click:\n{hand.text}\n"
                f"The table:\n{now.text if now else None}\nThe bot's last lines:\n"
                + "\n".join(output().splitlines()[-40:])
            ) from None
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

        await _play_until(emu, channel, alice, thinking_started, lambda: bot.output)
        await emu.wait_for(lambda: "thinking process ready" in bot.output, 30, what="thinking")
        (thinking,) = [p for p in _spawned_workers(bot.pid) if p not in pictures]
        os.kill(thinking, signal.SIGSTOP)
        stopped.append(thinking)

        await _play_until(
            emu, channel, alice, lambda: "expert decision late" in bot.output, lambda: bot.output
        )
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


def _picture(msg: Message | None) -> str | None:
    """The file name of the message's one picture, None when it has none (or no message)."""
    files = [a["filename"] for a in msg.attachments] if msg is not None else []
    return files[0] if files else None


def _points_at_its_own_picture(msg: Message) -> bool:
    """Whether the message's embeds show exactly the pictures it has: a message sent without its
    picture never points at one. (Discord, and the emulator, turn an embed's
    "attachment://x.png" into the file's URL.)"""
    images = [(e.get("image") or {}).get("url") for e in msg.embeds]
    return [u.rpartition("/")[2] for u in images if u] == [a["filename"] for a in msg.attachments]


async def test_stuck_drawing_threads_leave_the_game_playing_and_are_replaced(
    tmp_path: Path,
) -> None:
    emu = FakeDiscord()
    await emu.start()
    stuck = tmp_path / "stuck-pictures"
    bot: BotProcess | None = None
    try:
        guild, bot = await _started_bot(emu, tmp_path, UNO_TEST_STUCK_PICTURES=str(stuck))
        channel = emu.add_channel(guild, "stuck")
        alice, bob = emu.add_user("alice", guild), emu.add_user("bob", guild)
        hands = ["R1 R2 G3 G4 Y5 Y6 B7", "R3 R4 G5 G6 Y7 Y8 B9"]
        deal_spec = {"deck": deal(hands, "R5"), "dealer_seat": 1}
        (tmp_path / "decks.json").write_text(json.dumps({str(channel): deal_spec}))
        table = Table(emu, channel)
        await open_game(emu, channel, alice, [bob])
        a_hand = await show_hand(emu, alice, table.message())
        b_hand = await show_hand(emu, bob, table.message())
        shown = table.message()
        assert shown is not None and _picture(shown) == "table.png"
        assert _picture(a_hand) == "hand.png" and _points_at_its_own_picture(a_hand)
        edits_before = len(shown.history)

        # The next picture each drawing thread starts sticks it for good (the test hook):
        # Alice's play is answered within Discord's 3 s (the emulator enforces it) without a
        # picture, and the game moves on.
        stuck.touch()
        loop = asyncio.get_running_loop()
        clicked = loop.time()
        a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["play:R1"]))
        answered = loop.time() - clicked
        assert "R1" not in " ".join(actions(a_hand, enabled_only=False)), a_hand.buttons
        assert _picture(a_hand) is None and _points_at_its_own_picture(a_hand)
        await emu.wait_for(
            lambda: "Your turn" in b_hand.text and "play:R3" in actions(b_hand),
            10,
            what="bob's turn",
        )
        for thread in ("picture", "background picture"):
            await emu.wait_for(
                lambda t=thread: f"the {t} thread drew nothing" in bot.output,
                10,
                what=f"the {thread} thread replaced",
            )
        stuck.unlink()
        # Meanwhile the table showed Alice's move without its picture (a later retry may have
        # brought the picture back already: every edit since the click is looked at).
        await emu.wait_for(
            lambda: any(
                not v["attachments"] for v in [*shown.history[edits_before:], shown.snapshot()]
            ),
            10,
            what="the table shown text-only",
        )

        # The new threads draw: the next edits bring the pictures back.
        b_hand = await answer(await emu.click(bob, b_hand, actions(b_hand)["play:R3"]))
        assert _picture(b_hand) == "hand.png" and _points_at_its_own_picture(b_hand)
        await emu.wait_for(
            lambda: "Your turn" in a_hand.text and _picture(a_hand) == "hand.png",
            10,
            what="alice's turn, with her picture",
        )
        await emu.wait_for(
            lambda: (
                (m := table.message()) is not None
                and table.current_player(m) == alice.id
                and _picture(m) == "table.png"
            ),
            10,
            what="the table at alice's turn, with its picture",
        )
        a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["play:R2"]))
        assert _picture(a_hand) == "hand.png" and _points_at_its_own_picture(a_hand)

        started = loop.time()
        code = await bot.stop(timeout=15)
        seconds = loop.time() - started
        lines = [ln for ln in bot.lines if "picture" in ln]
        print(
            "\n".join(lines), f"\nanswered in {answered:.1f} s; exit {code} after {seconds:.1f} s"
        )
        assert seconds < 10 and code == 0, bot.output[-3000:]
        assert not emu.violations, [str(v) for v in emu.violations]
    finally:
        if bot is not None:
            await bot.stop()
        await emu.stop()
