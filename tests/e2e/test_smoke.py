from __future__ import annotations

import pytest

from testing.players import Table, actions, open_game, show_hand

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_lobby_and_first_hand(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    table = await open_game(emu, channel, alice, [bob])
    hand = await show_hand(emu, alice, table)
    assert hand.ephemeral
    assert "refresh" in actions(hand)
    assert Table(emu, channel).message() is not None
