"""An open hand heals itself after Discord fails its edits for a while, like the table.

Discord answers 500 to every edit of Bob's open hand (its interaction token's `@original`)
until it has failed five of them; discord.py tries a webhook request five times over 16 s, then
sleeps 9 s more and gives up (here in a twentieth of that: test_table_heal.outage_game), and the
bot tries again itself. Once
Discord recovers, the hand must show the latest state within 10 s without anyone acting (the
turn timer is off): before the fix, the failed edit was dropped and Bob's hand said "Waiting
for Alice" while the table said it was his turn, until the next change.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from testing.players import HAND_ID, Table, actions, answer, show_hand
from tests.e2e.test_table_heal import outage_game

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Failed edits of the hand before Discord recovers (discord.py's tries of one request).
LIBRARY_TRIES = 5
#: Seconds from Discord's recovery by which every live hand shows the latest state.
CATCH_UP = 10.0


async def test_an_open_hand_catches_up_after_discord_fails_its_edits(tmp_path: Path) -> None:
    async with outage_game(tmp_path) as (emu, g):
        hand_button = next(c for c in g.table.custom_ids if HAND_ID.match(c))
        res = await emu.click(g.bob, g.table, hand_button)
        b_hand = await answer(res)
        assert "Waiting for **Alice" in b_hand.text, b_hand.text
        path = f"/webhooks/{emu.application_id}/{res.interaction.token}/messages/@original"
        fault = emu.fail_route("PATCH", path, status=500)

        a_hand = await show_hand(emu, g.alice, g.table)
        await answer(await emu.click(g.alice, a_hand, actions(a_hand)["play:R1"]))
        tables = Table(emu, g.channel)
        await emu.wait_for(
            lambda: (m := tables.message()) and tables.current_player(m) == g.bob.id,
            5,
            what="the table naming bob",
        )
        # discord.py gives up on the edit of Bob's hand: Discord may recover now.
        await emu.wait_for(
            lambda: len(fault.hits) >= LIBRARY_TRIES, 60, what="discord.py's tries of the edit"
        )
        fault.clear()
        loop = asyncio.get_running_loop()
        recovered = loop.time()
        await emu.wait_for(
            lambda: "Your turn" in b_hand.text, CATCH_UP, what="bob's hand caught up"
        )
        print(f"\nthe hand caught up {loop.time() - recovered:.1f} s after Discord recovered")
        assert {"play:R6", "play:R7"} <= actions(b_hand).keys(), b_hand.text
        assert not b_hand.deleted and emu.ephemerals(g.bob) == [b_hand]
        emu.assert_clean()
