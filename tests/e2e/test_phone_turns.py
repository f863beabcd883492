"""A match played from the hands the bot deals, as three phone players would: nobody ever
presses Show my hand, each turn is one click, each hand fits a phone's screen.

Ana (English), Dora (German) and Nils (Norwegian) play a match to 150 points. Each gets their
hand at the deal through their own click in the lobby (game/hands.py `deal`), uses only the
hand they see lowest in the channel (the bot posts it anew below each round's results), and
never clicks in a round's break. Checked: every first turn in one click, no Show my hand in the
whole match, at least 95% of turns in one click, every dealt hand (7 cards, a wild among them)
at most 640 px tall on a 380-px phone (tests/ui/phone.py), and every break under 20 s.
A bot of its own, its timers 20 times faster.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from PIL import Image

from testing.clicks import ClickStats, newest_hand, play_keeping_hands
from testing.fakediscord import FakeDiscord, Message
from testing.players import Table, actions, answer, deal
from tests.e2e.worlds import BotWorld, running_world
from tests.ui.phone import message_height

pytestmark = pytest.mark.asyncio(loop_scope="session")

PHONE_MAX = 640
#: Round 1: each seat holds a wild; Ana, dealt first after the dealer, plays first.
HANDS = ["R1 R2 G3 B4 Y5 Y6 W", "G1 G2 B3 Y4 R5 R6 W4", "B1 B2 Y3 R4 G5 G6 W"]
HAND_BUTTON = re.compile(r"^uno:\d+:hand$")


class PhoneWorld(BotWorld):
    prefix = "phone"


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[PhoneWorld]:
    tmp = tmp_path_factory.mktemp("phone")
    async with running_world(PhoneWorld, tmp, "Phone", UNO_TEST_TIMER_SCALE="0.05") as world:
        yield world


def _picture_size(emu: FakeDiscord, message: Message) -> tuple[int, int] | None:
    for attachment in message.attachments:
        blob = emu.attachment_blobs.get(int(attachment["id"]))
        if blob is not None:
            return Image.open(io.BytesIO(blob)).size
    return None


def _show_hand_clicks(emu: FakeDiscord, channel: int) -> int:
    return sum(
        1
        for i in emu.interactions.values()
        if i.channel_id == channel and HAND_BUTTON.match(str((i.data or {}).get("custom_id", "")))
    )


async def test_a_match_from_the_dealt_hands_one_click_a_turn_on_a_phone(world: PhoneWorld) -> None:
    emu = world.emu
    channel = world.channel()
    await world.set_option(channel, "turn_timer", "0")  # nobody is hurried: clicks are counted
    ana = emu.add_user("ana", world.guild, locale="en-US")
    dora = emu.add_user("dora", world.guild, locale="de")
    nils = emu.add_user("nils", world.guild, locale="no")
    players = [ana, dora, nils]
    world.fix_deal(channel, {"deck": deal(HANDS, "R9"), "dealer_seat": 2})
    lobby = await answer(await emu.slash(ana, channel, "uno new", target=150))
    for user in (dora, nils):
        lobby = await answer(await emu.click(user, lobby, label="Join"))
    await answer(await emu.click(ana, lobby, label="Start"))

    # Everyone's hand arrives by itself, below the table, in their own language.
    dealt: dict[int, Message] = {}
    for user in players:
        dealt[user.id] = await emu.wait_for(
            lambda user=user: newest_hand(emu, channel, user), 10, what=f"{user.username}'s hand"
        )
    assert "Dein" in dealt[dora.id].text or "Karten" in dealt[dora.id].text, dealt[dora.id].text
    assert "kort" in dealt[nils.id].text, dealt[nils.id].text
    # The last moves too, though the server speaks English: "Round 1 dealt; starter: ...".
    for user in (dora, nils):
        told = [line for line in dealt[user.id].text.splitlines() if line.startswith("↪")]
        assert told and not any("dealt" in line for line in told), dealt[user.id].text
    assert any("dealt" in line for line in dealt[ana.id].text.splitlines()), dealt[ana.id].text
    for user, hand in dealt.items():
        height = message_height(hand.embeds, hand.components, _picture_size(emu, hand))
        assert height <= PHONE_MAX, (user, height)

    stats = ClickStats()
    loop = asyncio.get_running_loop()
    breaks: list[float] = []
    table = Table(emu, channel)
    for _ in range(12):
        # The hands each player sees lowest: dealt, then posted anew below each round's results.
        hands = {u.id: hand for u in players if (hand := newest_hand(emu, channel, u))}
        played = await play_keeping_hands(emu, channel, players, opened=hands, follow=True)
        if not stats.log:  # each player's first turn: one click, from the dealt hand
            firsts = {player: clicks for player, clicks in reversed(played.log)}
            assert firsts == {u.id: 1 for u in players}, played.log
        stats.log += played.log
        stats.turns += played.turns
        stats.clicks += played.clicks
        stats.per_turn += played.per_turn
        stats.opens += played.opens

        def settled() -> Message | None:
            shown = table.message()
            done = shown is not None and ("next" in actions(shown) or "match is over" in shown.text)
            return shown if done else None

        over = await emu.wait_for(settled, 10, what="the round's end on the table")
        if "match is over" in over.text:
            break
        found = re.search(r"round (\d+)", over.text)
        assert found is not None, over.text
        number = int(found[1])
        ended = loop.time()  # the break: nobody clicks

        def next_round(number: int = number) -> Message | None:
            shown = table.message()
            return shown if shown is not None and f"round {number + 1}" in shown.text else None

        await emu.wait_for(next_round, 25, what="the next round starting by itself")
        breaks.append(loop.time() - ended)
    print(f"\nphone match: {stats.summary()}; breaks {[round(b, 1) for b in breaks]} s")
    assert stats.opens == 0 and _show_hand_clicks(emu, channel) == 0, "nobody pressed Show my hand"
    assert stats.one_click_share >= 0.95, stats.summary()
    assert all(b <= 20 for b in breaks), breaks
