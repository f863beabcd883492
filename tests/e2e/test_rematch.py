"""Rematch: the button under a finished match's result opens a new lobby with the same rules.

The first clicker hosts; later clickers are seated; once that lobby starts, the button refuses.
A forged rematch of a running game, or from another channel, is refused and changes nothing.
"""

from __future__ import annotations

import pytest

from testing.players import Table, answer, open_game, play_match

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _result_with_rematch(emu, channel):
    for m in reversed(emu.channel_messages(channel)):
        if "Match winner" in m.text:
            return m
    raise AssertionError("no match result in the channel")


async def test_rematch_opens_a_lobby_with_the_same_rules_and_seats_the_clickers(s) -> None:
    emu = s.emu
    channel, elsewhere = s.channel(), s.channel()
    alice, bob, cara = s.users("alice", "bob", "cara")
    await open_game(emu, channel, alice, [bob], rules="norway")
    finished = Table(emu, channel).game_id
    assert await play_match(emu, channel, alice, [alice, bob]) == 1
    result = _result_with_rematch(emu, channel)
    rematch = f"uno:{finished}:rematch"
    assert rematch in result.custom_ids, result.buttons

    # Bob clicks first: he hosts a new lobby, posted in the channel, with the Norway rules.
    opened = await answer(await emu.click(bob, result, rematch))
    assert opened.ephemeral and "rematch" in opened.text, opened.text
    lobby = Table(emu, channel).message()
    assert lobby is not None and ":lobby:" in " ".join(lobby.custom_ids)
    new_game = Table(emu, channel).game_id
    assert new_game != finished
    # (the Norway rules: official play, one round; the lobby names the play and the length apart)
    assert f"<@{bob.id}>" in lobby.text and "Rules: **Official**" in lobby.text, lobby.text
    assert "**one round**" in lobby.text, lobby.text

    # Whoever clicks next is seated, like Join (Cara did not play the first match).
    for user in (alice, cara):
        joined = await answer(await emu.click(user, result, rematch))
        assert joined.ephemeral and "joined" in joined.text, joined.text
    lobby = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and cara.global_name in m.text and m,
        5,
        what="the lobby with all three",
    )
    assert alice.global_name in lobby.text and bob.global_name in lobby.text
    again = await answer(await emu.click(alice, result, rematch))
    assert again.ephemeral and "already" in again.text, again.text

    # From another channel, and for a game that is not over: refused, nothing changes.
    note = await answer(await emu.slash(alice, elsewhere, "uno help"))
    other = await answer(await emu.forge_click(alice, note, rematch))
    assert other.ephemeral and "another channel" in other.text, other.text
    running = await answer(await emu.forge_click(alice, lobby, f"uno:{new_game}:rematch"))
    assert running.ephemeral and "not over" in running.text, running.text
    assert Table(emu, channel).game_id == new_game

    # Once the rematch runs, the old button refuses instead of opening a third game.
    table = await answer(await emu.click(bob, lobby, label="Start"))
    assert "UNO — round 1" in table.text
    busy = await answer(await emu.click(cara, result, rematch))
    assert busy.ephemeral and "already has an UNO game" in busy.text, busy.text
