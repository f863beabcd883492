"""`/uno help` in pages; typed cards: autocomplete over the whole hand, aliases per language."""

from __future__ import annotations

import pytest

from testing.players import answer, deal, open_game

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_help_has_a_short_first_page_and_topics(s) -> None:
    emu = s.emu
    channel = s.channel()
    (ann,) = s.users("ann")
    first = await answer(await emu.slash(ann, channel, "uno help"))
    assert first.ephemeral
    description = first.embeds[0]["description"]
    assert len(description.split("\n")) <= 9  # was 24 lines on one page
    (select,) = first.selects
    topics = [o["value"] for o in select["options"]]
    assert topics == ["basics", "turns", "rules", "leaderboard", "admin"]
    board = await answer(await emu.select(ann, first, select["custom_id"], ["leaderboard"]))
    assert board.id == first.id and "What counts on the leaderboard" in board.text
    admin = await answer(await emu.select(ann, board, select["custom_id"], ["admin"]))
    assert "`/uno-admin settings`" in admin.text and "What counts" not in admin.text


async def test_autocomplete_and_aliases(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob", locale="de")
    s.fix_deal(
        channel,
        {"deck": deal(["R1 RS W B4 GD Y6 Y7", "B3 B8 G6 G7 G8 G9 Y9"], "R5"), "dealer_seat": 1},
    )
    await open_game(emu, channel, alice, [bob])
    offered = await emu.autocomplete(alice, channel, "uno play", focused="card", card="r")
    names = [c["name"] for c in offered]
    assert names[:2] == ["Rot 1", "Rot Aussetzen"]  # playable, then Richtungswechsel etc.
    everything = await emu.autocomplete(alice, channel, "uno play", focused="card")
    values = [c["value"] for c in everything]
    assert set(values[:3]) == {"R1", "RS", "W"} and set(values[3:]) == {"B4", "GD", "Y6", "Y7"}
    assert all("(gerade nicht spielbar)" in c["name"] for c in everything[3:])
    played = await answer(await emu.slash(alice, channel, "uno play", card="aussetzen rot"))
    assert "Rot Aussetzen" in played.text
