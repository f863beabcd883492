"""A turn takes one click when players keep the hand of their last click (issue 11, point 1).

Four players each open their hand once at the start and never again (no Show my hand, no
Refresh unless the hand they hold does not show their turn): at least 90% of turns take exactly
one click, and each player ends with one private message. The figures are printed (`-s`).
"""

from __future__ import annotations

import pytest

from testing.clicks import play_keeping_hands
from testing.players import open_game

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_most_turns_take_one_click(s) -> None:
    emu = s.emu
    channel = s.channel()
    users = s.users("alice", "bob", "carol", "dave")
    s.fix_deal(channel, {"dealer_seat": 3, "seed": 11})
    await open_game(emu, channel, users[0], users[1:])
    stats = await play_keeping_hands(emu, channel, users)
    print("\nclicks per turn:", stats.summary())
    assert stats.turns >= 20, stats.summary()
    assert stats.one_click_share >= 0.9, stats.summary()
    assert set(stats.live_private_messages.values()) == {1}, stats.summary()
