"""A stuck replay process stalls nothing: with it stopped (SIGSTOP), `/uno replay` tells the
asker privately, in their language, once the replay's deadline has passed; meanwhile the game
in another channel is answered as usual; and the process is replaced, so the next replay comes.

A bot process of its own, its replay process found as test_stuck_workers.py finds the workers:
the one spawned child that appears with the first replay. The test waits the replay's deadline
(REPLAY_DEADLINE) once. Meanwhile the asker asking again is told it is still being drawn (one
replay at a time); the late one does not count against sharing the next.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import signal
from pathlib import Path

import pytest
from PIL import Image

from cogs.uno.drawing.renderer import REPLAY_DEADLINE
from testing.fakediscord import FakeDiscord
from testing.players import answer, final_answer, open_game, play_round, show_hand
from tests.e2e.test_stuck_workers import _spawned_workers, _started_bot

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_a_stopped_replay_process_is_answered_privately_and_replaced(
    tmp_path: Path,
) -> None:
    emu = FakeDiscord()
    await emu.start()
    stopped: list[int] = []
    guild, bot = await _started_bot(emu, tmp_path)
    try:
        first, second = emu.add_channel(guild, "replays"), emu.add_channel(guild, "playing")
        alice = emu.add_user("alice", guild)
        bob = emu.add_user("bob", guild, locale="de")  # the refusal is in the asker's language
        carl, dana = emu.add_user("carl", guild), emu.add_user("dana", guild)
        players = {alice.id: alice, bob.id: bob}
        # Two finished games: the first replayed once the process is stopped (the second's
        # replay, drawn before, started the process; a replay drawn once comes from a cache).
        await open_game(emu, first, alice, [bob], scoring="none")
        await play_round(emu, first, players)
        exported = await final_answer(await emu.slash(alice, first, "uno export"))
        earlier = int(exported.text.split("#")[1].split()[0])
        await open_game(emu, first, alice, [bob], scoring="none")
        await play_round(emu, first, players)
        assert bot.pid is not None
        pictures = set(_spawned_workers(bot.pid))
        made = await (await emu.slash(alice, first, "uno replay", private=True)).settled(40)
        assert made.attachments and f"#{earlier}," not in made.text
        (replays,) = [p for p in _spawned_workers(bot.pid) if p not in pictures]
        os.kill(replays, signal.SIGSTOP)
        stopped.append(replays)

        other_table = await open_game(emu, second, carl, [dana])
        loop = asyncio.get_running_loop()
        began = loop.time()
        asked = await emu.slash(bob, first, "uno replay", game=earlier)
        # Meanwhile the other channel's game is answered as usual.
        hand = await asyncio.wait_for(show_hand(emu, dana, other_table), 10)
        assert hand.ephemeral
        # And Bob, asking again, is told his replay is still being drawn (one at a time).
        twice = await answer(await emu.slash(bob, first, "uno replay", game=earlier))
        assert twice.ephemeral and "wird noch gezeichnet" in twice.text, twice.text
        refused = await asked.settled(REPLAY_DEADLINE + 15)
        assert refused.ephemeral and "Wiederholung" in refused.text, refused.text
        assert loop.time() - began < REPLAY_DEADLINE + 15

        # The stuck process was replaced: the next replay comes.
        shared = await emu.slash(bob, first, "uno replay", game=earlier)
        again = await emu.wait_for(
            lambda: next(
                (m for m in emu.channel_messages(first) if f"game #{earlier}," in m.text), None
            ),
            40,
            what="the replay posted",
        )
        (attachment,) = again.attachments
        gif = Image.open(io.BytesIO(emu.attachment_blobs[int(attachment["id"])]))
        assert gif.format == "GIF"
        # He shared it: the next one he may share later, and is told when, in German.
        thinking = shared.message
        await emu.wait_for(lambda: thinking.deleted, 5, what="the thinking message gone")
        later = await answer(await emu.slash(bob, first, "uno replay", game=earlier))
        assert later.ephemeral and "Wiederholung geteilt" in later.text, later.text
        assert not emu.violations, [str(v) for v in emu.violations]
    finally:
        for pid in stopped:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        await bot.stop()
        await emu.stop()
