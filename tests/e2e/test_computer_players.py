"""Computer players: seated from the lobby, they play (with their own UNO calls and catches)."""

from __future__ import annotations

import asyncio

import pytest

from testing.players import Table, actions, answer, show_hand, take_turn

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _lobby_with_computers(s, *levels: str):
    emu = s.emu
    channel = s.channel()
    (alice,) = s.users("alice")
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    for level in levels:
        if level == "button":
            lobby = await answer(await emu.click(alice, lobby, label="Add computer"))
        elif level == "expert button":
            lobby = await answer(await emu.click(alice, lobby, label="Add expert computer"))
        else:
            added = await answer(await emu.slash(alice, channel, "uno addbot", level=level))
            assert added.ephemeral and "took a seat" in added.text
    lobby = Table(emu, channel).message()
    return emu, channel, alice, lobby


async def _play_until_over(emu, channel: int, human, timeout: float = 40.0) -> str:
    table = Table(emu, channel)
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        msg = table.message()
        if "match is over" in msg.text:
            return msg.text
        if table.current_player(msg) == human.id:
            hand = await show_hand(emu, human, msg)
            if "Your turn" in hand.text or actions(hand).keys() & {"accept", "keep", "color:R"}:
                hand = await take_turn(emu, human, hand)
                if "keep" in actions(hand):  # drew a playable card: keep it, end the turn
                    await answer(await emu.click(human, hand, actions(hand)["keep"]))
        await asyncio.sleep(0.05)
    raise AssertionError("the match did not end:\n" + table.message().text)


async def test_human_against_three_computers_to_the_end(s) -> None:
    emu, channel, alice, lobby = await _lobby_with_computers(s, "hard", "easy", "button")
    assert lobby.text.count("🤖 Bot") == 3
    assert "(hard)" in lobby.text and "(easy)" in lobby.text and "(normal)" in lobby.text
    s.fix_deal(channel, {"rules": {"scoring": "none"}, "seed": 11})
    table = await answer(await emu.click(alice, lobby, label="Start"))
    assert "UNO — round 1" in table.text
    final = await _play_until_over(emu, channel, alice)
    assert "Bot" in final  # the computers' moves are on the table's log and seats
    board = await answer(await emu.slash(alice, channel, "uno leaderboard", sort="points"))
    # One person against computers is practice: counted for nobody, so not on the board.
    assert alice.username.lower() not in board.text.lower()
    assert "Bot" not in board.text and "🤖" not in board.text
    # A computer's hand is never shown: nobody but the human has a hand here.
    assert all(m.ephemeral for m in emu.ephemerals(alice))


async def test_an_expert_from_the_lobby_and_one_from_the_command_play_to_the_end(s) -> None:
    """The expert searches in a worker process of the bot: the game goes on all the same."""
    emu, channel, alice, lobby = await _lobby_with_computers(s, "expert", "expert button")
    assert lobby.text.count("(expert)") == 2
    s.fix_deal(channel, {"rules": {"scoring": "none"}, "seed": 5})
    table = await answer(await emu.click(alice, lobby, label="Start"))
    assert "UNO — round 1" in table.text
    final = await _play_until_over(emu, channel, alice, timeout=60.0)
    assert "Bot" in final
    # Its thinking moved to the bot's worker process (a thread stands in until that is up).
    await emu.wait_for(lambda: "thinking process ready" in s.bot.output, 30, what="thinking")


async def test_only_computers_do_not_play_on(s) -> None:
    emu, channel, alice, lobby = await _lobby_with_computers(s, "normal", "normal")
    await answer(await emu.click(alice, lobby, label="Start"))
    left = await answer(await emu.slash(alice, channel, "uno leave"))
    assert left.ephemeral
    msg = await emu.wait_for(
        lambda: (
            (m := Table(emu, channel).message()) is not None
            and "Only computer players were left" in m.text
            and m
        ),
        10,
        what="the game ended without humans",
    )
    assert not msg.buttons
    again = await answer(await emu.slash(alice, channel, "uno new"))
    assert "lobby" in again.text.lower()


async def test_addbot_is_for_the_host_in_a_lobby(s) -> None:
    emu, channel, _alice, lobby = await _lobby_with_computers(s)
    (bob,) = s.users("bob")
    refused = await answer(await emu.click(bob, lobby, label="Add computer"))
    assert refused.ephemeral and "Only the host" in refused.text
    refused = await answer(await emu.slash(bob, channel, "uno addbot"))
    assert "Only the host" in refused.text
