"""A round's results reach the channel whatever Discord or a restart does, and only once.

The results (the standings, the winner, the rating changes, and at a match's end the
Rematch / Game record / Replay buttons) are saved with the change that ended the round and
posted until Discord takes them (cogs/uno/outbox.py). Before, they were posted once: a
burst of 503s, 500s past discord.py's own retries, SIGKILL or SIGTERM during the post, and the
round's results were never seen. Faults are injected on Discord's side (the emulator's
`fail_route`, on this channel's posts of the results only); the bot is a real process, killed
or stopped by signals. UNO_TEST_TIMER_SCALE=0.02 scales the poster's retries (and its per-try
deadline) so that each test takes seconds; the turn timer is off (the next round still starts
by itself, the 15-s break scaled).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from testing.fakediscord import MANAGE_GUILD, SEND_MESSAGES, Message
from testing.players import Table, actions, answer, deal, open_game, play_round, show_hand
from tests.e2e.worlds import BotWorld, running_world

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Two cards each: alice plays R1 (UNO), bob R3, alice R2 and wins round 1 (bob keeps B9).
HANDS = ["R1 R2", "R3 B9"]
RESULTS = "won round 1"  # the results' first line (the table's log says "Round 1 won by")
BUTTONS = ("rematch", "record", "replay")
SEASON_OVER = "Season 1 is over"  # the champion's announcement
CLOSED = "Only computer players were left"  # a game's closed table
FINAL = "The match is over. Thanks for playing!"  # a finished match's table


class Outbox(BotWorld):
    prefix = "outbox"

    async def round_to_its_end(self, *, match: bool) -> tuple[int, int, Any, Any]:
        """A two-player game whose first round ends after three clicks: the match with it
        (`match`) or not (a next round follows). (channel, game id, alice, bob)."""
        channel = self.channel()
        alice, bob = self.users("alice", "bob")
        rules: dict[str, Any] = {"hand_size": 2}
        rules["scoring"] = "none" if match else "standard"
        self.fix_deal(channel, {"deck": deal(HANDS, "R5"), "dealer_seat": 1, "rules": rules})
        await open_game(self.emu, channel, alice, [bob])
        return channel, Table(self.emu, channel).game_id, alice, bob

    def results(self, channel: int) -> list[Message]:
        return [m for m in self.emu.channel_messages(channel) if RESULTS in m.text]

    async def one_result(self, channel: int, timeout: float = 20) -> Message:
        """The round's results once posted; exactly one of them, with the match's buttons."""
        await self.emu.wait_for(lambda: self.results(channel), timeout, what="the results")
        (result,) = self.results(channel)
        return result

    def posts(self, game_id: int, kind: str = "results") -> list[tuple[str, int | None]]:
        """(state, message id) of the game's saved public posts of `kind`, oldest first."""
        with sqlite3.connect(self.db) as conn:
            rows = conn.execute(
                "SELECT state, message_id FROM public_posts"
                " WHERE game_id = ? AND kind = ? ORDER BY id",
                (game_id, kind),
            )
            return [(state, message_id) for state, message_id in rows]

    def fail_results(self, channel: int, **fault: Any) -> Any:
        """Discord failing the posts of the channel's results (its other posts go through)."""
        path = f"/channels/{channel}/messages"
        return self.emu.fail_route("POST", path, containing=RESULTS, **fault)


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Outbox]:
    tmp = tmp_path_factory.mktemp("outbox")
    async with running_world(Outbox, tmp, "Outbox", UNO_TEST_TIMER_SCALE="0.02") as w:
        await w.set_option(w.channel(), "turn_timer", "0")  # nobody is hurried
        yield w


def _has_match_buttons(message: Message, game_id: int) -> bool:
    return all(f"uno:{game_id}:{b}" in message.custom_ids for b in BUTTONS)


async def test_results_come_before_the_next_round_s_table(world: Outbox) -> None:
    """Discord takes the results at once: they are posted before the next round's table."""
    emu = world.emu
    channel, game_id, alice, bob = await world.round_to_its_end(match=False)
    ended = await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    assert "next" in actions(ended)  # the next round starts by itself, at once (scaled)
    table = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and "round 2" in m.text and m,
        10,
        what="round 2's table",
    )
    (result,) = world.results(channel)
    assert result.id < table.id, "the results first, then the new round's table"
    assert world.posts(game_id) == [("posted", result.id)]


async def test_while_the_results_fail_the_game_goes_on_and_they_come_once(world: Outbox) -> None:
    """Discord answers 503 to the results for as long as it takes: the next round's table is
    posted and played meanwhile (the game never waits for Discord to take the results), and
    the results come once Discord recovers, once, with the round's standings."""
    emu = world.emu
    channel, game_id, alice, bob = await world.round_to_its_end(match=False)
    fault = world.fail_results(channel, status=503)
    ended = await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    assert "next" in actions(ended)  # the next round starts by itself, at once (scaled)
    table = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and "round 2" in m.text and m,
        10,
        what="round 2's table",
    )
    first = Table(emu, channel).current_player(table)
    hand = await show_hand(emu, alice if first == alice.id else bob, table)
    assert "round 2" in table.text and actions(hand), hand.text  # round 2 is played
    await emu.wait_for(lambda: len(fault.hits) >= 3, 10, what="the results failing, retried")
    assert world.results(channel) == [] and world.posts(game_id) == [("pending", None)]
    fault.clear()
    result = await world.one_result(channel)
    assert "Round 1 results" in result.text and "total" in result.text, result.text
    await emu.wait_for(lambda: world.posts(game_id) == [("posted", result.id)], 5, what="marked")


async def test_a_match_s_results_survive_500s_past_discord_py_s_retries(world: Outbox) -> None:
    """Seven 500s: more than discord.py's five tries of one request (which would sleep 25 s
    before giving up). The poster tries again, with the same nonce, until Discord takes it:
    one result, with the match's buttons."""
    emu = world.emu
    channel, game_id, alice, bob = await world.round_to_its_end(match=True)
    fault = world.fail_results(channel, status=500, count=7)
    final = await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    assert "match is over" in final.text
    result = await world.one_result(channel, timeout=30)
    assert len(fault.hits) == 7
    assert "Match winner" in result.text and _has_match_buttons(result, game_id)
    await emu.wait_for(lambda: world.posts(game_id) == [("posted", result.id)], 5, what="marked")


@pytest.mark.parametrize("kill", [True, False], ids=["SIGKILL", "SIGTERM"])
async def test_results_failing_when_the_bot_stops_are_posted_once_by_the_next_run(
    world: Outbox, kill: bool
) -> None:
    """Discord answers 503 to the results until the bot is killed (or stopped); the next run
    posts them, once, with the Rematch / Game record / Replay buttons, and the final table
    shows those buttons too."""
    emu = world.emu
    channel, game_id, alice, bob = await world.round_to_its_end(match=True)
    fault = world.fail_results(channel, status=503)
    final = await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    assert "match is over" in final.text
    await emu.wait_for(lambda: len(fault.hits) >= 2, 10, what="the results failing twice")
    await (world.bot.kill() if kill else world.bot.stop())
    assert world.results(channel) == []
    assert world.posts(game_id) == [("pending", None)]
    fault.clear()
    await world.bot.start()
    await emu.wait_for_bot(timeout=30, new=True)
    result = await world.one_result(channel)
    assert "Match winner" in result.text and _has_match_buttons(result, game_id)
    await emu.wait_for(lambda: world.posts(game_id) == [("posted", result.id)], 5, what="marked")
    table = Table(emu, channel).message()
    assert table is not None and "match is over" in table.text
    assert _has_match_buttons(table, game_id), table.buttons


async def test_results_discord_took_but_never_confirmed_are_not_posted_twice(
    world: Outbox,
) -> None:
    """Discord creates the results but its answer is lost (a 500 after the fact), on every try,
    until the bot is killed before it could mark them posted: the next run posts them again
    with the same nonce, and Discord returns the first message instead of a second one."""
    emu = world.emu
    channel, game_id, alice, bob = await world.round_to_its_end(match=True)
    fault = world.fail_results(channel, status=500, applied=True)
    final = await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    assert "match is over" in final.text
    await emu.wait_for(lambda: len(fault.hits) >= 3, 15, what="three tries, each carried out")
    await world.bot.kill()
    (created,) = world.results(channel)  # Discord has it; the bot never heard so
    assert world.posts(game_id) == [("pending", None)]
    fault.clear()
    await world.bot.start()
    await emu.wait_for_bot(timeout=30, new=True)
    await emu.wait_for(
        lambda: world.posts(game_id) == [("posted", created.id)], 10, what="the same message"
    )
    assert world.results(channel) == [created]


async def test_a_season_s_champion_is_announced_once_after_discord_failed_it(
    world: Outbox,
) -> None:
    """The champion's announcement carries what no other message says: claimed and saved in one
    transaction, it is posted once Discord takes it, after two 503s."""
    emu = world.emu
    channel, _, alice, bob = await world.round_to_its_end(match=True)
    final = await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    assert "match is over" in final.text  # a counted match: the season has a champion
    await world.one_result(channel)
    fault = emu.fail_route(
        "POST", f"/channels/{channel}/messages", status=503, count=2, containing=SEASON_OVER
    )
    (admin,) = world.users("admin", permissions=MANAGE_GUILD)
    ended = await answer(await emu.slash(admin, channel, "uno-admin end-season"))
    assert "has ended" in ended.text, ended.text

    def announcements() -> list[Message]:
        return [m for m in emu.channel_messages(channel) if SEASON_OVER in m.text]

    await emu.wait_for(announcements, 10, what="the champion's announcement")
    assert len(fault.hits) == 2 and len(announcements()) == 1


async def test_a_game_left_to_computers_shows_its_closed_table_after_a_restart(
    world: Outbox,
) -> None:
    """The last person leaves a game with a computer: it ends, and its table says so (the only
    place that does). Discord fails that edit until the bot is killed: the next run shows it."""
    emu = world.emu
    channel = world.channel()
    (alice,) = world.users("alice")
    await answer(await emu.slash(alice, channel, "uno new"))  # (alone: a practice game)
    for _ in range(2):
        await answer(await emu.slash(alice, channel, "uno addbot", level="normal"))
    lobby = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) and m.text.count("(normal)") == 2 and m,
        5,
        what="the lobby with two computers",
    )
    table = await answer(await emu.click(alice, lobby, label="Start"))
    assert "UNO — round 1" in table.text
    path = f"/channels/{channel}/messages/{{id}}"
    fault = emu.fail_route("PATCH", path, status=503, containing=CLOSED)
    left = await answer(await emu.slash(alice, channel, "uno leave"))
    assert left.ephemeral
    await emu.wait_for(lambda: fault.hits, 10, what="the closed table failing")
    await world.bot.kill()
    fault.clear()
    await world.bot.start()
    await emu.wait_for_bot(timeout=30, new=True)
    closed = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) is not None and CLOSED in m.text and m,
        10,
        what="the closed table",
    )
    assert not closed.buttons


async def test_results_in_a_channel_the_bot_may_no_longer_post_in_are_given_up_once(
    world: Outbox,
) -> None:
    """The bot lost Send Messages in the channel during the match: Discord answers 403, which
    no retry can change. The post is given up with one warning and marked so; nothing stalls."""
    emu = world.emu
    channel, game_id, alice, bob = await world.round_to_its_end(match=True)
    emu.channels[channel].overwrites.append(
        {"id": str(emu.bot_user.id), "type": 1, "allow": "0", "deny": str(SEND_MESSAGES)}
    )
    since, refused = len(emu.requests), len(emu.violations)
    final = await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    assert "match is over" in final.text  # the table's edits still land
    await emu.wait_for(
        lambda: world.posts(game_id) == [("undeliverable", None)], 10, what="given up"
    )
    # The results' posts (a turn ping, due when a turn outlasts the scaled-down ping delay on a
    # loaded machine, is refused too, and is not what this test counts).
    posts = [
        r
        for r in emu.requests[since:]
        if r.method == "POST"
        and r.path == f"/channels/{channel}/messages"
        and RESULTS in json.dumps(r.json)
    ]
    assert [r.status for r in posts] == [403]  # tried once: no retry can help
    assert world.bot.output.count("refused it") == 1
    # Discord's refusals, expected here: not one of the module's unexpected violations.
    kinds = [v.kind for v in emu.violations[refused:]]
    assert kinds and set(kinds) == {"missing_permissions"}, kinds
    del emu.violations[refused:]


async def test_a_match_killed_before_its_final_table_shows_it_after_the_restart(
    world: Outbox,
) -> None:
    """Discord fails the final table's edit (the match's end is saved, its results posted) until
    the bot is killed: the next run shows the final table, with the match's buttons, from the
    copy saved with the end. While the process lives, that copy is only a standby."""
    emu = world.emu
    channel, game_id, alice, bob = await world.round_to_its_end(match=True)
    table = Table(emu, channel).message()
    assert table is not None
    path = f"/channels/{channel}/messages/{table.id}"
    fault = emu.fail_route("PATCH", path, status=503, containing=FINAL)
    # (and through a click's token: its edit, or its follow-up posting the table anew)
    hook = "/webhooks/{id}/{token}"
    faults = [
        fault,
        emu.fail_route("PATCH", hook + "/messages/{id}", status=503, containing=FINAL),
        emu.fail_route("POST", hook, status=503, containing=FINAL),
    ]
    users = {alice.id: alice, bob.id: bob}
    with pytest.raises(TimeoutError):  # the table never shows the end: play_round says so
        await play_round(emu, channel, users)
    result = await world.one_result(channel)
    # (through the channel once the token's edit, tried for a few seconds, gave way)
    await emu.wait_for(lambda: fault.hits, 20, what="the final table's edit through the channel")
    assert world.posts(game_id, "table") == [("standby", None)]
    await world.bot.kill()
    for failing in faults:
        failing.clear()
    await world.bot.start()
    await emu.wait_for_bot(timeout=30, new=True)
    final = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) is not None and FINAL in m.text and m,
        10,
        what="the final table",
    )
    assert final.id == table.id and _has_match_buttons(final, game_id), final.buttons
    await emu.wait_for(
        lambda: world.posts(game_id, "table") == [("posted", table.id)], 5, what="marked"
    )
    assert world.results(channel) == [result]


async def test_a_final_table_shown_by_the_running_process_is_not_edited_again(
    world: Outbox,
) -> None:
    """No fault: the running process shows the final table (with its picture) and drops the
    copy kept for a restart, which is never posted."""
    emu = world.emu
    channel, game_id, alice, bob = await world.round_to_its_end(match=True)
    final = await play_round(emu, channel, {alice.id: alice, bob.id: bob})
    assert "match is over" in final.text and _has_match_buttons(final, game_id)
    await emu.wait_for(
        lambda: world.posts(game_id, "table") == [("superseded", None)], 5, what="dropped"
    )
