"""A whole UNO Flip match through the buttons: a person and two computers, the person's Flip
turning the table to its dark side, the round played out to the match's end. At every hand
the person opens, the hidden side of their own cards is nowhere in it; the public table shows
the other side of every hand, never a card in play (docs/playing.md, "UNO Flip")."""

from __future__ import annotations

import functools
import json

import pytest

from bot.engine import Card, Game, RuleSet
from bot.engine.verify import Replay
from bot.ui.cards import card_mark, card_name
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

#: A seed whose deal gives Ann (first after the dealer, the second computer) a Green Flip she
#: can play on the starter, a Green 4: her first move turns everything to the dark side.
#: (Checked by `_deal`; a seed, not a fixed deck, as a record's deal comes from its seeds.)
SEED = 6
FLIP = RuleSet.preset("flip")


def _deal() -> Game:
    """The round as dealt, seen from outside the bot: seats 1 (Ann), 2 and 3, dealer 3 (the
    deal depends on the seed and the seats, not on who sits in them)."""
    game, _ = Game.start([1, 2, 3], FLIP, seed=SEED, dealer=3)
    return game


def _names_of(cards: set[Card]) -> list[str]:
    """How a card may be written in a message: its English name and its mark."""
    return [text for c in cards for text in (card_name(c, "en-US"), card_mark(c))]


def _playable(hand: Message) -> Message | None:
    choices = [a for a in actions(hand) if a != "refresh" and not a.startswith("page:")]
    return hand if choices or hand.selects else None


async def test_a_flip_match_turns_to_the_dark_side_and_hides_what_it_should(s) -> None:
    emu = s.emu
    channel = s.channel()
    (ann,) = s.users("ann")
    dealt = _deal()
    assert Card.of("GF") in dealt.hand(1) and dealt.top_card == Card.of("G4")
    s.fix_deal(channel, {"seed": SEED, "dealer_seat": 2})
    lobby = await answer(await emu.slash(ann, channel, "uno new", rules="flip", target=1))
    assert "UNO Flip" in lobby.text and "(1/10)" in lobby.text, lobby.text
    lobby = await answer(await emu.click(ann, lobby, label="Add computer"))
    lobby = await answer(await emu.click(ann, lobby, label="Add computer"))
    table = await answer(await emu.click(ann, lobby, label="Start"))
    assert "☀️ **Light side** in play" in table.text, table.text
    tables = Table(emu, channel)

    # Ann's hand: her cards as she holds them, not one of their hidden sides (the others
    # show theirs: those she may see).
    hand = await show_hand(emu, ann, table)
    mine = set(dealt.hand(1))
    hidden = set(dealt.other_sides(1))
    seen = {c for p in (2, 3) for c in dealt.other_sides(p)} | {dealt.pile_back, dealt.top_card}
    assert "Your hand — 7 cards" in hand.text, hand.text
    assert len(hidden - seen) >= 4  # (enough of her hidden sides seen by nobody to check)
    for text in _names_of(hidden - seen):
        assert text not in hand.text, (text, hand.text)
    assert all(c.code in " ".join(actions(hand, enabled_only=False)) for c in mine)
    assert "👀" in hand.text  # what she sees of the others' hands
    # The public table: every hand's other side, none in play.
    public = table_text(tables.message() or table)
    assert "showing" in public, public
    held = {c for p in (1, 2, 3) for c in dealt.hand(p)}
    assert len(held - seen) >= 10
    for text in _names_of(held - seen):
        assert text not in public, (text, public)

    # Her Green Flip: the table turns to its dark side; her hand (the click's answer) shows
    # her six cards' dark side, checked against the record at the end.
    hand = await answer(await emu.click(ann, hand, actions(hand)["play:GF"]))
    after_flip = hand.text
    assert "🌙 **Dark side** in play" in after_flip and "Your hand — 6 cards" in after_flip
    dark = await emu.wait_for(
        lambda: (m := tables.message()) and "🌙 **Dark side** in play" in m.text and m,
        10,
        what="the dark side on the table",
    )
    assert "everything flipped to the dark side" in table_text(dark), table_text(dark)
    assert "Dark side in play." in table_text(dark)  # the picture's alt text says it too

    # She plays the round out the simple way; the computers theirs. One round: target 1.
    version = version_of(dark) or 0
    for _ in range(200):
        msg = await emu.wait_for(
            lambda v=version: (
                (m := tables.message()) is not None
                and (
                    "match is over" in m.text
                    or ((version_of(m) or 0) >= v and tables.current_player(m) == ann.id)
                )
                and m
            ),
            15,
            what="Ann's turn or the match's end",
        )
        if "match is over" in msg.text:
            break
        hand = await answer(await emu.click(ann, hand, actions(hand)["refresh"]))
        hand = await emu.wait_for(
            functools.partial(_playable, hand), 5, what="the hand showing the turn"
        )
        clicked = version_of(hand) or 0
        hand = await take_turn(emu, ann, hand)
        after = after_move(hand, clicked)
        if after is None:
            break
        version = after
    else:
        raise AssertionError("the match did not end:\n" + (tables.message() or lobby).text)
    result = await emu.wait_for(
        lambda: next((m for m in emu.channel_messages(channel) if "Match winner" in m.text), None),
        15,
        what="the match's result",
    )
    # The record replayed: after her Flip she held these dark cards, whose light sides nobody
    # but the others could see; none of those (seen by no one else at any time) was in her hand.
    exported = await final_answer(await emu.click(ann, result, label="Game record"))
    record = json.loads(emu.attachment_blobs[int(exported.attachments[0]["id"])])
    replay = Replay(record)
    actors = [int(player) for player, _ in record["rounds"][0]["actions"]]
    ann_id = ann.id
    hidden: set[Card] = set()
    ever_seen: set[Card] = set()  # from her Flip to her next move: when the answer was drawn
    for step in replay.steps():
        game = step.game
        if step.action == 1:
            assert game.dark and len(game.hand(ann_id)) == 6
            hidden = set(game.other_sides(ann_id))
        if step.action >= 1:
            ever_seen |= {c for p in game.players if p != ann_id for c in game.other_sides(p)}
            ever_seen |= set(game.discard) | {c for c in [game.pile_back] if c is not None}
        if 1 <= step.action < len(actors) and actors[step.action] == ann_id:  # (her move next)
            break
    assert hidden - ever_seen, "nothing left to check"
    for text in _names_of(hidden - ever_seen):
        assert text not in after_flip, (text, after_flip)
