"""From round 2 on the hand stays in reach (issue 22, point 1): when a round's results and the
new table are posted, every open hand is posted again below them (a private follow-up through
the hand's own token) and the old one deleted, so a player never scrolls up to play.

Three players open their hand once at the start and never press Show my hand again; they play
with the lowest hand they see. In round 2, each player's hand is below the round's results and
the new table at their first turn, at least 90% of round 2's turns take one click, and each
player still has exactly one private message open.
"""

from __future__ import annotations

import pytest

from testing.clicks import newest_hand, play_keeping_hands
from testing.players import Table, actions, answer, open_game

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_round_two_hands_come_down_below_the_results_and_the_table(s) -> None:
    emu = s.emu
    channel = s.channel()
    users = s.users("ann", "ben", "cid")
    s.fix_deal(channel, {"dealer_seat": 2, "seed": 7})
    await open_game(emu, channel, users[0], users[1:])
    first = await play_keeping_hands(emu, channel, users, follow=True)
    table = Table(emu, channel)
    msg = table.message()
    assert msg is not None and "next" in actions(msg), "round 1 did not end"
    hands = {u.id: newest_hand(emu, channel, u) for u in users}
    # Anyone at the table starts round 2 (a table button, not Show my hand).
    await answer(await emu.click(users[1], msg, actions(msg)["next"]))
    new_table = await emu.wait_for(
        lambda: (m := table.message()) is not None and "round 2" in m.text and m,
        5,
        what="round 2's table",
    )
    results = [m for m in emu.channel_messages(channel) if "results" in m.text.lower()]
    assert results, "no round results posted"
    for user in users:
        lowest = await emu.wait_for(
            lambda u=user: (
                (h := newest_hand(emu, channel, u)) is not None and h.id > new_table.id and h
            ),
            10,
            what=f"{user.username}'s hand below round 2's table",
        )
        assert lowest.id > results[-1].id
        old = hands[user.id]
        assert old is not None and lowest.id != old.id
        await emu.wait_for(lambda o=old: o.deleted, 5, what="the old hand deleted")
    opened = {u.id: newest_hand(emu, channel, u) for u in users}
    second = await play_keeping_hands(
        emu, channel, users, follow=True, opened={k: v for k, v in opened.items() if v}
    )
    print("\nround 1:", first.summary(), "\nround 2:", second.summary())
    assert second.opens == 0, "nobody opened a hand in round 2"
    assert second.turns >= 10, second.summary()
    assert second.one_click_share >= 0.9, second.summary()
    assert set(second.live_private_messages.values()) == {1}, second.summary()
