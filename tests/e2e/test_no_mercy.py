"""A whole Show 'Em No Mercy match through the buttons: two people and a computer, a stack of
twenty that the computer has to take, its knock-out by the mercy rule, the round's result, and
the match's record checked by the verifier and by `/uno verify` (docs/playing.md)."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from testing.fakediscord import Message
from testing.players import (
    Table,
    actions,
    after_move,
    answer,
    final_answer,
    show_hand,
    table_text,
    take_turn,
    version_of,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: A seed whose deal gives Ann (first after the computer, the dealer) a Wild Draw Ten, Bob one
#: too, and the computer none: Ann's Wild Draw Ten, Bob's on it, and the computer (7 cards,
#: nothing to add) takes the stack of twenty: 25 cards, out. Ann and Bob play the round out.
#: (A seed, not a fixed deck: a record's deal comes from its seeds, docs/records.md, so only a
#: seeded deal can be verified.)
SEED = 360


def _playable(hand: Message) -> Message | None:
    """The hand once it offers its player a move."""
    choices = [a for a in actions(hand) if a != "refresh" and not a.startswith("page:")]
    return hand if choices or hand.selects else None


async def test_a_no_mercy_match_with_a_stack_and_a_knock_out(s, tmp_path: Path) -> None:
    emu = s.emu
    channel = s.channel()
    ann, bob = s.users("ann", "bob")
    humans = {ann.id: ann, bob.id: bob}
    s.fix_deal(channel, {"seed": SEED, "dealer_seat": 2})
    lobby = await answer(await emu.slash(ann, channel, "uno new", rules="no_mercy"))
    assert "Show 'Em No Mercy" in lobby.text, lobby.text
    lobby = await answer(await emu.click(bob, lobby, label="Join"))
    lobby = await answer(await emu.click(ann, lobby, label="Add computer"))
    table = await answer(await emu.click(ann, lobby, label="Start"))
    assert "UNO — round 1" in table.text, table.text
    tables = Table(emu, channel)

    # Ann: Wild Draw Ten, red. Bob must answer a stack of ten, and the table says so.
    hand = await show_hand(emu, ann, table)
    await answer(await emu.click(ann, hand, actions(hand)["play:W10:R"]))
    stacked = await emu.wait_for(
        lambda: (m := tables.message()) and "Draw stack: **+10**" in m.text and m,
        5,
        what="the stack of ten on the table",
    )
    assert tables.current_player(stacked) == bob.id
    # Bob adds his: twenty for the computer, who holds nothing to add and is knocked out.
    hands: dict[int, Message] = {}
    hand = await show_hand(emu, bob, stacked)
    hand = await answer(await emu.click(bob, hand, actions(hand)["play:W10:R"]))
    hands[bob.id] = hand
    out = await emu.wait_for(
        lambda: (m := tables.message()) and "knocked out" in table_text(m) and m,
        5,
        what="the knock-out on the table",
    )
    assert "Wild Draw Ten (📚 +20)" in out.text  # the log tells the stack as it grows
    assert "drew 18 cards" in out.text and "is knocked out (too many cards) 💀" in out.text
    # The table's picture keeps the computer's seat, crossed out (its alt text says so).
    alts = " ".join(a.get("description") or "" for a in out.attachments)
    assert "(normal) knocked out" in alts, alts

    # Ann and Bob play the round out, the way a simple player does.
    version = version_of(out) or 0
    for _ in range(200):
        msg = await emu.wait_for(
            lambda v=version: (
                (m := tables.message()) is not None
                and (
                    "match is over" in m.text
                    or ((version_of(m) or 0) >= v and tables.current_player(m) in humans)
                )
                and m
            ),
            10,
            what="a person's turn or the match's end",
        )
        if "match is over" in msg.text:
            break
        current = tables.current_player(msg)
        assert current is not None
        user = humans[current]
        known = hands.get(current)
        if known is None:
            hand = await show_hand(emu, user, msg)
        else:
            hand = await answer(await emu.click(user, known, actions(known)["refresh"]))
        hand = await emu.wait_for(
            functools.partial(_playable, hand), 5, what="the hand showing the turn"
        )
        clicked = version_of(hand) or 0
        hand = await take_turn(emu, user, hand)
        hands[current] = hand
        after = after_move(hand, clicked)
        if after is None:
            break
        version = after
    else:
        raise AssertionError("the round did not end:\n" + (tables.message() or lobby).text)

    # The round's result names the computer as knocked out, not as holding nothing.
    result = await emu.wait_for(
        lambda: next((m for m in emu.channel_messages(channel) if "Match winner" in m.text), None),
        10,
        what="the match's result",
    )
    [computer_row] = [line for line in result.text.splitlines() if "🤖" in line]
    assert "💀 knocked out" in computer_row and "held" not in computer_row, result.text

    # The record verifies: with the bot's verifier, the docs' reference one, and `/uno verify`.
    exported = await final_answer(await emu.click(bob, result, label="Game record"))
    record = json.loads(emu.attachment_blobs[int(exported.attachments[0]["id"])])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    run = subprocess.run(
        [sys.executable, "-m", "bot.engine.verify", str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stdout.startswith("OK"), run.stdout + run.stderr
    reference = Path(__file__).resolve().parents[2] / "tools" / "reference_verifier.py"
    run = subprocess.run(
        [sys.executable, str(reference), str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stdout.startswith("OK"), run.stdout + run.stderr
    verdict = await final_answer(
        await emu.slash(ann, channel, "uno verify", game=record["game"]["id"])
    )
    assert verdict.ephemeral and "checks out" in verdict.text, verdict.text
