"""Skill ratings and seasons, played through the real bot: three people play counted matches,
the leaderboard ranks by rating, practice rates nobody, and an admin ends the season. Fair play
(docs/playing.md): leaving or ending a started match is losing it (also across a restart), a
match nobody moved in rates nobody, small hands are not rated (no farm of quick wins over an
alt), losing to a computer is a loss, newcomers are shown as provisional, and a tie at the top
of a season makes shared champions.

A server of its own (ratings are per server; the session's shared guild has other tests'
matches). Each match is one round (scoring "none") with a fixed deal Ana cannot lose: seven
red cards for her, and for Ben, Cy and the draw pile only cards that match neither a red card
nor any of her numbers, so they draw while she plays her hand out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from testing.bot_env import bot_env
from testing.fakediscord import MANAGE_GUILD, FakeDiscord, Message
from testing.players import (
    Table,
    actions,
    answer,
    deal,
    final_answer,
    open_game,
    play_match,
    show_hand,
    take_turn,
    version_of,
)
from tests.e2e.conftest import ROOT
from tests.e2e.test_resume import RESUMED, Crashable
from tests.e2e.test_resume import crashable as crashable_bot  # noqa: F401 (the fixture)

pytestmark = pytest.mark.asyncio(loop_scope="session")

HANDS = ["R1 R1 R2 R2 R3 R3 R4", "G5 G5 G6 G6 G7 G7 G8", "B5 B5 B6 B6 B7 B7 B8"]
RATING = re.compile(r"Rating: \*\*([\d,]+)\*\*")
DRAWS = ["Y5", "Y5", "Y6", "Y6", "Y7", "Y7", "Y8", "Y8", "G8", "B8", "G0", "B0", "Y0"]
ROW = re.compile(r"\*\*(\d+)\.\*\* (.+?) — \*\*([\d,]+)\*\*")


def ana_wins() -> list[str]:
    """Ana's unlosable deal: the hands, the starter R9, then what Ben and Cy draw."""
    order = deal(HANDS, "R9")
    head, rest = order[:22], order[22:]
    for card in DRAWS:
        rest.remove(card)
    return head + DRAWS + rest


async def rating_of(emu: FakeDiscord, channel: int, asker: Any, player: Any) -> int | None:
    """A player's rating as `/uno stats` shows it (None: not rated in this season)."""
    text = (await answer(await emu.slash(asker, channel, "uno stats", player=player))).text
    found = RATING.search(text)
    return int(found[1].replace(",", "")) if found else None


async def results_of(emu: FakeDiscord, channel: int) -> Message:
    return await emu.wait_for(
        lambda: next((m for m in emu.channel_messages(channel) if "Match winner" in m.text), None),
        5,
        what="the match's results",
    )


def rows(text: str) -> list[tuple[str, int]]:
    """(name, rating) of each leaderboard row, in order."""
    return [(m[2], int(m[3].replace(",", ""))) for m in ROW.finditer(text)]


async def play_practice(emu: FakeDiscord, channel: int, human: Any) -> None:
    """Play a one-person match against a computer to its end (whoever wins)."""
    table = Table(emu, channel)
    loop = asyncio.get_running_loop()
    end = loop.time() + 40
    while loop.time() < end:
        msg = table.message()
        assert msg is not None
        if "match is over" in msg.text:
            return
        if table.current_player(msg) == human.id:
            hand = await show_hand(emu, human, msg)
            if "Your turn" in hand.text or actions(hand).keys() & {"accept", "keep", "color:R"}:
                hand = await take_turn(emu, human, hand)
                if "keep" in actions(hand):
                    await answer(await emu.click(human, hand, actions(hand)["keep"]))
        await asyncio.sleep(0.05)
    raise AssertionError("the practice match did not end")


async def test_ratings_practice_and_a_season_ended_by_command(tmp_path: Path) -> None:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Rated Club")
    bot = emu.bot_process(env=bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id)), cwd=str(ROOT))
    decks = tmp_path / "decks.json"

    def fix_deal(channel: int, spec: dict[str, Any]) -> None:
        data = json.loads(decks.read_text()) if decks.exists() else {}
        data[str(channel)] = spec
        decks.write_text(json.dumps(data))

    await bot.start()
    try:
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        ana, ben, cy = (emu.add_user(name, guild) for name in ("ana", "ben", "cy"))
        admin = emu.add_user("boss", guild, permissions=MANAGE_GUILD)

        # Three counted matches, all won by Ana: each result says how the ratings moved.
        channel = 0
        for n in range(3):
            channel = emu.add_channel(guild, f"rated-{n}")
            deck = ana_wins()
            fix_deal(channel, {"rules": {"scoring": "none"}, "deck": deck, "dealer_seat": 2})
            await open_game(emu, channel, ana, [ben, cy])
            assert await play_match(emu, channel, ana, [ana, ben, cy]) == 1
            results = await emu.wait_for(
                lambda c=channel: next(
                    (m for m in emu.channel_messages(c) if "Match winner" in m.text), None
                ),
                5,
                what="the match's results",
            )
            assert ana.global_name in results.text.split("Match winner")[1]
            assert "📈 Ratings:" in results.text, results.text
        last_counted = channel

        # The leaderboard sorts by rating by default now; Ana, who won every match, leads.
        board = await answer(await emu.slash(ben, channel, "uno leaderboard"))
        assert "by rating" in board.text and "Page 1 of 1 · season 1" in board.text, board.text
        ranked = rows(board.text)
        assert ranked[0][0] == ana.global_name
        assert {name for name, _ in ranked} == {ana.global_name, ben.global_name, cy.global_name}
        ana_rating = ranked[0][1]
        assert ana_rating > 1000
        by_points = await answer(await emu.slash(ben, channel, "uno leaderboard", sort="points"))
        assert "by points" in by_points.text
        stats = await answer(await emu.slash(ana, channel, "uno stats"))
        assert f"Rating: **{ana_rating:,}**" in stats.text and "#1 in season 1" in stats.text
        trend = stats.text.split("last matches: ")[1].split()[0::2]
        assert len(trend) == 3 and all(step.startswith("+") for step in trend), stats.text

        # A practice match (Ana and a computer) changes no rating.
        practice = emu.add_channel(guild, "practice")
        lobby = await answer(await emu.slash(ana, practice, "uno new"))
        await answer(await emu.slash(ana, practice, "uno addbot", level="easy"))
        fix_deal(practice, {"rules": {"scoring": "none"}, "seed": 7})
        lobby = await emu.wait_for(
            lambda: (m := Table(emu, practice).message()) is not None and "Bot" in m.text and m,
            5,
            what="the lobby with its computer",
        )
        await answer(await emu.click(ana, lobby, label="Start"))
        await play_practice(emu, practice, ana)
        results = await emu.wait_for(
            lambda: next(
                (m for m in emu.channel_messages(practice) if "Match winner" in m.text), None
            ),
            5,
            what="the practice results",
        )
        assert "📈" not in results.text
        again = await answer(await emu.slash(ana, practice, "uno stats"))
        assert f"Rating: **{ana_rating:,}**" in again.text
        # (privately: the public board was posted minutes ago, so a public ask points to it)
        mine = await answer(await emu.slash(ben, channel, "uno leaderboard", private=True))
        assert rows(mine.text) == ranked

        # The admin ends the season: archived, announced where its last counted match was
        # played, and the next season starts with the same players, their ratings soft-reset.
        ended = await answer(await emu.slash(admin, channel, "uno-admin end-season"))
        assert ended.ephemeral and "Season 1 has ended" in ended.text, ended.text
        announced = await emu.wait_for(
            lambda: next(
                (m for m in emu.channel_messages(last_counted) if "Season 1 is over" in m.text),
                None,
            ),
            5,
            what="the champion's announcement",
        )
        assert f"Champion: **{ana.global_name}**" in announced.text
        archive = await answer(await emu.slash(cy, channel, "uno leaderboard", season=1))
        assert "Season 1 — final standings" in archive.text
        assert rows(archive.text) == ranked
        current = await answer(await emu.slash(cy, channel, "uno leaderboard", private=True))
        assert "· season 2" in current.text
        carried = rows(current.text)
        assert [name for name, _ in carried] == [name for name, _ in ranked]
        assert all(now < before for (_, now), (_, before) in zip(carried, ranked, strict=True))
        empty = await answer(await emu.slash(admin, channel, "uno-admin end-season"))
        assert "nothing to end" in empty.text  # season 2 has no rated match yet
        totals = await answer(await emu.slash(ana, channel, "uno stats"))
        assert "Games: 3 won of 3" in totals.text and "in season 2" in totals.text

        # Season 2: Dee and Eve each beat a newcomer once, alike: they tie at the top, and the
        # season ends with two champions, not one picked by user id.
        dee, eve, fay, gus = (emu.add_user(name, guild) for name in ("dee", "eve", "fay", "gus"))
        for winner, loser in ((dee, fay), (eve, gus)):
            channel = emu.add_channel(guild, f"tie-{winner.global_name}")
            order = deal(HANDS[:2], "R9")
            head, rest = order[:15], order[15:]
            for card in DRAWS[:8]:
                rest.remove(card)
            spec = {"rules": {"scoring": "none"}, "deck": head + DRAWS[:8] + rest}
            fix_deal(channel, {**spec, "dealer_seat": 1})
            await open_game(emu, channel, winner, [loser])
            assert await play_match(emu, channel, winner, [winner, loser]) == 1
        ended = await answer(await emu.slash(admin, channel, "uno-admin end-season"))
        assert "Season 2 has ended" in ended.text, ended.text
        announced = await emu.wait_for(
            lambda: next(
                (m for m in emu.channel_messages(channel) if "Season 2 is over" in m.text), None
            ),
            5,
            what="the second season's champions",
        )
        champions = next(x for x in announced.text.splitlines() if "👑" in x)
        assert "Champions, tied" in champions, announced.text
        assert dee.global_name in champions and eve.global_name in champions, champions
        archive = await answer(await emu.slash(fay, channel, "uno leaderboard", season=2))
        assert "Champions, tied" in archive.text, archive.text
    finally:
        await bot.stop()
        await emu.stop()


async def test_a_match_is_rated_once_across_a_restart_in_its_final_save(
    crashable_bot: Crashable,  # noqa: F811 (the fixture imported above)
) -> None:
    """The match-ending click is in flight when the bot is SIGKILLed: whether its save
    committed or not, after the restart (and the click again if it did not) the match is
    rated exactly once."""
    c = crashable_bot
    emu = c.emu
    channel = emu.add_channel(c.guild, "rated")
    alice, bob = emu.add_user("alice", c.guild), emu.add_user("bob", c.guild)
    rules = {"hand_size": 5, "scoring": "none"}  # (the smallest rated hand)
    # Alice plays her five reds out while Bob draws what matches neither red nor her numbers.
    deck = deal(["R1 R2 R3 R4 R6", "G7 G8 G9 B7 B8"], "R5")
    for position, card in enumerate(["Y7", "Y8", "Y9", "B9"], start=11):
        deck.remove(card)
        deck.insert(position, card)
    c.decks.write_text(json.dumps({str(channel): {"deck": deck, "dealer_seat": 1, "rules": rules}}))
    table = await open_game(emu, channel, alice, [bob])
    game_id = Table(emu, channel).game_id
    a_hand = await show_hand(emu, alice, table)
    for _ in range(4):  # four of Alice's cards, each answered by Bob's draw
        a_hand = await take_turn(emu, alice, a_hand)
        msg = await Table(emu, channel).at_version(version_of(a_hand) or 0)
        assert Table(emu, channel).current_player(msg) == bob.id
        await take_turn(emu, bob, await show_hand(emu, bob, msg))
        a_hand = await answer(await emu.click(alice, a_hand, actions(a_hand)["refresh"]))
    last = [a for a in actions(a_hand) if a.startswith("play:")]
    assert len(last) == 1, a_hand.text

    emu.callback_latency = 2.0  # the answer is slow: the kill lands in the middle of the save
    click = asyncio.ensure_future(emu.click(alice, a_hand, actions(a_hand)[last[0]]))
    await asyncio.sleep(0)
    try:
        await c.bot.kill()
    finally:
        emu.callback_latency = 0.0
    with contextlib.suppress(Exception):
        await (await click).wait(0)
    await c.bot.start()
    await emu.wait_for_bot(timeout=30, new=True)
    _, status, _ = await c.snapshot(game_id)
    if status == "running":  # the save did not commit: the same click again ends the match
        msg = await emu.wait_for(
            lambda: (m := Table(emu, channel).message()) is not None and RESUMED in m.text and m,
            15,
            what="the resumed table",
        )
        a_hand = await show_hand(emu, alice, msg)
        await answer(await emu.click(alice, a_hand, actions(a_hand)[last[0]]))
    for _ in range(50):
        if (await c.snapshot(game_id))[1] == "finished":
            break
        await asyncio.sleep(0.1)
    changes = await c.query(
        "SELECT user_id, place FROM rating_changes WHERE game_id = :game", game=game_id
    )
    assert sorted(place for _, place in changes) == [1, 2], changes
    assert dict(changes)[alice.id] == 1
    matches = await c.query("SELECT matches FROM ratings WHERE guild_id = :guild", guild=c.guild.id)
    assert sorted(matches) == [(1,), (1,)], matches
    emu.assert_clean(allow_failed=True)


async def test_leaving_a_started_match_is_losing_and_newcomers_are_shown_kindly(s) -> None:
    """Behind after a move, `/uno leave` used to leave both players unrated: now the leaver
    lost to the one still seated, and the public results call both newcomers provisional
    instead of showing a first loss as "936 (-64)"."""
    emu = s.emu
    channel = s.channel()
    ana, ben = s.users("ana", "ben")
    s.fix_deal(channel, {"deck": deal(["R1 R2 R3 R4 R5 R6 R7", HANDS[1]], "R9"), "dealer_seat": 1})
    table = await open_game(emu, channel, ana, [ben])
    await take_turn(emu, ana, await show_hand(emu, ana, table))  # Ana moved: the match started
    await answer(await emu.slash(ben, channel, "uno leave"))
    results = await results_of(emu, channel)
    ratings_line = next(x for x in results.text.splitlines() if "📈 Ratings:" in x)
    assert ratings_line.count("provisional") == 2 and "(" not in ratings_line, ratings_line
    ana_rating = await rating_of(emu, channel, ana, ana)
    ben_rating = await rating_of(emu, channel, ana, ben)
    assert ana_rating is not None and ben_rating is not None
    assert ben_rating < 1000 < ana_rating


async def test_ending_a_started_match_costs_the_host_who_ends_it(s) -> None:
    emu = s.emu
    ana, ben, cy = s.users("ana", "ben", "cy")
    # Ended before anyone moved: nobody is rated.
    channel = s.channel()
    await open_game(emu, channel, ana, [ben, cy])
    ended = await final_answer(await emu.slash(ana, channel, "uno end"))
    assert "ended" in ended.text, ended.text
    assert await rating_of(emu, channel, ana, ana) is None
    # Ended by the host after a move: the host lost to both, who share the first place.
    channel = s.channel()
    s.fix_deal(channel, {"deck": ana_wins(), "dealer_seat": 2})
    table = await open_game(emu, channel, ana, [ben, cy])
    await take_turn(emu, ana, await show_hand(emu, ana, table))
    await final_answer(await emu.slash(ana, channel, "uno end"))
    ana_rating = await rating_of(emu, channel, ana, ana)
    ben_rating = await rating_of(emu, channel, ana, ben)
    cy_rating = await rating_of(emu, channel, ana, cy)
    assert ana_rating is not None and ben_rating is not None
    assert ana_rating < 1000 < ben_rating == cy_rating


async def test_quick_wins_over_an_alt_with_one_card_hands_are_not_rated(s) -> None:
    """The farm of the issue: `/uno new target:1`, hand size 1, the alt only draws; ten such
    matches used to lift the main to the top. Now they stay on the points board, unrated."""
    emu = s.emu
    main, alt = s.users("main", "alt")
    for _ in range(10):
        channel = s.channel()
        s.fix_deal(channel, {"deck": deal(["R1", "G7"], "R5"), "dealer_seat": 1})
        lobby = await answer(await emu.slash(main, channel, "uno new", target=1))
        await answer(await emu.slash(main, channel, "uno setrule", option="hand_size", value="1"))
        lobby = await answer(await emu.click(alt, lobby, label="Join"))
        table = await answer(await emu.click(main, lobby, label="Start"))
        await take_turn(emu, main, await show_hand(emu, main, table))  # R1: out, match won
        results = await results_of(emu, channel)
        assert "Not rated: hands of fewer than 5 cards" in results.text, results.text
    assert await rating_of(emu, channel, main, main) is None
    stats = await answer(await emu.slash(main, channel, "uno stats"))
    assert "Games: 10 won of 10" in stats.text, stats.text


async def test_losing_to_a_computer_is_a_loss(s) -> None:
    """Two people lose a one-round match to an easy computer: both ratings go down (they
    used to go up, the computer being left out and the two people tied)."""
    emu = s.emu
    channel = s.channel()
    ana, ben = s.users("ana", "ben")
    # The computer (third seat, first to play) holds five reds; the people, and what they
    # draw, hold neither red nor a 1, 2, 3, 4, 6 or 9.
    hands = ["G5 G5 G7 G7 G8", "B5 B5 B7 B7 B8", "R1 R2 R3 R4 R6"]
    order = deal(hands, "R9")
    draws = ["Y5", "Y7", "Y8", "Y0", "G0", "B0", "Y5", "Y7", "Y8", "G8"]
    head, rest = order[:16], order[16:]
    for card in draws:
        rest.remove(card)
    s.fix_deal(
        channel,
        {
            "deck": head + draws + rest,
            "dealer_seat": 1,
            "rules": {"hand_size": 5, "scoring": "none"},
        },
    )
    lobby = await answer(await emu.slash(ana, channel, "uno new"))
    lobby = await answer(await emu.click(ben, lobby, label="Join"))
    await answer(await emu.slash(ana, channel, "uno addbot", level="easy"))
    lobby = await emu.wait_for(
        lambda: (m := Table(emu, channel).message()) is not None and "Bot" in m.text and m,
        5,
        what="the lobby with its computer",
    )
    await answer(await emu.click(ana, lobby, label="Start"))
    await play_until_over(emu, channel, [ana, ben])
    results = await results_of(emu, channel)
    assert "Bot" in results.text.split("Match winner")[1]
    for person in (ana, ben):
        rating = await rating_of(emu, channel, ana, person)
        assert rating is not None and rating < 1000, rating


async def play_until_over(emu: FakeDiscord, channel: int, people: list[Any]) -> None:
    """The people take their turns (a computer takes its own) until the match is over."""
    table = Table(emu, channel)
    by_id = {p.id: p for p in people}
    loop = asyncio.get_running_loop()
    end = loop.time() + 30
    while loop.time() < end:
        msg = table.message()
        assert msg is not None
        if "match is over" in msg.text:
            return
        person = by_id.get(table.current_player(msg) or 0)
        if person is not None:
            hand = await show_hand(emu, person, msg)
            if "Your turn" in hand.text or actions(hand).keys() & {"accept", "keep"}:
                await take_turn(emu, person, hand)
        await asyncio.sleep(0.05)
    raise AssertionError("the match did not end")


async def test_a_leaver_is_rated_when_the_match_ends_after_a_restart(
    crashable_bot: Crashable,  # noqa: F811 (the fixture imported above)
) -> None:
    """Ben leaves a started match, the bot is killed and started again, then the host ends
    it: Cy, still seated, first; Ana, who ended it, second; Ben, who left, last."""
    c = crashable_bot
    emu = c.emu
    channel = emu.add_channel(c.guild, "left")
    ana, ben, cy = (emu.add_user(name, c.guild) for name in ("ana", "ben", "cy"))
    c.decks.write_text(json.dumps({str(channel): {"deck": ana_wins(), "dealer_seat": 2}}))
    table = await open_game(emu, channel, ana, [ben, cy])
    game_id = Table(emu, channel).game_id
    await take_turn(emu, ana, await show_hand(emu, ana, table))
    await answer(await emu.slash(ben, channel, "uno leave"))
    await c.bot.kill()
    await c.bot.start()
    await emu.wait_for_bot(timeout=30, new=True)
    ended = await final_answer(await emu.slash(ana, channel, "uno end"))
    assert "ended" in ended.text, ended.text
    changes = await c.query(
        "SELECT user_id, place FROM rating_changes WHERE game_id = :game", game=game_id
    )
    assert dict(changes) == {cy.id: 1, ana.id: 2, ben.id: 3}, changes
    emu.assert_clean(allow_failed=True)
