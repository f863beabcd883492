"""Leaderboards: three orderings, deterministic ties, pages, and one player's place."""

from __future__ import annotations

import pytest

from bot.store import Database
from bot.store.stats import add_to_totals
from tests.store.conftest import GUILD

BASE = 400_000_000_000_000_000  # real snowflakes do not fit in 32 bits
U1, U2, U3, U4, U5, U6 = (BASE + i for i in range(1, 7))
FIGURES = {  # points, games_won, games_played, rounds_won
    U1: (100, 2, 4, 3),
    U2: (100, 2, 2, 3),
    U3: (300, 1, 3, 5),
    U4: (50, 3, 6, 1),
    U5: (0, 0, 0, 0),
    U6: (100, 2, 4, 4),
}


@pytest.fixture
async def board(db: Database) -> Database:
    async with db.write() as unit:
        for guild in (GUILD, GUILD + 1):
            await add_to_totals(
                unit.session,
                guild,
                "classic",
                {
                    user: (
                        f"P{user - BASE}",
                        dict(
                            zip(
                                ("points", "games_won", "games_played", "rounds_won"),
                                figures,
                                strict=True,
                            )
                        ),
                    )
                    for user, figures in FIGURES.items()
                    if guild == GUILD or user == U5
                },
            )
    return db


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("points", [U3, U6, U1, U2, U4, U5]),
        ("wins", [U4, U6, U1, U2, U3, U5]),
        ("win_rate", [U2, U4, U1, U6, U3, U5]),
    ],
)
async def test_orderings_with_ties_by_user_id(board: Database, sort, expected) -> None:
    async with board.read() as unit:
        page = await unit.stats.leaderboard(GUILD, sort=sort, per_page=10)
    assert [e.user_id for e in page.entries] == expected
    assert [e.rank for e in page.entries] == [1, 2, 3, 4, 5, 6]
    assert page.total == 6 and page.pages == 1


async def test_pages(board: Database) -> None:
    async with board.read() as unit:
        first = await unit.stats.leaderboard(GUILD, per_page=4)
        second = await unit.stats.leaderboard(GUILD, page=2, per_page=4)
        beyond = await unit.stats.leaderboard(GUILD, page=3, per_page=4)
        with pytest.raises(ValueError):
            await unit.stats.leaderboard(GUILD, page=0)
        with pytest.raises(ValueError):
            await unit.stats.leaderboard(GUILD, sort="luck")
    assert [e.user_id for e in first.entries] == [U3, U6, U1, U2]
    assert [(e.user_id, e.rank) for e in second.entries] == [(U4, 5), (U5, 6)]
    assert (first.pages, second.total, beyond.entries) == (2, 6, ())


async def test_minimum_games(board: Database) -> None:
    async with board.read() as unit:
        page = await unit.stats.leaderboard(GUILD, sort="win_rate", min_games=3)
    assert [e.user_id for e in page.entries] == [U4, U1, U6, U3]
    assert page.total == 4


async def test_a_player_and_their_place(board: Database) -> None:
    async with board.read() as unit:
        u1 = await unit.stats.player(GUILD, U1)
        u4 = await unit.stats.player(GUILD, U4, rank_by="win_rate")
        lonely = await unit.stats.player(GUILD + 1, U5)
        nobody = await unit.stats.player(GUILD + 1, U1)
    assert u1 is not None and (u1.rank, u1.points, u1.games_played, u1.win_rate) == (3, 100, 4, 0.5)
    assert u1.display_name == "P1"
    assert u4 is not None and u4.rank == 2
    assert lonely is not None and (lonely.rank, lonely.win_rate) == (1, 0.0)
    assert nobody is None


async def test_an_empty_server(db: Database) -> None:
    async with db.read() as unit:
        page = await unit.stats.leaderboard(GUILD)
    assert (page.entries, page.total, page.pages) == ((), 0, 1)


async def test_practice_counts_for_nobody_and_is_counted_apart(db: Database) -> None:
    from tests.store.conftest import new_running_game

    solo = await new_running_game(db, {1: "Ann"}, bots={-1: "Bot"}, channel_id=501)
    async with db.write() as unit:
        await unit.stats.add_counters(solo.id, {1: {"cards_played": 5, "uno_calls": 1}})
        await unit.games.finish_round(solo.id, 1, winner_id=1, points={1: 40})
        await unit.games.finish(solo.id, winner_id=1)
    duo = await new_running_game(db, {1: "Ann", 2: "Ben"}, bots={-1: "Bot"}, channel_id=502)
    async with db.write() as unit:
        await unit.stats.add_counters(duo.id, {1: {"cards_played": 2}})
    async with db.read() as unit:
        ann = await unit.stats.player(GUILD, 1)
        assert ann is not None and (ann.cards_played, ann.points, ann.games_played) == (2, 0, 0)
        assert await unit.stats.practice_games(GUILD, 1) == 1
        assert await unit.stats.practice_games(GUILD, 2) == 0
        assert await unit.stats.practice_games(GUILD + 1, 1) == 0
