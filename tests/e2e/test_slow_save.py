"""A save that waits on a locked SQLite file still answers in time: deferred, then filled in.

The test holds the bot's database file's write lock from another process (as a backup tool or a
second bot would), so the bot's save waits in its busy loop. Discord wants an answer within 3 s:
the bot must defer before that, and answer once the save went through. The lock is released
only once the emulator has seen the deferral (or the failure), so the verdict never depends on
how fast anything ran.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from testing.fakediscord import Message
from testing.players import actions, answer, deal, hand_size, open_game, show_hand

pytestmark = pytest.mark.asyncio(loop_scope="session")

DEFERRED_UPDATE, THINKING = 6, 5


def _db_path(s: Any) -> Path:
    return Path(s.bot.env["DATABASE_URL"].split("///", 1)[1])


@contextlib.contextmanager
def _write_locked(path: Path) -> Iterator[sqlite3.Connection]:
    """The database's write lock, held by this (test) process until the block ends."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    try:
        conn.execute("BEGIN EXCLUSIVE")
        yield conn
        conn.execute("ROLLBACK")
    finally:
        conn.close()


def _stored(path: Path, game_id: int) -> tuple[int, int]:
    """(version, logged actions) of the game as stored."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        (version,) = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        (logged,) = conn.execute(
            "SELECT count(*) FROM game_actions WHERE game_id = ?", (game_id,)
        ).fetchone()
    return version, logged


async def _game(s: Any) -> tuple[Any, Any, Message, int]:
    """A two-player game in a new channel; Alice is to play and holds R1 R2 R3."""
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    s.fix_deal(
        channel,
        {"deck": deal(["R1 R2 R3", "B7 B8 G7"], "R5"), "dealer_seat": 1, "rules": {"hand_size": 3}},
    )
    table = await open_game(s.emu, channel, alice, [bob])
    return channel, alice, table, s.table(channel).game_id


async def test_a_click_waiting_on_a_locked_file_is_deferred_then_answered(s: Any) -> None:
    emu, path = s.emu, _db_path(s)
    _, alice, table, game_id = await _game(s)
    hand = await show_hand(emu, alice, table)
    before = _stored(path, game_id)
    with _write_locked(path):
        res = await emu.click(alice, hand, actions(hand)["play:R1"])
        acked = await res.wait()  # the deferral, or None once "This interaction failed"
        assert acked == DEFERRED_UPDATE, f"the click was not deferred in time: {res}"
        assert _stored(path, game_id) == before  # (the lock holds the save back)
    # The deferred click's message, the hand, is filled in with the new hand.
    filled = await emu.wait_for(
        lambda: (m := res.message) is not None and "You played" in m.text and m,
        5,
        what="the deferred hand filled in",
    )
    assert filled.ephemeral and hand_size(filled) == 2, filled.text
    assert _stored(path, game_id) == (before[0] + 1, before[1] + 1), "stored exactly once"
    assert not res.failed


async def test_a_command_waiting_on_a_locked_file_thinks_then_answers(s: Any) -> None:
    emu, path = s.emu, _db_path(s)
    channel, alice, _, game_id = await _game(s)
    before = _stored(path, game_id)
    with _write_locked(path):
        res = await emu.slash(alice, channel, "uno play", card="R1")
        acked = await res.wait()
        assert acked == THINKING, f"the command was not deferred in time: {res}"
    answered = await answer(res)
    assert answered.ephemeral
    settled = await res.settled()
    assert "You played" in settled.text and hand_size(settled) == 2, settled.text
    assert _stored(path, game_id) == (before[0] + 1, before[1] + 1), "stored exactly once"


async def test_joining_a_lobby_while_the_file_is_locked_is_deferred_then_shown(s: Any) -> None:
    emu, path = s.emu, _db_path(s)
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    with _write_locked(path):
        res = await emu.click(bob, lobby, label="Join")
        acked = await res.wait()
        assert acked == DEFERRED_UPDATE, f"the click was not deferred in time: {res}"
    shown = await emu.wait_for(
        lambda: (m := res.message) is not None and "Players (2/10)" in m.text and m,
        5,
        what="the lobby showing Bob",
    )
    assert not shown.ephemeral
    with contextlib.closing(sqlite3.connect(path)) as conn:
        seats = conn.execute(
            "SELECT count(*) FROM seats WHERE user_id = ? AND left_at IS NULL", (bob.id,)
        ).fetchone()
    assert seats == (1,)
