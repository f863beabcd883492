"""The games at the table (bot/engine/game_kinds.py): the host picks Show 'Em No Mercy in the
lobby, the match is played to its end, and its figures are No Mercy's only (its leaderboard
and `/uno stats` show it, the classic ones do not); options that mean nothing in No Mercy and
a seventh player are refused; a forged game, or a click for a lobby of another channel, too."""

from __future__ import annotations

import pytest

from testing.players import Table, answer, play_match

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: A seed whose two-player No Mercy round ends within a few dozen moves.
SEED = 11


def _game_select(lobby) -> dict:
    return next(c for c in lobby.selects if c["custom_id"].endswith(":lobby:game"))


def _name(user) -> str:
    return user.global_name or user.username


def _chosen(lobby) -> list[str]:
    return [o["value"] for o in _game_select(lobby)["options"] if o.get("default")]


async def test_a_no_mercy_match_is_on_the_no_mercy_boards_only(s) -> None:
    emu = s.emu
    channel = s.channel()
    host, ann = s.users("host", "ann")
    s.fix_deal(channel, {"seed": SEED})
    lobby = await answer(await emu.slash(host, channel, "uno new"))
    select = _game_select(lobby)
    assert [o["value"] for o in select["options"]][:2] == ["classic", "no_mercy"]
    assert _chosen(lobby) == ["classic"] and "(1/10)" in lobby.text
    lobby = await answer(await emu.click(ann, lobby, label="Join"))

    refused = await answer(await emu.select(ann, lobby, select["custom_id"], ["no_mercy"]))
    assert refused.ephemeral and "Only the host" in refused.text
    lobby = await answer(await emu.select(host, lobby, select["custom_id"], ["no_mercy"]))
    assert not lobby.ephemeral and _chosen(lobby) == ["no_mercy"]
    assert "Show 'Em No Mercy" in lobby.text and "(2/6)" in lobby.text, lobby.text

    # A rule that means nothing in No Mercy (it has no Wild Draw Four), and another game's deck.
    unused = await answer(
        await emu.slash(host, channel, "uno setrule", option="wd4_challenge", value="off")
    )
    assert unused.ephemeral and "has no meaning in Show 'Em No Mercy" in unused.text, unused.text
    other = await answer(
        await emu.slash(host, channel, "uno setrule", option="deck", value="classic108")
    )
    assert other.ephemeral and "That deck belongs to Classic UNO" in other.text, other.text
    assert "Show 'Em No Mercy" in Table(emu, channel).message().text

    await answer(await emu.click(host, lobby, label="Start"))
    assert await play_match(emu, channel, host, [host, ann]) == 1  # (No Mercy: one round)

    board = await answer(
        await emu.slash(ann, channel, "uno leaderboard", game="no_mercy", private=True)
    )
    assert "Show 'Em No Mercy" in board.text and "rating" in board.text, board.text
    assert _name(host) in board.text and _name(ann) in board.text, board.text
    points = await answer(
        await emu.slash(ann, channel, "uno leaderboard", game="no_mercy", sort="points")
    )
    assert _name(host) in points.text and _name(ann) in points.text, points.text
    for sort in ("rating", "points"):  # the server's game (classic) by default
        classic = await answer(
            await emu.slash(ann, channel, "uno leaderboard", sort=sort, private=True)
        )
        assert "Classic UNO" in classic.text, classic.text
        assert _name(host) not in classic.text and _name(ann) not in classic.text, classic.text
    stats = await answer(await emu.slash(host, channel, "uno stats"))
    assert "Show 'Em No Mercy" in stats.text and "Rating: **" in stats.text, stats.text
    assert "Classic UNO" not in stats.text, stats.text


async def test_no_mercy_seats_six_and_bad_picks_are_refused(s) -> None:
    emu = s.emu
    channel, elsewhere = s.channel(), s.channel()
    host, ann, bob = s.users("host", "ann", "bob")
    lobby = await answer(await emu.slash(host, channel, "uno new", rules="no_mercy"))
    assert _chosen(lobby) == ["no_mercy"]
    custom_id = _game_select(lobby)["custom_id"]
    for _ in range(5):
        lobby = await answer(await emu.click(host, lobby, label="Add computer"))
    assert "(6/6)" in lobby.text and lobby.button_by_label("Add computer").disabled
    full = await answer(await emu.click(ann, lobby, label="Join"))
    assert full.ephemeral and "Show 'Em No Mercy is played by 2 to 6 players" in full.text
    # Six at the table: classic takes them; back to No Mercy with seven would not.
    lobby = await answer(await emu.select(host, lobby, custom_id, ["classic"]))
    assert _chosen(lobby) == ["classic"] and "(6/10)" in lobby.text
    lobby = await answer(await emu.click(ann, lobby, label="Join"))
    assert "(7/10)" in lobby.text
    too_many = await answer(await emu.select(host, lobby, custom_id, ["no_mercy"]))
    assert too_many.ephemeral and "and 7 are seated" in too_many.text, too_many.text
    assert _chosen(Table(emu, channel).message()) == ["classic"]

    # A forged game, and a click for this lobby sent from a message of another channel.
    forged = await answer(await emu.forge_click(host, lobby, custom_id, values=["chess"]))
    assert forged.ephemeral and '"chess" is not a game this bot offers' in forged.text
    other = await answer(await emu.slash(bob, elsewhere, "uno new"))
    stray = await answer(await emu.forge_click(host, other, custom_id, values=["no_mercy"]))
    assert stray.ephemeral and "another channel" in stray.text, stray.text
    assert "(7/10)" in Table(emu, channel).message().text
    assert _chosen(Table(emu, channel).message()) == ["classic"]
    assert _chosen(Table(emu, elsewhere).message()) == ["classic"]
