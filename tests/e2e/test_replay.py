"""`/uno replay`, end to end: a round played through the real bot comes back as an animated GIF
with one frame per turn of the round's record (the deal, then each action), posted in the
channel unless asked privately; the Replay button under the match's results gives it to the
clicker; a round that is not over, not there, or a game not of this server is refused privately;
a member posts one replay in 20 seconds at most (told when the next may be shared), and may watch
one privately meanwhile; a round replayed in the channel minutes ago is pointed to, not posted
again, whoever asks (two at once: one post).
"""

from __future__ import annotations

import asyncio
import io
import json
import re

import pytest
from PIL import Image

from testing.players import Table, answer, final_answer, open_game, play_round

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: The first replay starts the bot's replay process (a second or two, more on a loaded machine).
FIRST_REPLAY_WITHIN = 40.0


def _frames(emu, msg) -> int:
    (attachment,) = msg.attachments
    assert attachment["filename"].endswith(".gif")
    gif = Image.open(io.BytesIO(emu.attachment_blobs[int(attachment["id"])]))
    assert gif.format == "GIF"
    return int(getattr(gif, "n_frames", 1))


def _post(emu, channel: int, words: str):
    return next((m for m in emu.channel_messages(channel) if words in m.text), None)


async def test_a_played_round_is_replayed_one_frame_per_turn(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    await open_game(emu, channel, alice, [bob], scoring="none")
    # Before the round is over there is nothing to replay (and nothing is drawn).
    early = await answer(await emu.slash(bob, channel, "uno replay"))
    assert early.ephemeral and "not finished" in early.text
    end = await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    assert "match is over" in end.text

    exported = await final_answer(await emu.slash(bob, channel, "uno export"))
    record = json.loads(emu.attachment_blobs[int(exported.attachments[0]["id"])])
    turns = len(record["rounds"][0]["actions"])
    game_id = record["game"]["id"]
    assert 0 < turns < 300  # (a longer round is spread over 300 frames: tests/ui/test_replay.py)

    asked = await emu.slash(alice, channel, "uno replay")
    shared = await emu.wait_for(
        lambda: _post(emu, channel, "shares game"), FIRST_REPLAY_WITHIN, what="the shared replay"
    )
    assert f"<@{alice.id}> shares game #{game_id}, round 1" in shared.text
    assert f"turns: {turns}" in shared.text
    assert _frames(emu, shared) == turns + 1
    assert shared.attachments[0].get("description", "").startswith("Replay of game")
    thinking = asked.message  # the asker's private "thinking" gave way to the post
    assert thinking is not None and thinking.ephemeral
    await emu.wait_for(lambda: thinking.deleted, 5, what="the thinking message gone")

    mine = await (
        await emu.slash(bob, channel, "uno replay", game=game_id, round=1, private=True)
    ).settled(10)
    assert mine.ephemeral and _frames(emu, mine) == turns + 1
    assert f"#{game_id}, round 1, turn by turn (turns: {turns})" in mine.text

    results = next(m for m in emu.channel_messages(channel) if "Match winner" in m.text)
    clicked = await (await emu.click(bob, results, label="Replay")).settled(10)
    assert clicked.ephemeral and _frames(emu, clicked) == turns + 1
    emu.assert_clean()


async def test_a_round_or_game_that_is_not_there_is_refused_privately(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    await open_game(emu, channel, alice, [bob], scoring="none")
    await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    no_round = await answer(await emu.slash(alice, channel, "uno replay", round=7))
    assert no_round.ephemeral and "has rounds 1 to 1" in no_round.text
    no_game = await answer(await emu.slash(alice, channel, "uno replay", game=987654321))
    assert no_game.ephemeral and "no such game" in no_game.text
    assert Table(emu, channel).message() is not None


async def test_a_member_shares_one_replay_in_twenty_seconds_and_watches_privately_meanwhile(
    s,
) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    await open_game(emu, channel, alice, [bob], scoring="none")
    await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    asked = await emu.slash(alice, channel, "uno replay")
    await emu.wait_for(
        lambda: _post(emu, channel, "shares game"), FIRST_REPLAY_WITHIN, what="the shared replay"
    )
    thinking = asked.message  # gone once the replay is done with (what a player sees)
    await emu.wait_for(lambda: thinking.deleted, 5, what="the thinking message gone")

    def shared() -> list[str]:
        return [m.text for m in emu.channel_messages(channel) if "shares game" in m.text]

    again = await answer(await emu.slash(alice, channel, "uno replay"))
    assert again.ephemeral and "You just shared a replay" in again.text, again.text
    assert re.search(r"<t:\d+:R>", again.text) and "/uno replay private" in again.text
    assert not again.attachments and len(shared()) == 1

    mine = await (await emu.slash(alice, channel, "uno replay", private=True)).settled(10)
    assert mine.ephemeral and mine.attachments  # private: at once
    # Another member asking for the same round is pointed to the post, not posted again.
    pointed = await (await emu.slash(bob, channel, "uno replay")).settled(10)
    first = _post(emu, channel, "shares game")
    assert pointed.ephemeral and not pointed.attachments, pointed.text
    assert f"/channels/{s.guild.id}/{channel}/{first.id}" in pointed.text, pointed.text
    assert re.search(r"round 1 was replayed here <t:\d+:R>", pointed.text), pointed.text
    assert len(shared()) == 1
    emu.assert_clean()


async def test_two_members_asking_for_one_round_at_once_get_one_post(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    await open_game(emu, channel, alice, [bob], scoring="none")
    await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    asks = await asyncio.gather(*(emu.slash(u, channel, "uno replay") for u in (alice, bob)))
    await emu.wait_for(
        lambda: _post(emu, channel, "shares game"), FIRST_REPLAY_WITHIN, what="the shared replay"
    )
    await emu.wait_for(
        lambda: all(
            a.message is not None and (a.message.deleted or "replayed here" in a.message.text)
            for a in asks
        ),
        10,
        what="one post, one pointer",
    )
    posts = [m for m in emu.channel_messages(channel) if "shares game" in m.text]
    assert len(posts) == 1
    pointers = [a.message for a in asks if not a.message.deleted]
    assert len(pointers) == 1 and pointers[0].ephemeral
    assert f"/{posts[0].id}" in pointers[0].text
    emu.assert_clean()
