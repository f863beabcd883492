"""The table's Log button: the round's whole log, privately, to whoever clicks it."""

from __future__ import annotations

import pytest

from testing.players import answer, open_game

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_the_log_button_shows_the_round_s_whole_log_privately(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    (onlooker,) = s.users("onlooker")
    table = await open_game(emu, channel, alice, [bob])
    shown = await answer(await emu.click(onlooker, table, label="Log"))
    assert shown.ephemeral and "Round 1: the whole log" in shown.text, shown.text
    assert "Round 1 dealt" in shown.text
