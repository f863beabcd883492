"""Skill ratings: a counted match rates its people once, practice never; seasons end with an
archive and carry ratings over with their uncertainty raised."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.store import Database
from bot.store.rating_model import BASE, MU, SIGMA, period_start, rating_number, soft_reset
from bot.store.records import GuildConfig
from tests.store.conftest import GUILD, new_running_game

BASE_ID = 500_000_000_000_000_000
A, B, C = BASE_ID + 1, BASE_ID + 2, BASE_ID + 3
PEOPLE = {A: "Ana", B: "Ben", C: "Cy"}


async def play(
    db: Database, winner: int, places: dict[int, int] | None = None, **kw: object
) -> int:
    game = await new_running_game(db, PEOPLE, moved=True, **kw)
    async with db.write() as unit:
        await unit.games.finish(game.id, winner_id=winner, places=places)
    return game.id


async def test_a_counted_match_rates_its_people_by_place(db: Database) -> None:
    game = await play(db, A, {A: 1, B: 2, C: 3})
    async with db.read() as unit:
        changes = await unit.ratings.changes(game)
        board = await unit.ratings.board(GUILD)
    assert set(changes) == {A, B, C}
    assert all(before == BASE for before, _ in changes.values())
    assert changes[A][1] > changes[B][1] > changes[C][1]
    assert board is not None
    assert [e.user_id for e in board.entries] == [A, B, C]
    assert [e.matches for e in board.entries] == [1, 1, 1]


async def test_the_same_final_save_applied_twice_rates_once(db: Database) -> None:
    game = await play(db, A, {A: 1, B: 2, C: 3})
    async with db.read() as unit:
        first = await unit.ratings.player(GUILD, A)
    async with db.write() as unit:  # the game's end reported again (a retried save)
        assert await unit.games.finish(game, winner_id=A) is False
        # ...and the rating step itself, called again for the same game, changes nothing
        assert await unit.ratings.rate_match(game, {A: 1, B: 2, C: 3}, PEOPLE) is False
    async with db.read() as unit:
        again = await unit.ratings.player(GUILD, A)
    assert first == again
    assert first is not None and first.matches == 1


async def test_a_rolled_back_final_save_rates_nothing(db: Database) -> None:
    game = await new_running_game(db, PEOPLE, moved=True)
    with pytest.raises(RuntimeError):
        async with db.write() as unit:  # a crash in the middle of the final save
            await unit.games.finish(game.id, winner_id=A)
            raise RuntimeError("restart")
    async with db.write() as unit:  # the next process saves the end again
        assert await unit.games.finish(game.id, winner_id=A) is True
    async with db.read() as unit:
        mine = await unit.ratings.player(GUILD, A)
    assert mine is not None and mine.matches == 1 and mine.trend == (mine.rating - BASE,)


async def test_practice_never_rates(db: Database) -> None:
    game = await new_running_game(db, {A: "Ana"}, bots={-1: "Bot"}, moved=True)
    async with db.write() as unit:
        await unit.games.finish(game.id, winner_id=A)
    async with db.read() as unit:
        assert await unit.ratings.changes(game.id) == {}
        assert await unit.ratings.player(GUILD, A) is None
        assert not await unit.ratings.has_ratings(GUILD)


async def test_an_uncounted_match_never_rates(db: Database) -> None:
    game = await new_running_game(db, {A: "Ana", B: "Ben"}, moved=True)
    async with db.write() as unit:
        await unit.games.unseat(game.id, B, kicked=True)  # down to one person: uncounted
        await unit.games.finish(game.id, winner_id=A)
    async with db.read() as unit:
        assert await unit.ratings.changes(game.id) == {}


async def test_computers_are_not_rated(db: Database) -> None:
    game = await play(db, A, {A: 1, -1: 2, B: 3, C: 4}, bots={-1: "Bot"})
    async with db.read() as unit:
        assert set(await unit.ratings.changes(game)) == {A, B, C}


async def test_the_trend_lists_the_last_changes(db: Database) -> None:
    for _ in range(3):
        await play(db, A, {A: 1, B: 2, C: 3})
    async with db.read() as unit:
        mine = await unit.ratings.player(GUILD, A)
        theirs = await unit.ratings.player(GUILD, C)
    assert mine is not None and theirs is not None
    assert len(mine.trend) == 3 and all(step > 0 for step in mine.trend)
    assert mine.rank == 1 and theirs.rank == 3
    assert mine.rating == BASE + sum(mine.trend)


async def test_ending_a_season_archives_it_and_soft_resets_ratings(db: Database) -> None:
    for _ in range(3):
        await play(db, A, {A: 1, B: 2, C: 3})
    async with db.read() as unit:
        old = await unit.ratings.board(GUILD)
    async with db.write() as unit:
        ended = await unit.ratings.end_season(GUILD)
    assert ended is not None and ended.number == 1
    assert [e.user_id for e in ended.board("classic")] == [A, B, C]
    async with db.read() as unit:
        archive = await unit.ratings.board(GUILD, season=1)
        new = await unit.ratings.board(GUILD)
        pending = await unit.ratings.unannounced(GUILD)
        totals = await unit.stats.player(GUILD, A)
    assert old is not None and archive is not None and new is not None
    assert archive.ended and [e.rating for e in archive.entries] == [e.rating for e in old.entries]
    assert new.season == 2 and not new.ended
    assert [e.matches for e in new.entries] == [0, 0, 0]
    for before, after in zip(old.entries, new.entries, strict=True):
        assert after.rating < before.rating  # same mu, sigma raised toward the default
    assert [s.number for s in pending] == [1]
    assert totals is not None and totals.games_won == 3  # all-time totals stay


async def test_a_season_without_rated_matches_does_not_end(db: Database) -> None:
    async with db.write() as unit:
        assert await unit.ratings.end_season(GUILD) is None


async def test_a_monthly_season_rolls_over_at_the_first_match_after_its_month(
    db: Database,
) -> None:
    async with db.write() as unit:
        await unit.settings.save_guild(GuildConfig(GUILD, season_length="monthly"))
    first = await new_running_game(db, PEOPLE, moved=True)
    async with db.write() as unit:
        await unit.ratings.rate_match(
            first.id, {A: 1, B: 2, C: 3}, PEOPLE, datetime(2026, 11, 20, tzinfo=UTC)
        )
    second = await new_running_game(db, PEOPLE, channel_id=77, moved=True)
    async with db.write() as unit:
        await unit.ratings.rate_match(
            second.id, {B: 1, A: 2, C: 3}, PEOPLE, datetime(2026, 12, 2, tzinfo=UTC)
        )
    async with db.read() as unit:
        archive = await unit.ratings.board(GUILD, season=1)
        current = await unit.ratings.board(GUILD)
    assert archive is not None and archive.entries[0].user_id == A
    assert current is not None and current.season == 2
    assert {e.user_id: e.matches for e in current.entries} == {A: 1, B: 1, C: 1}


def test_the_shown_number_and_the_soft_reset() -> None:
    assert rating_number(MU, SIGMA) == 1000
    assert soft_reset(SIGMA) == SIGMA and SIGMA > soft_reset(2.0) > 2.0
    assert period_start("quarterly", datetime(2026, 8, 9, tzinfo=UTC)) == datetime(
        2026, 7, 1, tzinfo=UTC
    )
    assert period_start("off", datetime(2026, 8, 9, tzinfo=UTC)) is None


async def test_an_ended_season_is_announced_once(db: Database) -> None:
    await play(db, A, {A: 1, B: 2, C: 3})
    async with db.write() as unit:
        await unit.ratings.end_season(GUILD, channel_id=42)
    async with db.read() as unit:
        (pending,) = await unit.ratings.unannounced(GUILD)
    assert pending.number == 1 and pending.channel_id == 42
    assert pending.board("classic")[0].user_id == A
    async with db.write() as unit:
        assert await unit.ratings.claim_announcement(GUILD, 1) is True
        assert await unit.ratings.claim_announcement(GUILD, 1) is False
    async with db.read() as unit:
        assert await unit.ratings.unannounced(GUILD) == []


async def test_a_quarterly_season_rolls_over_at_a_view_after_its_quarter(db: Database) -> None:
    async with db.write() as unit:
        await unit.settings.save_guild(GuildConfig(GUILD, season_length="quarterly"))
    game = await new_running_game(db, PEOPLE, moved=True)
    async with db.write() as unit:
        await unit.ratings.rate_match(
            game.id, {A: 1, B: 2, C: 3}, PEOPLE, datetime(2026, 5, 20, tzinfo=UTC)
        )
    async with db.write() as unit:  # still the same quarter: nothing happens
        assert await unit.ratings.roll_over_if_due(GUILD, datetime(2026, 6, 30, tzinfo=UTC)) is None
    async with db.write() as unit:  # a leaderboard view in July
        ended = await unit.ratings.roll_over_if_due(GUILD, datetime(2026, 7, 2, tzinfo=UTC))
    assert ended is not None and ended.number == 1
    async with db.read() as unit:
        assert await unit.ratings.current_season(GUILD) == 2
