"""Fair play in the ratings (docs/playing.md, "Skill ratings and seasons"), on both backends:
leaving a started match is losing it, a match nobody moved in is unrated, a kick is not a loss,
`/uno end` costs whoever ended it, computers are opponents of a fixed strength, small hands are
unrated, repeated matches between the same people weigh less (no farm to the top), and
provisional ratings never lead the board."""

from __future__ import annotations

from datetime import timedelta

from bot.engine.rules import RuleSet
from bot.store import Database
from bot.store.rating_model import BASE, REPEAT_WINDOW, rate, rating_places, repeat_weight
from tests.store.conftest import GUILD, new_running_game

BASE_ID = 600_000_000_000_000_000
A, B, C, D = BASE_ID + 1, BASE_ID + 2, BASE_ID + 3, BASE_ID + 4
EASY = -1


async def ratings_of(db: Database, game_id: int) -> dict[int, tuple[int, int]]:
    async with db.read() as unit:
        return await unit.ratings.changes(game_id)


async def test_a_leaver_lost_to_everyone_still_seated(db: Database) -> None:
    game = await new_running_game(db, {A: "Ana", B: "Ben", C: "Cy"}, moved=True)
    async with db.write() as unit:
        await unit.games.unseat(game.id, C)  # Cy leaves first
    async with db.write() as unit:
        await unit.games.unseat(game.id, B)  # then Ben: a walkover for Ana
        await unit.games.finish(game.id, winner_id=A, walkover=True)
    changes = await ratings_of(db, game.id)
    assert set(changes) == {A, B, C}
    assert changes[A][1] > changes[B][1] > changes[C][1]
    assert changes[C][1] < BASE  # the first to leave lost to both


async def test_a_match_nobody_moved_in_is_not_rated(db: Database) -> None:
    game = await new_running_game(db, {A: "Ana", B: "Ben"})
    async with db.write() as unit:
        await unit.games.unseat(game.id, B)
        await unit.games.finish(game.id, winner_id=A, walkover=True)
    assert await ratings_of(db, game.id) == {}


async def test_a_kicked_player_is_not_rated_as_a_loser(db: Database) -> None:
    game = await new_running_game(db, {A: "Ana", B: "Ben", C: "Cy"}, moved=True)
    async with db.write() as unit:
        await unit.games.unseat(game.id, C, kicked=True)
        await unit.games.finish(game.id, winner_id=A, places={A: 1, B: 2, C: 3})
    assert set(await ratings_of(db, game.id)) == {A, B}


async def test_ending_a_started_match_costs_whoever_ended_it(db: Database) -> None:
    game = await new_running_game(db, {A: "Ana", B: "Ben", C: "Cy"}, moved=True)
    async with db.write() as unit:
        assert await unit.games.abandon(game.id, ended_by=A)  # the host, behind, ends it
    changes = await ratings_of(db, game.id)
    assert changes[A][1] < changes[B][1] == changes[C][1]
    assert changes[A][1] < BASE


async def test_a_moderator_ending_a_match_without_leavers_rates_nobody(db: Database) -> None:
    game = await new_running_game(db, {A: "Ana", B: "Ben"}, moved=True)
    async with db.write() as unit:
        assert await unit.games.abandon(game.id, ended_by=D)  # not playing: nobody lost
    assert await ratings_of(db, game.id) == {}
    early = await new_running_game(db, {A: "Ana", B: "Ben"}, channel_id=78)
    async with db.write() as unit:
        assert await unit.games.abandon(early.id, ended_by=A)  # before anyone moved
    assert await ratings_of(db, early.id) == {}


async def test_losing_to_a_computer_is_a_loss_and_beating_it_a_gain(db: Database) -> None:
    lost = await new_running_game(
        db, {A: "Ana", B: "Ben"}, bots={EASY: "Bot"}, moved=True, channel_id=81
    )
    async with db.write() as unit:
        await unit.games.finish(lost.id, winner_id=EASY, places={EASY: 1, A: 2, B: 2})
    changes = await ratings_of(db, lost.id)
    assert set(changes) == {A, B}  # the computer is never stored
    assert all(after < before for before, after in changes.values())
    won = await new_running_game(
        db, {C: "Cy", D: "Dee"}, bots={EASY: "Bot"}, moved=True, channel_id=82
    )
    async with db.write() as unit:
        await unit.games.finish(won.id, winner_id=C, places={C: 1, D: 1, EASY: 3})
    assert all(after > before for before, after in (await ratings_of(db, won.id)).values())


async def test_small_hands_are_not_rated(db: Database) -> None:
    game = await new_running_game(
        db, {A: "Ana", B: "Ben"}, rules=RuleSet(hand_size=4, target=1), moved=True
    )
    async with db.write() as unit:
        await unit.games.finish(game.id, winner_id=A)
    assert await ratings_of(db, game.id) == {}
    async with db.read() as unit:  # ...but the points board counted it
        board = await unit.stats.leaderboard(GUILD)
    assert {e.user_id for e in board.entries} == {A, B}


async def test_ten_quick_wins_over_an_alt_do_not_take_the_top(db: Database) -> None:
    # An established player: twelve real matches, each against two people new to them (no
    # repeats), won two times in three.
    for n in range(12):
        x, y = BASE_ID + 10 + 2 * n, BASE_ID + 11 + 2 * n
        game = await new_running_game(db, {C: "Cy", x: "x", y: "y"}, moved=True)
        places = {C: 1, x: 2, y: 3} if n % 3 else {x: 1, C: 2, y: 3}
        async with db.write() as unit:
            await unit.games.finish(game.id, winner_id=C if n % 3 else x, places=places)
    # A main account beats its alt ten times in a row, within a minute.
    for _ in range(10):
        game = await new_running_game(db, {A: "Main", B: "Alt"}, moved=True)
        async with db.write() as unit:
            await unit.games.finish(game.id, winner_id=A)
    async with db.read() as unit:
        board = await unit.ratings.board(GUILD)
        main = await unit.ratings.player(GUILD, A)
    assert board is not None and main is not None
    assert board.entries[0].user_id == C and not board.entries[0].provisional
    assert main.provisional and main.rank > 1
    assert main.rating < board.entries[0].rating
    assert main.matches == 10


def test_the_pure_rules() -> None:
    assert rating_places({A: 1, B: 2}, [C, D]) == {A: 1, B: 2, D: 3, C: 4}
    assert rating_places({B: 1}, [C], ender=A) == {B: 1, A: 2, C: 3}
    assert [repeat_weight(n) for n in range(3)] == [1.0, 0.5, 0.25]
    new = (25.0, 25.0 / 3)
    full = rate({A: new, B: new}, {A: 1, B: 2})
    half = rate({A: new, B: new}, {A: 1, B: 2}, weights={A: 0.5, B: 0.5})
    assert abs((half[A][0] - 25.0) - (full[A][0] - 25.0) / 2) < 1e-9
    assert timedelta(hours=24) == REPEAT_WINDOW  # (the window docs/playing.md names)
