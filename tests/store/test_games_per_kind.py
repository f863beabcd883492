"""Games per kind (bot/engine/game_kinds.py): a match stores its game, derived from its rules;
its points, totals and rating are that game's only (a No Mercy rating is not a classic one);
seasons archive each game's top ten; and migration 0013 keeps everything stored before as
classic, losing nothing (a real SQLite file, and PostgreSQL when TEST_DATABASE_URL is set)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import text

from bot.engine import RuleSet
from bot.store import Database, migrate
from bot.store.models import Season
from bot.store.rating_model import BASE
from tests.store.conftest import CHANNEL, GUILD, Backend, new_running_game
from tests.store.test_migrations import alembic

BASE_ID = 600_000_000_000_000_000
A, B, C = BASE_ID + 1, BASE_ID + 2, BASE_ID + 3
PEOPLE = {A: "Ana", B: "Ben", C: "Cy"}
NO_MERCY = RuleSet.preset("no_mercy")


async def play(db: Database, rules: RuleSet, winner: int, channel: int = CHANNEL) -> int:
    """A counted match of Ana, Ben and Cy with `rules`, one round and the match won by
    `winner` (places in seat order after the winner)."""
    game = await new_running_game(db, PEOPLE, rules=rules, moved=True, channel_id=channel)
    async with db.write() as unit:
        await unit.games.finish_round(
            game.id,
            1,
            winner_id=winner,
            points={winner: 50, **{p: 0 for p in PEOPLE if p != winner}},
        )
        places = {winner: 1, **{p: i + 2 for i, p in enumerate(p for p in PEOPLE if p != winner)}}
        await unit.games.finish(game.id, winner_id=winner, places=places)
    return game.id


async def test_a_match_stores_the_game_its_rules_play(db: Database) -> None:
    classic = await new_running_game(db, PEOPLE)
    async with db.write() as unit:
        await unit.games.abandon(classic.id)
    lobby = await new_running_game(db, PEOPLE, rules=NO_MERCY, channel_id=CHANNEL + 1)
    assert (classic.game, lobby.game) == ("classic", "no_mercy")
    async with db.write() as unit:  # a lobby's rules changed: its game follows them
        opened = await unit.games.open_lobby(
            guild_id=GUILD, channel_id=CHANNEL + 2, host_id=A, host_name="Ana", rules=RuleSet()
        )
        await unit.games.set_rules(opened.id, NO_MERCY)
        assert (await unit.games.get(opened.id)).game == "no_mercy"
        await unit.games.set_rules(opened.id, RuleSet(deck="swap112"))
        assert (await unit.games.get(opened.id)).game == "classic"
        # The deal's own rules decide at Start (a test hook may change them).
        started = await unit.games.start(
            opened.id, state={"rules": NO_MERCY.to_dict(), "turn": 0}, version=1
        )
    assert started.game == "no_mercy"


async def test_a_no_mercy_match_counts_and_rates_for_no_mercy_only(db: Database) -> None:
    await play(db, RuleSet(), A, channel=CHANNEL)
    await play(db, NO_MERCY, C, channel=CHANNEL + 1)
    async with db.read() as unit:
        classic = await unit.stats.leaderboard(GUILD)
        no_mercy = await unit.stats.leaderboard(GUILD, game="no_mercy")
        classic_ratings = await unit.ratings.board(GUILD)
        no_mercy_ratings = await unit.ratings.board(GUILD, game="no_mercy")
        cy = await unit.stats.player_games(GUILD, C)
        cy_classic = await unit.ratings.player(GUILD, C)
        cy_no_mercy = await unit.ratings.player(GUILD, C, game="no_mercy")
        assert await unit.ratings.has_ratings(GUILD, "no_mercy")
        assert not await unit.ratings.has_ratings(GUILD, "flip")
    first = classic.entries[0]
    assert (first.user_id, first.games_won, first.games_played) == (A, 1, 1)
    first = no_mercy.entries[0]
    assert (first.user_id, first.games_won, first.points) == (C, 1, 50)
    assert classic.game == "classic" and no_mercy.game == "no_mercy"
    assert sum(e.games_played for e in classic.entries) == 3  # the No Mercy match is not here
    assert classic_ratings is not None and no_mercy_ratings is not None
    assert classic_ratings.entries[0].user_id == A
    assert no_mercy_ratings.entries[0].user_id == C
    assert all(e.matches == 1 for e in (*classic_ratings.entries, *no_mercy_ratings.entries))
    # Cy lost the classic match and won the No Mercy one: two figures, two ratings.
    assert [(s.game, s.games_won, s.rank) for s in cy] == [("classic", 0, 3), ("no_mercy", 1, 1)]
    assert cy_classic is not None and cy_no_mercy is not None
    assert cy_classic.rating < BASE < cy_no_mercy.rating
    assert (cy_classic.game, cy_no_mercy.game) == ("classic", "no_mercy")
    assert cy_no_mercy.trend == (cy_no_mercy.rating - BASE,)  # its own matches only


async def test_a_season_end_archives_each_games_top_ten(db: Database) -> None:
    await play(db, RuleSet(), A, channel=CHANNEL)
    await play(db, NO_MERCY, C, channel=CHANNEL + 1)
    async with db.write() as unit:
        ended = await unit.ratings.end_season(GUILD)
    assert ended is not None
    assert [game for game, _ in ended.boards] == ["classic", "no_mercy"]
    assert ended.board("classic")[0].user_id == A and ended.board("no_mercy")[0].user_id == C
    async with db.read() as unit:
        archived = await unit.ratings.board(GUILD, season=1, game="no_mercy")
        carried = await unit.ratings.board(GUILD, game="no_mercy")
        pending = await unit.ratings.unannounced(GUILD)
    assert archived is not None and archived.ended
    assert archived.entries[0].user_id == C
    assert carried is not None and {e.user_id for e in carried.entries} == set(PEOPLE)
    assert [game for game, _ in pending[0].boards] == ["classic", "no_mercy"]


async def test_an_archive_from_before_games_is_classic(db: Database) -> None:
    """Season archives written before 0013 name no game: they are the classic game's."""
    from datetime import UTC, datetime

    async with db.write() as unit:
        unit.session.add(
            Season(
                guild_id=GUILD,
                number=1,
                started_at=datetime(2026, 1, 1, tzinfo=UTC),
                ended_at=datetime(2026, 2, 1, tzinfo=UTC),
                standings=[{"user_id": A, "name": "Ana", "rating": 1100, "matches": 4}],
                announced=True,
            )
        )
        unit.session.add(
            Season(guild_id=GUILD, number=2, started_at=datetime(2026, 2, 1, tzinfo=UTC))
        )
    async with db.read() as unit:
        classic = await unit.ratings.board(GUILD, season=1)
        no_mercy = await unit.ratings.board(GUILD, season=1, game="no_mercy")
    assert classic is not None and [e.user_id for e in classic.entries] == [A]
    assert no_mercy is not None and no_mercy.entries == ()


async def test_0013_keeps_everything_stored_before_as_classic(backend: Backend) -> None:
    """A server's data from before 0013 (a finished match, its totals, its rating, its rating
    change) is all there after the upgrade, as the classic game's; going down again keeps the
    classic rows and drops the ones only the new schema can hold."""
    engine = backend.engine()
    rows = [
        "INSERT INTO games (id, guild_id, channel_id, host_id, status, rules, version,"
        " created_at, rated) VALUES (7, 1, 2, 3, 'finished', '{}', 5, CURRENT_TIMESTAMP, true)",
        "INSERT INTO player_totals (guild_id, user_id, display_name, points, rounds_played,"
        " rounds_won, games_played, games_won, cards_played, uno_calls, catches,"
        " challenges_won, challenges_lost, updated_at)"
        " VALUES (1, 3, 'Ana', 120, 4, 2, 1, 1, 30, 2, 1, 0, 0, CURRENT_TIMESTAMP)",
        "INSERT INTO seasons (guild_id, number, started_at, announced)"
        " VALUES (1, 1, CURRENT_TIMESTAMP, false)",
        "INSERT INTO ratings (guild_id, season, user_id, display_name, mu, sigma, matches,"
        " updated_at) VALUES (1, 1, 3, 'Ana', 27.5, 7.9, 1, CURRENT_TIMESTAMP)",
        "INSERT INTO rating_changes (game_id, user_id, guild_id, season, place, mu_before,"
        " sigma_before, mu_after, sigma_after, created_at)"
        " VALUES (7, 3, 1, 1, 1, 25.0, 8.3, 27.5, 7.9, CURRENT_TIMESTAMP)",
    ]
    try:
        await alembic(engine, lambda config: command.upgrade(config, "0012"))
        async with engine.begin() as connection:
            for row in rows:
                await connection.execute(text(row))
        await migrate(engine)
        database = Database(engine)
        async with database.read() as unit:
            game = await unit.games.get(7)
            totals = await unit.stats.player_games(1, 3)
            rating = await unit.ratings.player(1, 3)
            changes = await unit.ratings.changes(7)
            assert await unit.ratings.has_ratings(1)
        assert game.game == "classic"
        assert [(s.game, s.points, s.games_won, s.cards_played) for s in totals] == [
            ("classic", 120, 1, 30)
        ]
        assert rating is not None and rating.matches == 1 and rating.game == "classic"
        assert set(changes) == {3}
        # A No Mercy total beside the classic one: the new key holds both.
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO player_totals (guild_id, game, user_id, display_name, points,"
                    " rounds_played, rounds_won, games_played, games_won, cards_played,"
                    " uno_calls, catches, challenges_won, challenges_lost, updated_at)"
                    " VALUES (1, 'no_mercy', 3, 'Ana', 9, 1, 1, 1, 1, 3, 0, 0, 0, 0,"
                    " CURRENT_TIMESTAMP)"
                )
            )
        await alembic(engine, lambda config: command.downgrade(config, "0012"))
        async with engine.connect() as connection:
            kept = (await connection.execute(text("SELECT points FROM player_totals"))).all()
            rated = (await connection.execute(text("SELECT mu FROM ratings"))).all()
        assert kept == [(120,)] and rated == [(27.5,)]
        await migrate(engine)
        async with database.read() as unit:
            again = await unit.stats.player_games(1, 3)
        assert [(s.game, s.points) for s in again] == [("classic", 120)]
    finally:
        await engine.dispose()
