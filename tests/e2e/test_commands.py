"""Every slash command and lobby button, and a clear ephemeral answer to every bad input."""

from __future__ import annotations

import pytest

from testing.fakediscord import MANAGE_GUILD
from testing.players import Table, actions, answer, deal, hand_size, open_game, show_hand

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _say(emu, user, channel, command, **options):
    res = await emu.slash(user, channel, command, **options)
    msg = await answer(res)
    return msg


async def test_lobby_buttons_and_commands(s) -> None:
    emu = s.emu
    channel = s.channel()
    host, ann, ben, cat = s.users("host", "ann", "ben", "cat")
    lobby = await _say(
        emu, host, channel, "uno new", rules="official", scoring="standard", target=300
    )
    assert not lobby.ephemeral and "lobby" in lobby.text
    busy = await _say(emu, ann, channel, "uno new")
    assert busy.ephemeral and "already has an UNO game" in busy.text
    early = await _say(emu, host, channel, "uno start")
    assert early.ephemeral and "2 to 10 players" in early.text
    lobby = await answer(await emu.click(ann, lobby, label="Join"))
    again = await answer(await emu.click(ann, lobby, label="Join"))
    assert again.ephemeral and "already in this game" in again.text
    joined = await _say(emu, ben, channel, "uno join")
    assert joined.ephemeral and "joined" in joined.text
    await _say(emu, cat, channel, "uno join")
    lobby = Table(emu, channel).message()
    lobby = await answer(await emu.click(cat, lobby, label="Leave"))
    assert cat.global_name not in lobby.text
    left = await _say(emu, ben, channel, "uno leave")
    assert "left" in left.text
    await _say(emu, ben, channel, "uno join")
    not_host = await _say(emu, ann, channel, "uno kick", player=ben)
    assert "Only the host" in not_host.text
    kicked = await _say(emu, host, channel, "uno kick", player=ben)
    assert "removed" in kicked.text
    not_host = await answer(await emu.click(ann, Table(emu, channel).message(), label="Start"))
    assert not_host.ephemeral and "Only the host" in not_host.text
    started = await _say(emu, host, channel, "uno start")
    assert "started" in started.text
    table = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and "round 1" in m.text and m, 5
    )
    late = await _say(emu, cat, channel, "uno join")
    assert "already started" in late.text
    ended = await _say(emu, ann, channel, "uno end")
    assert "host or someone with Manage Server" in ended.text
    manager = emu.add_user("manager", s.guild, permissions=MANAGE_GUILD)
    ended = await _say(emu, manager, channel, "uno end")
    assert not ended.ephemeral and "not counted" in ended.text
    gone = await answer(await emu.click(host, table, label="Show my hand"))
    assert gone.ephemeral and "ended" in gone.text
    # The game's owner ended it: its table says so, without buttons.
    closed = await emu.wait_for(
        lambda: next(
            (
                m
                for m in emu.channel_messages(channel)
                if m.id == table.id and "not counted" in m.text and not m.buttons
            ),
            None,
        ),
        5,
        what="the closed table",
    )
    assert closed.id == table.id
    none = await _say(emu, host, channel, "uno hand")
    assert "no UNO game in this channel" in none.text

    # Cancel from the lobby.
    lobby = await _say(emu, host, channel, "uno new")
    cancelled = await answer(await emu.click(host, lobby, label="Cancel"))
    assert not cancelled.buttons and "not counted" in cancelled.text


async def test_playing_by_commands(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    s.fix_deal(
        channel,
        {"deck": deal(["R1 R2 W B4 G5 Y6 Y7", "B3 B8 G6 G7 G8 G9 Y9"], "R5"), "dealer_seat": 1},
    )
    await open_game(emu, channel, alice, [bob])
    hand = await _say(emu, alice, channel, "uno hand")
    assert hand.ephemeral and hand_size(hand) == 7
    choices = await emu.autocomplete(alice, channel, "uno play", focused="card")
    values = [c["value"] for c in choices]  # all cards, the playable ones first
    assert set(values[:4]) == {"R1", "R2", "W", "G5"} and set(values[4:]) == {"B4", "Y6", "Y7"}
    assert all("not playable now" in c["name"] for c in choices[4:])
    waiting = await emu.autocomplete(bob, channel, "uno play", focused="card")
    assert len(waiting) == 7 and all("not playable now" in c["name"] for c in waiting)
    bad = await _say(emu, alice, channel, "uno play", card="XYZ")
    assert bad.ephemeral and "is not a card" in bad.text
    missing = await _say(emu, alice, channel, "uno play", card="B9")
    assert "don't hold" in missing.text
    unplayable = await _say(emu, alice, channel, "uno play", card="B4")
    assert "can't be played now" in unplayable.text
    wrong_turn = await _say(emu, bob, channel, "uno draw")
    assert "not your turn" in wrong_turn.text
    played = await _say(emu, alice, channel, "uno play", card="Wild", color="B")
    assert "You played" in played.text and "Blue" in played.text
    drew = await _say(emu, bob, channel, "uno draw")
    assert "You drew" in drew.text
    if "keep" in actions(drew):
        drew = await answer(await emu.click(bob, drew, actions(drew)["keep"]))
    no_uno = await _say(emu, bob, channel, "uno uno")
    assert "don't need to call UNO" in no_uno.text
    nobody = await _say(emu, bob, channel, "uno catch", player=alice)
    assert "nobody to catch" in nobody.text.lower()
    # `/uno table`: told at once, privately; the table comes anew at the channel's bottom.
    before = Table(emu, channel).message()
    repost = await _say(emu, bob, channel, "uno table")
    assert repost.ephemeral and "posted again" in repost.text, repost.text
    table = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and m.id != before.id and m, 5
    )
    assert "UNO — round 1" in table.text and not table.ephemeral
    await emu.wait_for(lambda: before.deleted, 5, what="the old table deleted")
    # A second one within the member's cooldown is refused, with when it may be asked again.
    again = await _say(emu, bob, channel, "uno table")
    assert again.ephemeral and "post it again <t:" in again.content, again.content
    rules = await _say(emu, bob, channel, "uno rules")
    assert rules.ephemeral and "Rules: Official" in rules.text and "nothing changed" in rules.text
    help_ = await _say(emu, bob, channel, "uno help")
    assert "/uno new" in help_.text
    board = await _say(emu, bob, channel, "uno leaderboard", sort="win_rate", page=1)
    assert "Leaderboard" in board.text
    stats = await _say(emu, bob, channel, "uno stats")
    assert "UNO stats" in stats.text
    left = await _say(emu, bob, channel, "uno leave")
    assert "left the game" in left.text
    final = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and "match is over" in m.text and m, 5
    )
    # No moves left: only the match's Rematch / Game record / Replay, as under its results.
    assert [c.rsplit(":", 1)[1] for c in final.custom_ids] == ["rematch", "record", "replay"]


async def test_admin_sync_is_owner_only(s) -> None:
    emu = s.emu
    channel = s.channel()
    manager = emu.add_user("boss", s.guild, permissions=MANAGE_GUILD)
    refused = await _say(emu, manager, channel, "uno-admin sync")
    assert refused.ephemeral and "owner" in refused.text
    emu.add_member(emu.app_owner, s.guild, permissions=MANAGE_GUILD)
    before = emu.command_syncs[None]
    res = await emu.slash(emu.app_owner, channel, "uno-admin sync")
    done = await res.settled()
    assert "synced" in done.text.lower() or (await res.followup()).text
    assert emu.command_syncs[None] == before + 1


async def test_hand_button_for_a_player_and_next_round_by_anyone_seated(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    s.fix_deal(
        channel, {"deck": deal(["R1", "B3"], "R5"), "dealer_seat": 1, "rules": {"hand_size": 1}}
    )
    table = await open_game(emu, channel, alice, [bob])
    hand = await show_hand(emu, alice, table)
    await answer(await emu.click(alice, hand, actions(hand)["play:R1"]))
    results = await emu.wait_for_message(channel, lambda m: "results" in m.text)
    assert alice.global_name in results.text
    table = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and "next" in actions(m) and m, 5
    )
    # Anyone at the table may start it (nobody waits on an absent host): Bob does.
    await answer(await emu.click(bob, table, actions(table)["next"]))
    await emu.wait_for(lambda: (m := Table(emu, channel).message()) and "round 2" in m.text, 5)
