"""Crash and resume: SIGKILL the bot at awkward moments of a match, start it again, finish.

After each restart the stored snapshot must be exactly what it was at the kill, the table must
show that state and say the game was resumed, and buttons rendered before the crash must keep
working. At the end, no round was scored twice and the action log has no gap and no repeat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord, Message
from testing.fakediscord.process import BotProcess
from testing.players import (
    Table,
    actions,
    answer,
    deal,
    hand_size,
    open_game,
    play_round,
    show_hand,
    version_of,
)
from tests.e2e.conftest import ROOT
from tests.e2e.postgres import empty_postgres, require_postgres

pytestmark = pytest.mark.asyncio(loop_scope="session")

RESUMED = "this game was resumed"


@dataclass
class Crashable:
    emu: FakeDiscord
    bot: BotProcess
    db: AsyncEngine  # the bot's database, read by the test
    guild: Any
    decks: Path

    async def snapshot(self, game_id: int) -> tuple[int, str, Any]:
        """(version, status, engine state) as stored."""
        ((version, status, state),) = await self.query(
            "SELECT version, status, state FROM games WHERE id = :game", game=game_id
        )
        return version, status.lower(), json.loads(state) if isinstance(state, str) else state

    async def query(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        async with self.db.connect() as conn:
            return [tuple(row) for row in await conn.execute(text(sql), params)]

    async def crash_and_restart(self, channel: int, game_id: int) -> Message:
        """SIGKILL, start again; the stored state must be untouched and shown as resumed."""
        await self.bot.kill()
        before = await self.snapshot(game_id)
        killed_at = time.time()
        await self.bot.start()
        await self.emu.wait_for_bot(timeout=30, new=True)
        # The recorded table: a crash between posting a new table and recording it leaves the
        # newer message behind, stale but with working buttons.
        ((table_id,),) = await self.query(
            "SELECT table_message_id FROM games WHERE id = :game", game=game_id
        )

        def resumed() -> Message | None:
            msg = self.emu.messages.get(table_id)
            if msg is None or max(msg.created_at, msg.edited_at or 0) < killed_at:
                return None
            return msg if RESUMED in msg.text else None

        try:
            msg = await self.emu.wait_for(resumed, 15, what="the resumed table")
        except TimeoutError:
            seen = [m.text[:200] for m in self.emu.channel_messages(channel)]
            detail = f"channel: {seen}\n{self.bot.output[-3000:]}"
            raise AssertionError(f"no resumed table; {detail}") from None
        assert await self.snapshot(game_id) == before, "the restart changed the stored game"
        if before[1] == "running" and version_of(msg) is not None:
            assert version_of(msg) == before[0], msg.text
        return msg


@asynccontextmanager
async def database_url(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    if backend == "postgresql":
        async with empty_postgres() as url:
            yield url
    else:
        yield f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}"


@pytest_asyncio.fixture(loop_scope="session", params=["sqlite", "postgresql"])
async def crashable(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Crashable]:
    if request.param == "postgresql":
        require_postgres()  # skips (or fails under CI) before anything is started
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Crashy")
    async with database_url(request.param, tmp_path) as url:
        env = bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id), DATABASE_URL=url)
        bot = emu.bot_process(env=env, cwd=str(ROOT))
        db = create_async_engine(url)
        try:
            await bot.start()
            await emu.wait_for_bot(timeout=30)
            await emu.wait_for_commands(guild, timeout=30)
            yield Crashable(emu, bot, db, guild, tmp_path / "decks.json")
        except BaseException:
            print(bot.output[-6000:])
            raise
        finally:
            await bot.stop()
            await emu.stop()
            await db.dispose()


async def test_sigkill_at_every_awkward_moment_loses_and_repeats_nothing(
    crashable: Crashable,
) -> None:
    c = crashable
    emu = c.emu
    channel = emu.add_channel(c.guild, "uno")
    alice = emu.add_user("alice", c.guild)
    bob = emu.add_user("bob", c.guild)
    c.decks.write_text(
        json.dumps(
            {
                str(channel): {
                    "deck": deal(["W W4 R1", "B7 B8 G7"], "R5"),
                    "dealer_seat": 1,
                    "rules": {"hand_size": 3},
                }
            }
        )
    )
    table = await open_game(emu, channel, alice, [bob], target=60)
    game_id = Table(emu, channel).game_id

    # 1. A colour choice is pending when the bot dies: the two-step path, `/uno play card:W`
    #    without a colour (the hand's own Wild buttons carry a colour each).
    a_hand = await show_hand(emu, alice, table)
    assert "play:W:G" in actions(a_hand) and "play:W" not in actions(a_hand)
    a_hand = await answer(await emu.slash(alice, channel, "uno play", card="W"))
    assert "color:G" in actions(a_hand), a_hand.text
    await c.crash_and_restart(channel, game_id)
    # The hand rendered before the crash still works: it is at the current version.
    a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["color:G"]))
    assert "older hand" not in a_hand.text, a_hand.text

    # 2. Mid-turn: Bob's click is in flight when the bot dies. Whether or not it was saved,
    #    clicking the same button again after the restart applies it exactly once.
    table = await Table(emu, channel).at_version(version_of(a_hand) or 0)
    b_hand = await show_hand(emu, bob, table)
    before = (await c.snapshot(game_id))[0]
    # The answer takes a while to reach Discord, so the kill lands before it does whatever the
    # bot's speed (a fast bot would otherwise answer first and edit the hand under the test).
    emu.callback_latency = 2.0
    click = asyncio.ensure_future(emu.click(bob, b_hand, actions(b_hand)["play:G7"]))
    await asyncio.sleep(0)
    try:
        await c.crash_and_restart(channel, game_id)
    finally:
        emu.callback_latency = 0.0
    with contextlib.suppress(Exception):
        await (await click).wait(0)
    b_hand = await answer(await emu.click(bob, b_hand, actions(b_hand)["play:G7"]))
    assert hand_size(b_hand) == 2, b_hand.text
    assert (await c.snapshot(game_id))[0] == before + 1

    # 3. A Wild Draw Four challenge is pending when the bot dies.
    a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["refresh"]))
    a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["play:W4:uno:R"]))
    old_table = Table(emu, channel).message()
    assert old_table is not None
    await c.crash_and_restart(channel, game_id)
    b_hand = await show_hand(emu, bob, old_table)  # the table's button from before the crash
    assert {"accept", "challenge"} <= set(actions(b_hand)), b_hand.text
    b_hand = await answer(await emu.click(bob, b_hand, actions(b_hand)["challenge"]))
    assert "not guilty" in b_hand.text and hand_size(b_hand) == 8, b_hand.text

    # 4. The round has just ended (Alice went out) when the bot dies.
    a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["refresh"]))
    a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["play:R1"]))
    rounds_sql = "SELECT round_number FROM rounds WHERE game_id = :game"
    assert await c.query(rounds_sql, game=game_id) == [(1,)]
    msg = await c.crash_and_restart(channel, game_id)
    assert await c.query(rounds_sql, game=game_id) == [(1,)]

    # Finish the match, with one more crash in the middle of a later round.
    users = {alice.id: alice, bob.id: bob}
    crashed_again = False
    for _ in range(30):
        if "match is over" in msg.text:
            break
        await answer(await emu.click(alice, msg, actions(msg)["next"]))
        await emu.wait_for(
            lambda: (m := Table(emu, channel).message()) is not None and "next" not in actions(m),
            5,
            what="the next round's table",
        )
        if not crashed_again:
            crashed_again = True
            for _ in range(100):  # the new round's table recorded
                # (the channel's table as it is now: the click's token may have moved it to a
                # new message since it was first seen: game/table_tokens.py)
                new_table = Table(emu, channel).message()
                assert new_table is not None
                recorded = await c.query(
                    "SELECT 1 FROM games WHERE id = :game AND table_message_id = :table",
                    game=game_id,
                    table=new_table.id,
                )
                if recorded:
                    break
                await asyncio.sleep(0.1)
            assert recorded, "the new round's table was never recorded"
            await c.crash_and_restart(channel, game_id)
        msg = await play_round(emu, channel, users)
    assert "match is over" in msg.text

    version, status, _ = await c.snapshot(game_id)
    assert status == "finished"
    numbers = [r for (r,) in await c.query(rounds_sql, game=game_id)]
    assert sorted(numbers) == list(range(1, len(numbers) + 1)), numbers
    totals = await c.query(
        "SELECT user_id, rounds_played, games_played FROM player_totals WHERE guild_id = :guild",
        guild=c.guild.id,
    )
    assert sorted(t[1:] for t in totals) == [(len(numbers), 1)] * 2, totals
    versions = [
        v
        for (v,) in await c.query(
            "SELECT version FROM game_actions WHERE game_id = :game", game=game_id
        )
    ]
    assert sorted(versions) == list(range(min(versions), version + 1)), versions
    emu.assert_clean(allow_failed=True)
    assert len(emu.failed_interactions) <= 1  # at most Bob's click that died with the bot
