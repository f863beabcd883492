"""What counts on the leaderboard (docs/playing.md, "What counts"), played through the real bot:
a host cannot farm wins by kicking, a loser cannot dodge a loss by leaving, and a walkover before
any round was won by play counts for nobody."""

from __future__ import annotations

import pytest

from testing.players import Table, actions, answer, deal, open_game, show_hand

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _stats(emu, channel: int, viewer, player) -> str:
    msg = await answer(await emu.slash(viewer, channel, "uno stats", player=player))
    return msg.text


async def _round_one_won_by(s, channel: int, host, other) -> None:
    """Round 1 dealt one card each: the host plays it and wins the round (match goes on)."""
    s.fix_deal(
        channel,
        {"deck": deal(["R5", "B7"], "R3"), "dealer_seat": 1, "rules": {"hand_size": 1}},
    )
    table = await open_game(s.emu, channel, host, [other])
    hand = await show_hand(s.emu, host, table)
    await answer(await s.emu.click(host, hand, actions(hand)["play:R5"]))
    over = await s.emu.wait_for(
        lambda: (m := Table(s.emu, channel).message()) and "next" in actions(m) and m,
        5,
        what="round 1 over",
    )
    await answer(await s.emu.click(host, over, actions(over)["next"]))
    await s.emu.wait_for(
        lambda: (m := Table(s.emu, channel).message()) and "round 2" in m.text and m,
        5,
        what="round 2",
    )


async def test_kicking_the_last_opponent_wins_nothing(s) -> None:
    emu = s.emu
    channel = s.channel()
    host, alt = s.users("host", "alt")
    await open_game(emu, channel, host, [alt])
    kicked = await answer(await emu.slash(host, channel, "uno kick", player=alt))
    assert "removed" in kicked.text
    await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and "match is over" in m.text, 5
    )
    assert "No games on this server yet" in await _stats(emu, channel, host, host)
    assert "No games on this server yet" in await _stats(emu, channel, host, alt)


async def test_leaving_a_match_counts_as_lost_and_the_walkover_counts(s) -> None:
    emu = s.emu
    channel = s.channel()
    winner, quitter = s.users("winner", "quitter")
    await _round_one_won_by(s, channel, winner, quitter)
    left = await answer(await emu.slash(quitter, channel, "uno leave"))
    assert left.ephemeral
    await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and "match is over" in m.text, 5
    )
    assert "Games: 0 won of 1 (0%)" in await _stats(emu, channel, winner, quitter)
    assert "Games: 1 won of 1 (100%)" in await _stats(emu, channel, quitter, winner)


async def test_a_walkover_before_any_round_was_won_counts_for_nobody(s) -> None:
    emu = s.emu
    channel = s.channel()
    stayer, quitter = s.users("stayer", "quitter")
    await open_game(emu, channel, stayer, [quitter])
    await answer(await emu.slash(quitter, channel, "uno leave"))
    await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and "match is over" in m.text, 5
    )
    assert "Games: 0 won of 1 (0%)" in await _stats(emu, channel, stayer, quitter)
    assert "No games on this server yet" in await _stats(emu, channel, quitter, stayer)
    board = await answer(await emu.slash(stayer, channel, "uno leaderboard"))
    assert "0/0" not in board.text


async def test_rounds_before_a_finished_game_read_sensibly(s) -> None:
    emu = s.emu
    channel = s.channel()
    host, other = s.users("host", "other")
    await _round_one_won_by(s, channel, host, other)
    text = await _stats(emu, channel, other, host)
    assert "Games: none finished yet" in text and "Rounds: 1 won of 1" in text
    # (by points: once the server has rated matches, rating is the default order)
    board = await answer(await emu.slash(host, channel, "uno leaderboard", sort="points"))
    assert "0/0" not in board.text and "no finished game yet" in board.text
    await answer(await emu.slash(host, channel, "uno end"))


async def test_the_leaderboard_is_posted_for_everyone_unless_asked_private(s) -> None:
    emu = s.emu
    channel = s.channel()
    (asker,) = s.users("asker")
    shared = await answer(await emu.slash(asker, channel, "uno leaderboard"))
    assert not shared.ephemeral and "Leaderboard" in shared.text
    mine = await answer(await emu.slash(asker, channel, "uno leaderboard", private=True))
    assert mine.ephemeral and "Leaderboard" in mine.text
