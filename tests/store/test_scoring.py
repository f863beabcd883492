"""Rounds and games are added to the totals exactly once; computer players never are."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Database, GameNotFound, NotSeated, WrongStatus
from tests.store.conftest import CHANNEL, GUILD, Backend, new_running_game

ANN, BEN, CAT, ROBOT = 31, 32, 33, -7


async def record_round(db: Database, game_id: int, number: int = 1) -> bool:
    async with db.write() as unit:
        return await unit.games.finish_round(
            game_id, number, winner_id=ANN, points={ANN: 120, BEN: 0}
        )


async def totals(db: Database, user_id: int):
    async with db.read() as unit:
        return await unit.stats.player(GUILD, user_id)


async def test_a_round_adds_points_and_rounds(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "Robot"})
    async with db.write() as unit:
        assert await unit.games.finish_round(
            game.id, 1, winner_id=ANN, points={ANN: 120, BEN: 0, ROBOT: 0}
        )
    ann, ben = await totals(db, ANN), await totals(db, BEN)
    assert ann is not None and ben is not None
    assert (ann.points, ann.rounds_won, ann.rounds_played, ann.display_name) == (120, 1, 1, "Ann")
    assert (ben.points, ben.rounds_won, ben.rounds_played) == (0, 0, 1)
    assert await totals(db, ROBOT) is None
    async with db.read() as unit:
        [played] = await unit.history.rounds(game.id)
    assert (played.round_number, played.winner_id) == (1, ANN)
    assert played.points == {ANN: 120, BEN: 0, ROBOT: 0}


async def test_the_same_round_twice_counts_once(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "Robot"})
    assert await record_round(db, game.id) is True
    assert await record_round(db, game.id) is False
    assert await record_round(db, game.id, 2) is True
    ann = await totals(db, ANN)
    assert ann is not None and (ann.points, ann.rounds_won, ann.rounds_played) == (240, 2, 2)


async def test_concurrent_finishers_count_a_round_once(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "Robot"})
    results = await asyncio.gather(*(record_round(db, game.id) for _ in range(2)))
    assert sorted(results) == [False, True]
    ann = await totals(db, ANN)
    assert ann is not None and (ann.points, ann.rounds_won) == (120, 1)


async def test_finishers_in_two_processes_count_a_round_once(backend: Backend) -> None:
    """Two Database objects on one file behave like two bot processes: no shared lock."""
    first, second = backend.database(), backend.database()
    try:
        await first.migrate()
        game = await new_running_game(first, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "Robot"})
        results = await asyncio.gather(
            *(record_round(db, game.id) for db in (first, second, first, second))
        )
        assert sorted(results) == [False, False, False, True]
        ann = await totals(first, ANN)
        assert ann is not None and ann.points == 120
    finally:
        await first.close()
        await second.close()


async def test_round_errors(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    async with db.write() as unit:
        with pytest.raises(NotSeated):
            await unit.games.finish_round(game.id, 1, winner_id=CAT, points={})
        with pytest.raises(NotSeated):
            await unit.games.finish_round(game.id, 1, winner_id=ANN, points={CAT: 5})
        with pytest.raises(GameNotFound):
            await unit.games.finish_round(10_000, 1, winner_id=None, points={})
    async with db.write() as unit:
        await unit.games.abandon(game.id)
        with pytest.raises(WrongStatus):
            await unit.games.finish_round(game.id, 1, winner_id=None, points={})


async def test_a_recorded_round_is_still_acknowledged_after_the_game_ended(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    await record_round(db, game.id)
    async with db.write() as unit:
        await unit.games.finish(game.id, winner_id=ANN)
    assert await record_round(db, game.id) is False


async def test_finishing_a_game_counts_it_once(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "Robot"})

    async def finish() -> bool:
        async with db.write() as unit:
            return await unit.games.finish(game.id, winner_id=BEN)

    assert sorted(await asyncio.gather(finish(), finish())) == [False, True]
    assert await finish() is False
    ann, ben = await totals(db, ANN), await totals(db, BEN)
    assert ann is not None and (ann.games_played, ann.games_won) == (1, 0)
    assert ben is not None and (ben.games_played, ben.games_won) == (1, 1)
    assert await totals(db, ROBOT) is None
    async with db.read() as unit:
        record = await unit.games.get(game.id)
    assert (record.status, record.winner_id, record.turn_deadline) == ("finished", BEN, None)


async def test_a_computer_winner_gives_no_win_to_anyone(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "Robot"})
    async with db.write() as unit:
        await unit.games.finish(game.id, winner_id=ROBOT)
    ann = await totals(db, ANN)
    assert ann is not None and (ann.games_played, ann.games_won) == (1, 0)


async def test_leaving_a_running_match_counts_as_a_lost_match_at_once(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben", CAT: "Cat"})
    async with db.write() as unit:
        await unit.games.finish_round(game.id, 1, winner_id=CAT, points={CAT: 40})
        await unit.games.unseat(game.id, CAT)
    cat = await totals(db, CAT)
    assert cat is not None and (cat.games_played, cat.games_won, cat.points) == (1, 0, 40)
    async with db.write() as unit:
        await unit.games.finish_round(game.id, 2, winner_id=ANN, points={ANN: 10})
        await unit.games.finish(game.id, winner_id=ANN)
    cat = await totals(db, CAT)
    assert cat is not None and (cat.rounds_played, cat.games_played, cat.games_won) == (1, 1, 0)
    ann = await totals(db, ANN)
    assert ann is not None and (ann.games_played, ann.games_won) == (1, 1)


async def test_a_kicked_player_loses_nothing_and_a_kick_down_to_one_counts_for_nobody(
    db: Database,
) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "Robot"})
    async with db.write() as unit:
        await unit.games.finish_round(game.id, 1, winner_id=ANN, points={ANN: 30})
        await unit.games.unseat(game.id, BEN, kicked=True)
        # Ann plays on against the computer: nothing more counts.
        await unit.games.finish_round(game.id, 2, winner_id=ANN, points={ANN: 500})
        await unit.games.finish(game.id, winner_id=ANN, walkover=True)
        record = await unit.games.get(game.id)
    assert record.rated is False and record.status == "finished"
    ann, ben = await totals(db, ANN), await totals(db, BEN)
    assert ann is not None and (ann.points, ann.games_played, ann.games_won) == (30, 0, 0)
    assert ben is not None and (ben.games_played, ben.rounds_played) == (0, 1)


async def test_a_kick_that_leaves_two_people_keeps_the_match_rated(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben", CAT: "Cat"})
    async with db.write() as unit:
        await unit.games.unseat(game.id, CAT, kicked=True)
        await unit.games.finish(game.id, winner_id=ANN)
    ann, cat = await totals(db, ANN), await totals(db, CAT)
    assert ann is not None and (ann.games_played, ann.games_won) == (1, 1)
    assert cat is None


async def test_a_walkover_counts_only_after_a_round_won_by_play(db: Database) -> None:
    early = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    async with db.write() as unit:
        await unit.games.unseat(early.id, BEN)
        await unit.games.finish_round(early.id, 1, winner_id=None, points={})  # abandoned
        await unit.games.finish(early.id, winner_id=ANN, walkover=True)
        assert (await unit.games.get(early.id)).rated is False
    ann, ben = await totals(db, ANN), await totals(db, BEN)
    assert ann is None  # an abandoned round is no round played
    assert ben is not None and (ben.games_played, ben.games_won) == (1, 0)

    late = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, channel_id=CHANNEL + 1)
    async with db.write() as unit:
        await unit.games.finish_round(late.id, 1, winner_id=BEN, points={BEN: 60})
        await unit.games.unseat(late.id, BEN)
        await unit.games.finish(late.id, winner_id=ANN, walkover=True)
    ann, ben = await totals(db, ANN), await totals(db, BEN)
    assert ann is not None and (ann.games_played, ann.games_won) == (1, 1)
    assert ben is not None and (ben.games_played, ben.games_won, ben.points) == (2, 0, 60)


async def test_one_person_against_computers_is_practice(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann"}, bots={ROBOT: "Robot"})
    assert game.rated is False
    async with db.write() as unit:
        await unit.games.finish_round(game.id, 1, winner_id=ANN, points={ANN: 90})
        await unit.games.finish(game.id, winner_id=ANN)
    assert await totals(db, ANN) is None


async def test_counters_add_up_for_humans_only(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "Robot"})
    async with db.write() as unit:
        await unit.stats.add_counters(
            game.id,
            {
                ANN: {"cards_played": 3, "uno_calls": 1, "challenges_won": 1},
                BEN: {"catches": 1, "challenges_lost": 1, "cards_played": 0},
                ROBOT: {"cards_played": 5},
            },
        )
    async with db.write() as unit:
        await unit.stats.add_counters(game.id, {ANN: {"cards_played": 2}})
    ann, ben = await totals(db, ANN), await totals(db, BEN)
    assert ann is not None and ben is not None
    assert (ann.cards_played, ann.uno_calls, ann.challenges_won) == (5, 1, 1)
    assert (ben.cards_played, ben.catches, ben.challenges_lost) == (0, 1, 1)
    assert await totals(db, ROBOT) is None


async def test_counter_errors(db: Database) -> None:
    game = await new_running_game(db, {ANN: "Ann", BEN: "Ben"})
    async with db.write() as unit:
        with pytest.raises(ValueError, match="unknown counter"):
            await unit.stats.add_counters(game.id, {ANN: {"points": 100}})
        with pytest.raises(ValueError):
            await unit.stats.add_counters(game.id, {ANN: {"cards_played": -1}})
        with pytest.raises(NotSeated):
            await unit.stats.add_counters(game.id, {CAT: {"cards_played": 1}})
        with pytest.raises(GameNotFound):
            await unit.stats.add_counters(10_000, {ANN: {"cards_played": 1}})


async def test_totals_are_per_server(db: Database) -> None:
    here = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, bots={ROBOT: "R"}, channel_id=1)
    there = await new_running_game(db, {ANN: "Ann", BEN: "Ben"}, channel_id=2, guild_id=GUILD + 1)
    await record_round(db, here.id)
    async with db.write() as unit:
        await unit.games.finish_round(there.id, 1, winner_id=BEN, points={BEN: 7})
    async with db.read() as unit:
        ann_there = await unit.stats.player(GUILD + 1, ANN)
    assert ann_there is not None and (ann_there.points, ann_there.rounds_won) == (0, 0)
    ann_here = await totals(db, ANN)
    assert ann_here is not None and ann_here.points == 120
