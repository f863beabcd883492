"""Less noise: one public leaderboard for many asks, practice games said to be practice."""

from __future__ import annotations

import asyncio

import discord
import pytest

from testing.players import Table, answer, open_game, play_match
from tests.e2e.test_computer_players import _play_until_over

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _public_boards(emu, channel: int) -> list:
    return [m for m in emu.channel_messages(channel) if not m.ephemeral and "Leaderboard" in m.text]


async def test_three_leaderboards_at_once_give_one_public_message(s) -> None:
    emu = s.emu
    channel = s.channel()
    ann, ben, cat = s.users("ann", "ben", "cat")
    await _a_finished_game(s, channel, ann, ben)  # (a board with somebody on it)
    sent = await asyncio.gather(
        *(emu.slash(u, channel, "uno leaderboard") for u in (ann, ben, cat))
    )
    answers = await asyncio.gather(*(answer(res) for res in sent))
    boards = _public_boards(emu, channel)
    assert len(boards) == 1
    pointers = [a for a in answers if a.ephemeral]
    assert len(pointers) == 2
    assert all(f"/channels/{s.guild.id}/{channel}/{boards[0].id}" in p.text for p in pointers)
    # When it was posted is a Discord timestamp (each app words it: "1 second ago"), not "a few
    # minutes ago" for a board under a second old.
    posted = int(discord.utils.snowflake_time(boards[0].id).timestamp())
    assert all(f"posted <t:{posted}:R> is now up to date" in p.text for p in pointers), pointers
    assert not any("few minutes" in p.text for p in pointers)
    # Another sort is another board; a private one is never public.
    await answer(await emu.slash(ann, channel, "uno leaderboard", sort="wins"))
    mine = await answer(await emu.slash(ann, channel, "uno leaderboard", private=True))
    assert mine.ephemeral and len(_public_boards(emu, channel)) == 2


async def test_an_empty_board_is_answered_privately_not_posted(s) -> None:
    """Nobody on the board (a new server; here a page past the last): the asker alone is told,
    in their language, and the channel gets no empty board."""
    emu = s.emu
    channel = s.channel()
    (ann,) = s.users("ann", locale="de")
    told = await answer(await emu.slash(ann, channel, "uno leaderboard", page=999))
    assert told.ephemeral and "Nichts für den Kanal" in told.text, told.text
    assert _public_boards(emu, channel) == []
    assert not [m for m in emu.channel_messages(channel) if not m.ephemeral]


async def _a_finished_game(s, channel: int, host, other) -> None:
    s.fix_deal(channel, {"rules": {"scoring": "none", "hand_size": 1}, "seed": 3})
    await open_game(s.emu, channel, host, [other])
    await play_match(s.emu, channel, host, [host, other])


async def test_a_practice_match_is_labelled_and_kept_apart_in_stats(s) -> None:
    emu = s.emu
    channel = s.channel()
    (alice,) = s.users("alice")
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    assert "Practice" not in lobby.text
    lobby = await answer(await emu.click(alice, lobby, label="Add computer"))
    assert "**Practice**: one person against computers" in lobby.text
    s.fix_deal(channel, {"rules": {"scoring": "none"}, "seed": 11})
    await answer(await emu.click(alice, Table(emu, channel).message(), label="Start"))
    await _play_until_over(emu, channel, alice)
    result = await emu.wait_for(
        lambda: next(
            (m for m in emu.channel_messages(channel) if "Round 1 results" in m.text), None
        ),
        5,
        what="the round's results",
    )
    assert "Practice game: counted for nobody" in result.text
    stats = await answer(await emu.slash(alice, channel, "uno stats"))
    assert "Practice games (alone against computers, counted for nobody): 1" in stats.text
    assert "No counted games" in stats.text and "under way" not in stats.text
    board = await answer(await emu.slash(alice, channel, "uno leaderboard", private=True))
    assert alice.username.lower() not in board.text.lower()
