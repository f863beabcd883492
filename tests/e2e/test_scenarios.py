"""Particular situations, set up with the test-only fixed deal: challenges, catches, big hands."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from testing.players import (
    Table,
    actions,
    answer,
    card_buttons,
    deal,
    hand_size,
    open_game,
    show_hand,
    table_text,
    table_with,
    version_of,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _fixed_game(s, hands: list[str], starter: str, *, rules: dict | None = None, **new):
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    spec = {"deck": deal(hands, starter), "dealer_seat": 1}
    if rules:
        spec["rules"] = rules
    s.fix_deal(channel, spec)
    table = await open_game(emu, channel, alice, [bob], **new)
    return emu, channel, alice, bob, table


async def test_wild_draw_four_challenge_fails(s) -> None:
    emu, channel, alice, bob, table = await _fixed_game(
        s, ["W4 B1 B2 G3 G4 Y5 Y6", "B7 B8 G7 G8 Y7 Y8 R9"], "R5"
    )
    hand = await show_hand(emu, alice, table)
    # One click plays the Wild Draw Four with its colour.
    assert set(actions(hand)) >= {"play:W4:R", "play:W4:Y", "play:W4:G", "play:W4:B"}
    hand = await answer(await emu.click(alice, hand, actions(hand)["play:W4:G"]))
    assert "You played 🌈 Wild Draw Four, chose 🟩 Green" in hand.text, hand.text
    shown = await Table(emu, channel).at_version(version_of(hand) or 0)
    assert "any colour" not in shown.text and "Green" in shown.text, shown.text
    victim = await show_hand(emu, bob, table)
    assert {"accept", "challenge"} <= set(actions(victim))
    # The prompt names the colour the challenge is about (red: the starter's) and the stakes.
    assert f"if {alice.global_name} held a Red card" in victim.text, victim.text
    assert "you draw 6" in victim.text
    result = await answer(await emu.click(bob, victim, actions(victim)["challenge"]))
    # One line for Bob: the verdict, the hand it revealed, his draws; no "Bob" in his own hand.
    expected = f"You challenged {alice.global_name}: not guilty (they held"
    assert expected in result.text, result.text
    assert "drew 6 cards" in result.text and bob.global_name not in result.text, result.text
    assert hand_size(result) == 13  # 7 + 6


async def test_wild_draw_four_challenge_succeeds(s) -> None:
    # Stacking (party rules): Bob stacks his own Wild Draw Four while holding green, the colour
    # Alice named, so Alice's challenge finds him guilty and he draws the whole stack.
    emu, channel, alice, bob, table = await _fixed_game(
        s, ["W4 B1 B2 G3 G4 Y5 Y6", "W4 G7 B7 B8 Y7 Y8 R9"], "R5", rules={"stacking": "same"}
    )
    hand = await show_hand(emu, alice, table)
    hand = await answer(await emu.click(alice, hand, actions(hand)["play:W4:G"]))
    victim = await show_hand(emu, bob, table)
    victim = await answer(await emu.click(bob, victim, actions(victim)["play:W4:R"]))
    hand = await answer(await emu.click(alice, hand, actions(hand)["refresh"]))
    assert "challenge" in actions(hand)
    hand = await answer(await emu.click(alice, hand, actions(hand)["challenge"]))
    assert f"You challenged {bob.global_name}: guilty! They held" in hand.text, hand.text
    bob_hand = await show_hand(emu, bob, Table(emu, channel).message())
    assert hand_size(bob_hand) == 6 + 8


async def test_uno_catch_and_uno_call(s) -> None:
    emu, channel, alice, bob, table = await _fixed_game(
        s, ["R1 R2", "B3 B4"], "R5", rules={"hand_size": 2}
    )
    hand = await show_hand(emu, alice, table)
    hand = await answer(await emu.click(alice, hand, actions(hand)["play:R1"]))
    msg = await Table(emu, channel).at_version(version_of(hand))
    assert "no UNO called" in table_text(msg)  # the picture's alt text (or the text)
    caught = await answer(await emu.click(bob, msg, actions(msg)["catch"]))
    assert caught.ephemeral and "caught" in caught.text
    msg = await Table(emu, channel).at_version(version_of(caught))
    assert "3 cards" in table_text(msg)  # the picture's alt text (or the text, pictures off)

    # Another game: Alice plays her next-to-last card without UNO, then calls it in time.
    emu, channel, alice, bob, table = await _fixed_game(
        s, ["R1 R2", "B3 B4"], "R5", rules={"hand_size": 2}
    )
    hand = await show_hand(emu, alice, table)
    assert "play:R1:uno" in actions(hand)  # the "play and call UNO" choice
    hand = await answer(await emu.click(alice, hand, actions(hand)["play:R1"]))
    msg = await Table(emu, channel).at_version(version_of(hand))
    called = await answer(await emu.click(alice, msg, actions(msg)["uno"]))
    assert "called UNO" in called.text
    msg = await Table(emu, channel).at_version(version_of(called))
    assert "catch" not in actions(msg)  # Catch shows only while someone can be caught
    refused = await answer(await emu.slash(bob, channel, "uno catch"))
    assert "Nobody can be caught" in refused.text


async def test_hand_of_thirty_cards_pages(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    s.fix_deal(channel, {"rules": {"hand_size": 20}, "dealer_seat": 1, "seed": 3})
    await open_game(emu, channel, alice, [bob])
    users = {alice.id: alice, bob.id: bob}
    hands = {}
    for _ in range(60):
        hands[alice.id] = h = await show_hand(emu, alice, Table(emu, channel).message())
        if hand_size(h) >= 31:
            break
        current = Table(emu, channel).current_player(Table(emu, channel).message())
        user = users[current]
        h = await show_hand(emu, user, Table(emu, channel).message())
        if "draw" not in actions(h):  # a wild starter's colour, or a penalty to accept, first
            first = next(a for a in actions(h) if a.startswith("color:") or a == "accept")
            h = await answer(await emu.click(user, h, actions(h)[first]))
            await Table(emu, channel).at_version(version_of(h))
            continue
        h = await answer(await emu.click(user, h, actions(h)["draw"]))
        if "keep" in actions(h):
            h = await answer(await emu.click(user, h, actions(h)["keep"]))
        await Table(emu, channel).at_version(version_of(h))
    hand = hands[alice.id]
    count = hand_size(hand)
    assert count >= 31
    pages = int(re.search(r"Page 1 of (\d+)", hand.text)[1])
    total = 0
    for page in range(pages):
        for label, _enabled in card_buttons(hand):
            m = re.search(r"×(\d+)$", label)
            total += int(m[1]) if m else 1
        if page < pages - 1:
            hand = await answer(await emu.click(alice, hand, actions(hand)[next_page(hand)]))
    assert total == count
    assert len(hand.buttons) <= 25


def next_page(hand) -> str:
    """The hand's Next page button (its emoji alone, with card pictures on)."""
    pages = [a for a in actions(hand) if a.startswith("page:")]
    pages = [a for a in pages if a not in ("page:998", "page:999")]
    return max(pages, key=lambda a: int(a.split(":")[1]))


async def test_swap_hands_target_select(s) -> None:
    emu, _channel, alice, bob, table = await _fixed_game(
        s, ["R7 B1 B2", "G1 G2 G3"], "R5", rules={"seven_o": True, "hand_size": 3}
    )
    hand = await show_hand(emu, alice, table)
    hand = await answer(await emu.click(alice, hand, actions(hand)["play:R7"]))
    assert hand.selects, hand.text
    select = hand.selects[0]
    hand = await answer(await emu.select(alice, hand, select["custom_id"], [str(bob.id)]))
    held = [name for name, _ in card_buttons(hand)]
    assert hand_size(hand) == 3 and all("Green" in name for name in held), held  # Bob's old hand


async def test_drawn_card_play_it(s) -> None:
    emu, _channel, alice, _bob, table = await _fixed_game(
        s, ["B1 B2", "G1 G2"], "R5", rules={"hand_size": 2}
    )
    # The next card on the pile after the deal is the first of the rest: make it red.
    hand = await show_hand(emu, alice, table)
    hand = await answer(await emu.click(alice, hand, actions(hand)["draw"]))
    acts = actions(hand)
    if "keep" in acts:
        play = next(a for a in acts if a.startswith("play:") and not a.endswith(":uno"))
        hand = await answer(await emu.click(alice, hand, acts[play]))
        assert "You played" in hand.text
    else:
        assert "You drew" in hand.text


def _callback_text(emu, interaction_id: int) -> str:
    """The JSON the bot sent as its answer to one interaction."""
    (call,) = [
        r
        for r in emu.requests
        if r.method == "POST" and f"/interactions/{interaction_id}/" in r.path
    ]
    return json.dumps(call.json, ensure_ascii=False)


async def test_double_click_is_applied_once(s) -> None:
    emu, channel, alice, _bob, table = await _fixed_game(
        s, ["R1 R2 R3 R4 R6 R8 R9", "B3 B4 G5 G6 G7 G8 G9"], "R5"
    )
    hand = await show_hand(emu, alice, table)
    cid = actions(hand)["play:R1"]
    first, second = await asyncio.gather(emu.click(alice, hand, cid), emu.click(alice, hand, cid))
    await answer(first)
    await answer(second)
    # Both answers edit the same ephemeral message, so read what each callback said.
    texts = [_callback_text(emu, first.id), _callback_text(emu, second.id)]
    assert sum("older hand" in t for t in texts) == 1, texts
    fresh = await show_hand(emu, alice, Table(emu, channel).message())
    assert hand_size(fresh) == 6


async def test_stale_click_is_refused_with_the_fresh_hand(s) -> None:
    emu, _channel, alice, _bob, table = await _fixed_game(
        s, ["R1 R2 R3 R4 R6 R8 R9", "B3 B4 G5 G6 G7 G8 G9"], "R5"
    )
    # Opening a hand deletes the previous one; an older hand survives when that fails.
    fault = emu.fail_route("DELETE", "/webhooks/{id}/{token}/messages/{id}", status=503)
    try:
        old = await show_hand(emu, alice, table)
        now = await show_hand(emu, alice, table)
        await answer(await emu.click(alice, now, actions(now)["play:R1"]))
        res = await emu.click(alice, old, actions(old)["play:R2"])
        refreshed = await answer(res)
    finally:
        fault.clear()
    # (answered on the clicked hand, or, as the bot deleted it, on a new one)
    assert res.ack_type in (4, 7)
    assert "older hand" in refreshed.text and hand_size(refreshed) == 6


async def test_other_players_and_outsiders_are_refused(s) -> None:
    emu, channel, _alice, bob, _table = await _fixed_game(
        s, ["R1 R2 R3 R4 R6 R8 R9", "B3 B4 G5 G6 G7 G8 G9"], "R5"
    )
    (carol,) = s.users("carol")
    msg = Table(emu, channel).message()
    not_yours = await answer(await emu.click(bob, msg, actions(msg)["draw"]))
    assert not_yours.ephemeral and "not your turn" in not_yours.text
    outsider = await answer(await emu.click(carol, msg, label="Show my hand"))
    assert outsider.ephemeral and "not playing" in outsider.text
    outsider = await answer(await emu.click(carol, msg, actions(msg)["draw"]))
    assert "not playing" in outsider.text
    bob_hand = await show_hand(emu, bob, msg)
    assert all(not enabled for _, enabled in card_buttons(bob_hand))


async def test_two_games_in_two_channels_at_once(s) -> None:
    from testing.players import play_match

    emu = s.emu
    games = []
    for _ in range(2):
        channel = s.channel()
        a, b = s.users("x", "y")
        await open_game(emu, channel, a, [b], rules="norway")
        games.append((channel, a, [a, b]))
    rounds = await asyncio.gather(*(play_match(emu, c, h, us) for c, h, us in games))
    assert rounds == [1, 1]


async def test_the_winners_hand_says_so_and_a_finished_hand_has_no_buttons(s) -> None:
    emu, channel, alice, bob, table = await _fixed_game(
        s, ["R1 R2", "B7 B8"], "R5", rules={"hand_size": 2}, target=1
    )
    hand = await show_hand(emu, alice, table)
    hand = await answer(await emu.click(alice, hand, actions(hand)["play:R2:uno"]))
    b_hand = await show_hand(emu, bob, Table(emu, channel).message())
    b_hand = await answer(await emu.click(bob, b_hand, actions(b_hand)["draw"]))
    if "keep" in actions(b_hand):
        b_hand = await answer(await emu.click(bob, b_hand, actions(b_hand)["keep"]))
    hand = await answer(await emu.click(alice, hand, actions(hand)["refresh"]))
    hand = await answer(await emu.click(alice, hand, actions(hand)["play:R1"]))
    assert "You won the match!" in hand.text, hand.text
    assert hand.buttons == [] and not hand.selects, hand.buttons  # not even Refresh
    final = await emu.wait_for(table_with(emu, channel, "match is over"), 5, what="final table")
    assert final is not None
