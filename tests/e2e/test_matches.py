"""Whole matches played through buttons, and the leaderboard they leave behind."""

from __future__ import annotations

import time

import pytest

from testing.players import answer, open_game, play_match

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_two_player_match_to_the_end(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    since = len(emu.interaction_latencies)  # (other tests of the session defer on purpose)
    await open_game(emu, channel, alice, [bob])
    started = time.monotonic()
    rounds = await play_match(emu, channel, alice, [alice, bob])
    assert rounds >= 1
    final = [m for m in emu.channel_messages(channel) if "Match winner" in m.text]
    assert final, "no final results in the channel"
    board = await answer(await emu.slash(alice, channel, "uno leaderboard"))
    assert not board.ephemeral  # scores are posted for the channel
    # Other tests share the guild (and many a provisional rating): read every page.
    text = board.text
    for page in range(2, 8):
        if "Page" not in text or f"Page {page - 1} of {page - 1}" in text:
            break
        more = await answer(await emu.slash(alice, channel, "uno leaderboard", page=page))
        text += more.text
    assert alice.global_name in text and bob.global_name in text, text
    stats = await answer(await emu.slash(bob, channel, "uno stats", player=alice))
    assert "Games:" in stats.text
    # Every click was answered within Discord's 3 s (the emulator fails a later answer, and
    # the `s` fixture fails the test on a failed interaction). How fast, under load, is a
    # benchmark's figure (benchmarks/interaction_latency.py), not a test's: a loaded machine's
    # 1.1 s failed the "< 1 s" this asserted.
    latencies = emu.interaction_latencies[since:]
    assert latencies and max(latencies) < 3.0
    print(f"{rounds} rounds in {time.monotonic() - started:.1f}s")


async def test_four_player_match_to_the_end(s) -> None:
    emu = s.emu
    channel = s.channel()
    players = s.users("ann", "ben", "cat", "dan")
    await open_game(emu, channel, players[0], players[1:], target=150)
    rounds = await play_match(emu, channel, players[0], players)
    assert rounds >= 1
    # Other tests share the guild: read every page of the leaderboard.
    text = ""
    for page in range(1, 6):
        board = await answer(
            await emu.slash(players[2], channel, "uno leaderboard", sort="wins", page=page)
        )
        text += board.text
        if f"Page {page} of {page}" in board.text:
            break
    for p in players:
        assert p.global_name in text
