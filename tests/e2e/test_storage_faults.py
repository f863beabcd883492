"""Storage faults as an operator meets them, against the real `python -m bot`.

At start-up, a database that cannot be opened or written ends the process with one line on
stderr. While the bot runs, a SQLite file renamed away, deleted or replaced is noticed before a
move is acknowledged: the move is refused, nothing is stored or claimed, the fault is logged
once, and the game is not advanced in memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import sqlite3
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord, Message, User
from testing.fakediscord.process import BotProcess
from testing.players import Table, actions, answer, deal, hand_size, open_game, show_hand
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="session")

REFUSED = "The bot cannot save right now; nothing was changed. Try again later."
LOST_LOG = "was deleted or replaced while the bot runs"
SIDE_FILES = ("", "-wal", "-shm")


# ---------------------------------------------------------------------------------- start-up


async def _start_with(url: str, tmp_path: Path) -> tuple[int, str]:
    """Run `python -m bot` with DATABASE_URL=url until it exits: (exit code, stderr)."""
    emu = FakeDiscord()
    await emu.start()
    try:
        env = bot_env(emu, tmp_path, DATABASE_URL=url, PYTHONPATH=str(ROOT))
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=str(tmp_path),
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        await emu.stop()
    return proc.returncode or 0, err.decode()


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _bad_url(kind: str, tmp_path: Path) -> str:
    if kind == "a directory":
        (tmp_path / "uno.db").mkdir()
        return f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}"
    if kind == "under a file":
        (tmp_path / "data").write_text("not a folder")
        return f"sqlite+aiosqlite:///{tmp_path / 'data' / 'uno.db'}"
    if kind == "read-only folder":
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only folders")
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o555)
        return f"sqlite+aiosqlite:///{folder / 'uno.db'}"
    if kind == "read-only file":
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only files")
        sqlite3.connect(tmp_path / "uno.db").close()
        (tmp_path / "uno.db").chmod(0o444)
        return f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}"
    if kind == "opened read-only":  # what a read-only file or mount gives, even as root
        sqlite3.connect(tmp_path / "uno.db").close()
        return f"sqlite+aiosqlite:///file:{tmp_path / 'uno.db'}?mode=ro&uri=true"
    if kind == "refused connection":
        return f"postgresql+asyncpg://uno:secret@127.0.0.1:{_closed_port()}/uno"
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        pytest.skip("TEST_DATABASE_URL names no PostgreSQL server")
    from sqlalchemy.engine import make_url

    return make_url(url).set(password="certainly-wrong").render_as_string(hide_password=False)


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("a directory", "unable to open database file"),
        ("under a file", "Not a directory"),
        ("read-only folder", "unable to open database file"),
        ("read-only file", "readonly database"),
        ("opened read-only", "readonly database"),
        # (uvloop's words, bot/__main__.py; asyncio's own loop says "Connect call failed")
        ("refused connection", "Connection refused|Connect call failed"),
        ("bad credentials", "password authentication failed"),
    ],
)
async def test_an_unusable_database_at_start_up_is_one_line(
    kind: str, reason: str, tmp_path: Path
) -> None:
    code, err = await _start_with(_bad_url(kind, tmp_path), tmp_path)
    assert code != 0
    assert "Traceback" not in err, err
    ours = [line for line in err.splitlines() if line.startswith("could not open the database")]
    assert len(ours) == 1 and re.search(reason, ours[0]), err
    assert err.strip().splitlines()[-1] == ours[0]
    assert "secret" not in err and "certainly-wrong" not in err  # no password on screen


# ---------------------------------------------------------------------------------- run time


@dataclass
class Running:
    emu: FakeDiscord
    bot: BotProcess
    path: Path  # the bot's SQLite file
    channel: int
    alice: User
    hand: Message  # Alice's hand; she is to play and holds R1
    game_id: int

    def stored(self, path: Path | None = None) -> tuple[int, int]:
        """(version, logged actions) of the game, as another process reads them from `path`."""
        with contextlib.closing(sqlite3.connect(path or self.path)) as conn:
            (version,) = conn.execute(
                "SELECT version FROM games WHERE id = ?", (self.game_id,)
            ).fetchone()
            (logged,) = conn.execute(
                "SELECT count(*) FROM game_actions WHERE game_id = ?", (self.game_id,)
            ).fetchone()
        return version, logged

    def log_count(self, text: str) -> int:
        return sum(text in line for line in self.bot.lines)

    async def click_play(self) -> Message:
        return await answer(
            await self.emu.click(self.alice, self.hand, actions(self.hand)["play:R1"])
        )


@pytest_asyncio.fixture(loop_scope="session")
async def running(tmp_path: Path) -> AsyncIterator[Running]:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Faulty")
    channel = emu.add_channel(guild, "uno")
    path = tmp_path / "uno.db"
    env = bot_env(
        emu, tmp_path, DEV_GUILD_ID=str(guild.id), DATABASE_URL=f"sqlite+aiosqlite:///{path}"
    )
    (tmp_path / "decks.json").write_text(
        json.dumps(
            {
                str(channel): {
                    "deck": deal(["R1 R2 R3", "B7 B8 G7"], "R5"),
                    "dealer_seat": 1,
                    "rules": {"hand_size": 3},
                }
            }
        )
    )
    bot = emu.bot_process(env=env, cwd=str(ROOT))
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        alice = emu.add_user("alice", guild)
        bob = emu.add_user("bob", guild)
        table = await open_game(emu, channel, alice, [bob])
        hand = await show_hand(emu, alice, table)
        game_id = Table(emu, channel).game_id
        yield Running(emu, bot, path, channel, alice, hand, game_id)
        emu.assert_clean()
    except BaseException:
        print(bot.output[-6000:])
        raise
    finally:
        await bot.stop()
        await emu.stop()


def _move_files(src: Path, dst: Path) -> None:
    for suffix in SIDE_FILES:
        os.rename(f"{src}{suffix}", f"{dst}{suffix}")


async def test_a_file_renamed_away_refuses_the_move_until_it_is_back(running: Running) -> None:
    r = running
    before = r.stored()
    away = r.path.with_name("away.db")
    _move_files(r.path, away)
    for _ in range(2):  # refused every time, logged once
        refusal = await r.click_play()
        assert refusal.ephemeral and refusal.text == REFUSED, refusal.text
    assert r.stored(away) == before, "a refused move was stored"
    assert not r.path.exists(), "the bot created a new database in the old one's place"
    assert r.log_count(LOST_LOG) == 1, r.bot.output[-3000:]
    assert "Traceback" not in r.bot.output

    _move_files(away, r.path)
    hand = await r.click_play()  # the game was not advanced in memory: R1 is still playable
    assert "You played" in hand.text and hand_size(hand) == 2, hand.text
    assert r.stored() == (before[0] + 1, before[1] + 1), "the move must be stored exactly once"


async def test_a_deleted_file_refuses_the_move_and_claims_nothing(running: Running) -> None:
    r = running
    for suffix in SIDE_FILES:
        Path(f"{r.path}{suffix}").unlink(missing_ok=True)
    refusal = await r.click_play()
    assert refusal.ephemeral and refusal.text == REFUSED, refusal.text
    assert not r.path.exists(), "the bot created a new database in the old one's place"
    # The game stays as last saved (memory = database): the hand still holds the card ...
    again = await show_hand(r.emu, r.alice, Table(r.emu, r.channel).message() or r.hand)
    assert again.ephemeral and hand_size(again) == 3, again.text
    # ... and the public table never showed the move.
    table = Table(r.emu, r.channel).message()
    assert table is not None and "played" not in table.text.lower(), table.text
    assert r.log_count(LOST_LOG) == 1, r.bot.output[-3000:]


async def test_a_file_swapped_for_a_copy_refuses_the_move(running: Running) -> None:
    r = running
    before = r.stored()
    copy = r.path.with_name("copy.db")
    with (
        contextlib.closing(sqlite3.connect(r.path)) as src,
        contextlib.closing(sqlite3.connect(copy)) as dst,
    ):
        src.backup(dst)
    for suffix in SIDE_FILES[1:]:
        Path(f"{r.path}{suffix}").unlink(missing_ok=True)
    os.replace(copy, r.path)  # e.g. a backup restored over the live file
    refusal = await r.click_play()
    assert refusal.ephemeral and refusal.text == REFUSED, refusal.text
    assert r.stored() == before, "the move went into a file that is no longer the database"
    assert r.log_count(LOST_LOG) == 1, r.bot.output[-3000:]
