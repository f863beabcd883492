"""A save that fails, end to end: the game stays as saved, the actor is told, nothing stalls.

The faults are real SQLite faults on the bot's own file, made from this (test) process: a
trigger that refuses the automatic moves' rows (as a broken migration or a full disk would
refuse them), or the file's write lock held beyond the bot's busy timeout (a backup tool, a
second bot). The bot runs on a world of its own whose turn timer runs 20 times faster (60 s ->
3 s), so a timed-out turn comes quickly.

What must hold (docs/operating.md, "Reliability"): a computer or the timer whose move could not be
saved tries again by itself once saving works; a click that cannot be saved is answered "cannot save
right now", with no traceback in the log, and nothing changes.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from testing.players import Table, actions, answer, deal, open_game, show_hand, table_with
from tests.e2e.worlds import BotWorld, running_world

pytestmark = pytest.mark.asyncio(loop_scope="session")

CANNOT_SAVE = "The bot cannot save right now; nothing was changed. Try again later."
#: Seconds a test waits for the answer to a click made while the file is locked (the lock is held
#: meanwhile): the bot's 5 s busy timeout and its answer, with room for a loaded machine.
ANSWER_WAIT = 30.0


class FaultWorld(BotWorld):
    prefix = "fault"

    async def turn_timer(self, channel: int, seconds: int) -> None:
        """The server's turn timer (x 0.05 in this world: 60 -> 3 s, 600 -> 30 s)."""
        await self.set_option(channel, "turn_timer", str(seconds))

    def query(self, sql: str, *args: Any) -> Any:
        with contextlib.closing(sqlite3.connect(self.db, timeout=10)) as conn:
            return conn.execute(sql, args).fetchone()

    def bot_log(self) -> str:
        return str(self.proc.output)


@contextlib.contextmanager
def refused_rows(db: Path, condition: str) -> Iterator[None]:
    """Every new action row matching `condition` is refused by SQLite until the block ends."""
    with contextlib.closing(sqlite3.connect(db, isolation_level=None, timeout=10)) as conn:
        conn.execute(
            "CREATE TRIGGER injected_fault BEFORE INSERT ON game_actions "
            f"WHEN {condition} BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
        )
        try:
            yield
        finally:
            conn.execute("DROP TRIGGER injected_fault")


@contextlib.contextmanager
def write_locked(db: Path) -> Iterator[None]:
    """The database's write lock, held by this process until the block ends."""
    with contextlib.closing(sqlite3.connect(db, isolation_level=None, timeout=10)) as conn:
        conn.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[FaultWorld]:
    tmp = tmp_path_factory.mktemp("faults")
    # Faults make interactions fail on purpose: only Discord's rules are checked at the end.
    async with running_world(
        FaultWorld, tmp, "Faults", checked="violations", UNO_TEST_TIMER_SCALE="0.05"
    ) as world:
        yield world


async def _logged(world: FaultWorld, text: str, since: int, timeout: float) -> None:
    await world.emu.wait_for(
        lambda: text in world.bot_log()[since:], timeout, what=f"{text!r} in the bot's log"
    )


async def test_a_computer_whose_move_failed_to_save_moves_once_saving_works(
    world: FaultWorld,
) -> None:
    emu = world.emu
    channel = world.channel()
    (alice,) = world.users("alice")
    await world.turn_timer(channel, 600)  # Alice's own turns never time out here
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    lobby = await answer(await emu.click(alice, lobby, label="Add computer"))
    assert "🤖" in lobby.text, lobby.text
    world.fix_deal(
        channel,
        {
            "deck": deal(["R1 R2 R3 R4", "R5 R6 R7 R8"], "R9"),
            "dealer_seat": 1,
            "rules": {"hand_size": 4},
        },
    )
    table = await answer(await emu.click(alice, lobby, label="Start"))
    game_id = Table(emu, channel).game_id
    hand = await show_hand(emu, alice, table)
    since = len(world.bot_log())
    with refused_rows(world.db, "NEW.actor_id < 0"):  # computers have negative ids
        await answer(await emu.click(alice, hand, actions(hand)["play:R1"]))
        await _logged(world, "injected fault", since, 15)
    # Saving works again: the computer moves by itself, nobody has to click.
    await emu.wait_for(
        lambda: (
            world.query(
                "SELECT count(*) FROM game_actions WHERE game_id = ? AND actor_id < 0", game_id
            )[0]
            > 0
        ),
        20,
        what="the computer's move saved after the fault",
    )
    await emu.wait_for(
        lambda: (
            (m := Table(emu, channel).message()) is not None
            and Table(emu, channel).current_player(m) == alice.id
        ),
        10,
        what="Alice's turn again on the table",
    )


async def test_a_timed_out_turn_that_failed_to_save_is_played_once_saving_works(
    world: FaultWorld,
) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    await world.turn_timer(channel, 60)  # 3 s here
    world.fix_deal(
        channel,
        {"deck": deal(["R1 R2 R3 R4 R5 R6 R7", "B1 B2 B3 B4 B5 B6 B7"], "G5"), "dealer_seat": 1},
    )
    since = len(world.bot_log())
    with refused_rows(world.db, "NEW.actor_id IS NULL"):  # the timer acts for nobody
        table = await open_game(emu, channel, alice, [bob])
        assert Table(emu, channel).current_player(table) == alice.id
        await _logged(world, "injected fault", since, 15)
    # The timer fires again by itself and plays Alice's turn.
    await emu.wait_for(table_with(emu, channel, "ran out of time"), 20, what="the timeout saved")


async def test_a_click_on_a_file_locked_beyond_the_busy_timeout_is_told_it_cannot_save(
    world: FaultWorld,
) -> None:
    emu = world.emu
    channel = world.channel()
    alice, bob = world.users("alice", "bob")
    world.fix_deal(
        channel,
        {"deck": deal(["R1 R2 R3", "B7 B8 G7"], "R5"), "dealer_seat": 1, "rules": {"hand_size": 3}},
    )
    await world.turn_timer(channel, 600)  # no timeout while the file is locked
    table = await open_game(emu, channel, alice, [bob])
    game_id = Table(emu, channel).game_id
    hand = await show_hand(emu, alice, table)
    (version,) = world.query("SELECT version FROM games WHERE id = ?", game_id)
    since = len(world.bot_log())
    with write_locked(world.db):
        res = await emu.click(alice, hand, actions(hand)["play:R1"])
        # The lock stays held until the answer came (however slow a loaded machine makes the
        # click's way to the save): the save must have met a lock older than its busy timeout.
        await emu.wait_for(
            lambda: any(CANNOT_SAVE in m.text for m in [*res.followups, res.message] if m),
            ANSWER_WAIT,
            what="the click's answer",
        )
    log = world.bot_log()[since:]
    assert "Traceback" not in log, log
    assert world.query("SELECT version FROM games WHERE id = ?", game_id) == (version,)
    # Once the file is free, the same card is played normally.
    hand = await show_hand(emu, alice, Table(emu, channel).message())
    played = await answer(await emu.click(alice, hand, actions(hand)["play:R1"]))
    assert "You played" in played.text, played.text
    assert world.query("SELECT version FROM games WHERE id = ?", game_id) == (version + 1,)
