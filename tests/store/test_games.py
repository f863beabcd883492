"""A game's life in the store: lobby, seats, start, versioned saves, the end."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.engine.rules import RuleSet
from bot.store import (
    UNCHANGED,
    AlreadySeated,
    ChannelBusy,
    Database,
    GameNotFound,
    GameStatus,
    NewAction,
    NotSeated,
    StaleVersion,
    TableFull,
    WrongStatus,
)
from tests.store.conftest import CHANNEL, GUILD, HOST, new_running_game

ALICE, BOB, CARL = 11, 12, 13


async def open_lobby(db: Database, channel_id: int = CHANNEL, host_id: int = HOST):
    async with db.write() as unit:
        return await unit.games.open_lobby(
            guild_id=GUILD,
            channel_id=channel_id,
            host_id=host_id,
            host_name="Host",
            rules=RuleSet(target=200),
        )


async def test_open_lobby_seats_the_host(db: Database) -> None:
    game = await open_lobby(db)
    assert game.status is GameStatus.LOBBY
    assert (game.guild_id, game.channel_id, game.host_id) == (GUILD, CHANNEL, HOST)
    assert game.rules == RuleSet(target=200)
    assert [(s.user_id, s.seat_order, s.is_bot) for s in game.seats] == [(HOST, 0, False)]
    assert game.created_at.tzinfo is UTC
    async with db.read() as unit:
        assert await unit.games.open_game_in(CHANNEL) == game
        assert await unit.games.get(game.id) == game


async def test_second_lobby_in_a_channel_is_refused(db: Database) -> None:
    game = await open_lobby(db)
    with pytest.raises(ChannelBusy) as caught:
        await open_lobby(db, host_id=ALICE)
    assert caught.value.game_id == game.id
    other_channel = await open_lobby(db, channel_id=CHANNEL + 1)
    assert other_channel.id != game.id


async def test_two_lobbies_opened_at_once_give_one_game(db: Database) -> None:
    results = await asyncio.gather(
        *(open_lobby(db, host_id=user) for user in (ALICE, BOB, CARL)), return_exceptions=True
    )
    games = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, ChannelBusy)]
    assert len(games) == 1 and len(refused) == 2
    assert {r.game_id for r in refused} == {games[0].id}


async def test_database_refuses_a_second_open_game_even_without_the_check(db: Database) -> None:
    """The partial unique index holds even if code skips the SELECT (here: the race loser)."""
    from sqlalchemy.exc import IntegrityError

    from bot.store.models import Game, utcnow

    await open_lobby(db)
    with pytest.raises(IntegrityError):
        async with db.write() as unit:
            unit.session.add(
                Game(
                    guild_id=GUILD,
                    channel_id=CHANNEL,
                    host_id=ALICE,
                    status=GameStatus.RUNNING,
                    rules={},
                    version=0,
                    created_at=utcnow(),
                )
            )
            await unit.session.flush()


async def test_a_channel_is_free_again_once_its_game_ended(db: Database) -> None:
    first = await open_lobby(db)
    async with db.write() as unit:
        assert await unit.games.abandon(first.id) is True
    second = await open_lobby(db)
    assert second.id != first.id


async def test_seat_and_unseat_in_the_lobby(db: Database) -> None:
    game = await open_lobby(db)
    async with db.write() as unit:
        await unit.games.seat(game.id, ALICE, "Alice")
        await unit.games.seat(game.id, BOB, "Bob")
        robot = await unit.games.seat(game.id, -1, "Robot", is_bot=True, bot_level="hard")
        assert (robot.seat_order, robot.is_bot, robot.bot_level) == (3, True, "hard")
    async with db.write() as unit:
        await unit.games.unseat(game.id, ALICE)
        seats = (await unit.games.get(game.id)).seats
    assert [(s.user_id, s.seat_order) for s in seats] == [(HOST, 0), (BOB, 1), (-1, 2)]


async def test_seating_errors(db: Database) -> None:
    game = await open_lobby(db)
    async with db.write() as unit:
        with pytest.raises(AlreadySeated):
            await unit.games.seat(game.id, HOST, "Host again")
        await unit.games.seat(game.id, ALICE, "Alice", max_seats=2)
        with pytest.raises(TableFull):
            await unit.games.seat(game.id, BOB, "Bob", max_seats=2)
        with pytest.raises(NotSeated):
            await unit.games.unseat(game.id, CARL)
        with pytest.raises(GameNotFound):
            await unit.games.seat(10_000, BOB, "Bob")


async def test_concurrent_joins_get_distinct_seats(db: Database) -> None:
    game = await open_lobby(db)

    async def join(user_id: int) -> None:
        async with db.write() as unit:
            await unit.games.seat(game.id, user_id, f"P{user_id}")

    await asyncio.gather(*(join(user) for user in range(100, 108)))
    async with db.read() as unit:
        seats = (await unit.games.get(game.id)).seats
    assert [s.seat_order for s in seats] == list(range(9))


async def test_start_stores_the_first_snapshot_and_logs_it(db: Database) -> None:
    game = await open_lobby(db)
    deadline = datetime.now(UTC) + timedelta(seconds=60)
    async with db.write() as unit:
        await unit.games.seat(game.id, ALICE, "Alice")
        started = await unit.games.start(
            game.id, state={"deck": [1, 2]}, version=1, actor_id=HOST, turn_deadline=deadline
        )
    assert started.status is GameStatus.RUNNING and started.version == 1
    assert started.started_at is not None and started.turn_deadline == deadline
    async with db.read() as unit:
        saved = await unit.games.load(game.id)
        log = await unit.history.actions(game.id)
    assert saved.state == {"deck": [1, 2]} and saved.version == 1
    assert [(a.version, a.action, a.actor_id) for a in log] == [(1, "start", HOST)]
    assert log[0].detail == {"state": {"deck": [1, 2]}}


async def test_lobby_only_operations(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    async with db.write() as unit:
        with pytest.raises(WrongStatus):
            await unit.games.seat(game.id, BOB, "Bob")
        with pytest.raises(WrongStatus):
            await unit.games.start(game.id, state={}, version=1)
        with pytest.raises(WrongStatus):
            await unit.games.set_rules(game.id, RuleSet())
    lobby = await open_lobby(db, channel_id=CHANNEL + 1)
    async with db.write() as unit:
        with pytest.raises(WrongStatus):
            await unit.games.load(lobby.id)
        await unit.games.set_rules(lobby.id, RuleSet(jump_in=True))
        assert (await unit.games.get(lobby.id)).rules == RuleSet(jump_in=True)


async def test_leaving_a_running_game_keeps_the_seat_marked(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    async with db.write() as unit:
        await unit.games.unseat(game.id, ALICE)
        with pytest.raises(NotSeated):
            await unit.games.unseat(game.id, ALICE)
    async with db.read() as unit:
        seat = (await unit.games.get(game.id)).seat_of(ALICE)
    assert seat is not None and seat.left_at is not None


async def test_save_action_writes_snapshot_and_log_together(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    async with db.write() as unit:
        version = await unit.games.save_action(
            game.id,
            expected_version=1,
            state={"turn": 1},
            actions=NewAction(2, "play:R7", HOST, {"events": ["CardPlayed"]}),
        )
        assert version == 2
        # A human move followed by two computer moves, saved as one.
        await unit.games.save_action(
            game.id,
            expected_version=2,
            state={"turn": 4},
            actions=[NewAction(3, "draw", ALICE), NewAction(4, "play:G2", None)],
        )
    async with db.read() as unit:
        saved = await unit.games.load(game.id)
        log = await unit.history.actions(game.id, after_version=1)
    assert (saved.version, saved.state) == (4, {"turn": 4})
    assert [(a.version, a.action, a.actor_id) for a in log] == [
        (2, "play:R7", HOST),
        (3, "draw", ALICE),
        (4, "play:G2", None),
    ]
    assert log[0].detail == {"events": ["CardPlayed"]}


async def test_stale_version_writes_nothing(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    async with db.write() as unit:
        await unit.games.save_action(
            game.id, expected_version=1, state={"turn": 1}, actions=NewAction(2, "play:R7", HOST)
        )
    with pytest.raises(StaleVersion) as caught:
        async with db.write() as unit:
            await unit.games.save_action(
                game.id, expected_version=1, state={"turn": 99}, actions=NewAction(2, "draw", ALICE)
            )
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    async with db.read() as unit:
        saved = await unit.games.load(game.id)
        log = await unit.history.actions(game.id)
    assert (saved.version, saved.state) == (2, {"turn": 1})
    assert [a.action for a in log] == ["start", "play:R7"]


async def test_two_clicks_at_the_same_instant_save_once(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})

    async def click(user_id: int) -> int:
        async with db.write() as unit:
            return await unit.games.save_action(
                game.id,
                expected_version=1,
                state={"by": user_id},
                actions=NewAction(2, "play", user_id),
            )

    results = await asyncio.gather(click(HOST), click(ALICE), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["StaleVersion", "int"]
    winner = HOST if results[0] == 2 else ALICE
    async with db.read() as unit:
        assert (await unit.games.load(game.id)).state == {"by": winner}
        assert [a.actor_id for a in await unit.history.actions(game.id)] == [None, winner]


async def test_save_action_checks_its_arguments_and_the_status(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    async with db.write() as unit:
        with pytest.raises(ValueError):
            await unit.games.save_action(game.id, expected_version=1, state={}, actions=[])
        with pytest.raises(ValueError):
            await unit.games.save_action(
                game.id, expected_version=1, state={}, actions=NewAction(1, "noop")
            )
        with pytest.raises(GameNotFound):
            await unit.games.save_action(
                10_000, expected_version=1, state={}, actions=NewAction(2, "x")
            )
        assert await unit.games.abandon(game.id) is True
        with pytest.raises(WrongStatus):
            await unit.games.save_action(
                game.id, expected_version=1, state={}, actions=NewAction(2, "x")
            )


async def test_a_crash_inside_the_unit_of_work_leaves_nothing_half_written(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    with pytest.raises(RuntimeError):
        async with db.write() as unit:
            await unit.games.save_action(
                game.id, expected_version=1, state={"turn": 1}, actions=NewAction(2, "uno", HOST)
            )
            await unit.games.finish_round(game.id, 1, winner_id=HOST, points={HOST: 50})
            await unit.stats.add_counters(game.id, {HOST: {"cards_played": 7}})
            await unit.games.finish(game.id, winner_id=HOST)
            raise RuntimeError("the process died here")
    async with db.read() as unit:
        after = await unit.games.load(game.id)
        assert (after.version, after.state, after.game.status) == (1, {"turn": 0}, "running")
        assert [a.action for a in await unit.history.actions(game.id)] == ["start"]
        assert await unit.history.rounds(game.id) == []
        assert await unit.stats.player(GUILD, HOST) is None


async def test_turn_deadline_and_table_message(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    deadline = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    posted = datetime(2030, 1, 1, 11, 0, tzinfo=UTC)
    async with db.write() as unit:
        await unit.games.set_table_message(game.id, 987654321987654321, posted_at=posted)
        await unit.games.set_turn_deadline(game.id, deadline)
        await unit.games.save_action(
            game.id,
            expected_version=1,
            state={},
            actions=NewAction(2, "x"),
            turn_deadline=UNCHANGED,
        )
    async with db.read() as unit:
        record = await unit.games.get(game.id)
    assert record.table_message_id == 987654321987654321
    assert record.table_message_posted_at == posted
    assert record.turn_deadline == deadline
    later = deadline + timedelta(seconds=30)
    async with db.write() as unit:
        await unit.games.save_action(
            game.id, expected_version=2, state={}, actions=NewAction(3, "x"), turn_deadline=later
        )
        assert (await unit.games.get(game.id)).turn_deadline == later
        with pytest.raises(GameNotFound):
            await unit.games.set_turn_deadline(10_000, None)


async def test_a_wait_moves_the_deadline_alone_at_the_saved_version(db: Database) -> None:
    """A Wait between rounds stores a later deadline and nothing else: the state and version
    stay; a stale version or a game no longer running is refused with nothing written."""
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    later = datetime(2030, 1, 1, 12, 0, 30, tzinfo=UTC)
    async with db.write() as unit:
        await unit.games.move_deadline(game.id, expected_version=1, deadline=later)
    async with db.read() as unit:
        record = await unit.games.get(game.id)
        saved = await unit.games.load(game.id)
    assert record.turn_deadline == later and record.version == 1
    assert saved.state == {"turn": 0}
    with pytest.raises(StaleVersion):
        async with db.write() as unit:
            await unit.games.move_deadline(game.id, expected_version=0, deadline=None)
    async with db.read() as unit:
        assert (await unit.games.get(game.id)).turn_deadline == later
    async with db.write() as unit:
        await unit.games.abandon(game.id)
    with pytest.raises(WrongStatus):
        async with db.write() as unit:
            await unit.games.move_deadline(game.id, expected_version=1, deadline=None)


async def test_naive_datetimes_are_refused(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    with pytest.raises(Exception, match="naive datetime"):
        async with db.write() as unit:
            await unit.games.set_turn_deadline(game.id, datetime(2030, 1, 1))


async def test_running_games_for_resume(db: Database) -> None:
    # Real snowflakes: the shard is (guild_id >> 22) % shard_count.
    shard0_guild, shard1_guild = (4_000_000 << 22) | 77, (4_000_001 << 22) | 99
    first = await new_running_game(db, {1: "A", 2: "B"}, guild_id=shard0_guild, channel_id=1)
    second = await new_running_game(db, {1: "A", 2: "B"}, guild_id=shard1_guild, channel_id=2)
    ended = await new_running_game(db, {1: "A", 2: "B"}, channel_id=3)
    lobby = await open_lobby(db, channel_id=4)
    async with db.write() as unit:
        await unit.games.abandon(ended.id)
    async with db.read() as unit:
        running = await unit.games.running_games()
        shard1 = await unit.games.running_games(shard_ids=[1], shard_count=2)
        lobbies = await unit.games.lobbies()
    assert [(s.game.id, s.state) for s in running] == [
        (first.id, {"turn": 0}),
        (second.id, {"turn": 0}),
    ]
    assert [s.game.id for s in shard1] == [second.id]
    assert [g.id for g in lobbies] == [lobby.id]


async def test_recent_games_newest_first(db: Database) -> None:
    ids = []
    for channel in (1, 2, 1):
        game = await new_running_game(db, {1: "A", 2: "B"}, channel_id=channel)
        async with db.write() as unit:
            await unit.games.finish(game.id, winner_id=1)
        ids.append(game.id)
    await new_running_game(db, {1: "A", 2: "B"}, channel_id=1)  # still running: not history
    async with db.read() as unit:
        in_guild = await unit.history.recent_games(GUILD)
        in_channel = await unit.history.recent_games(GUILD, channel_id=1, limit=1)
        elsewhere = await unit.history.recent_games(GUILD + 1)
    assert [g.id for g in in_guild] == ids[::-1]
    assert [g.id for g in in_channel] == [ids[2]]
    assert in_guild[0].winner_id == 1 and in_guild[0].finished_at is not None
    assert elsewhere == []


async def test_abandon(db: Database) -> None:
    game = await new_running_game(db, {HOST: "Host", ALICE: "Alice"})
    async with db.write() as unit:
        assert await unit.games.abandon(game.id) is True
        assert await unit.games.abandon(game.id) is False
        with pytest.raises(WrongStatus):
            await unit.games.finish(game.id, winner_id=None)
        with pytest.raises(GameNotFound):
            await unit.games.abandon(10_000)
    async with db.read() as unit:
        record = await unit.games.get(game.id)
        assert record.status is GameStatus.ABANDONED and not record.is_open
        assert await unit.stats.player(GUILD, HOST) is None


async def test_the_moves_of_a_record_name_whom_each_action_was_played_for(db: Database) -> None:
    """`history.moves` (what a record is built from) reads the player the database's JSON
    names (the timer plays for an absent one: no actor), else the actor, without "start"."""
    snowflake = 1_578_506_298_910_048_257  # (past 32 bits: a real member's id)
    game = await new_running_game(db, {HOST: "Host", snowflake: "Ann"})
    async with db.write() as unit:
        await unit.games.save_action(
            game.id,
            expected_version=game.version,
            state={"deck": [3]},
            actions=[
                NewAction(
                    game.version + 1, "draw", actor_id=snowflake, detail={"player": snowflake}
                ),
                NewAction(game.version + 2, "pass", actor_id=None, detail={"player": HOST}),
                NewAction(game.version + 3, "next", actor_id=HOST),
            ],
        )
    async with db.read() as unit:
        moves = await unit.history.moves(game.id)
        first = await unit.history.first_state(game.id)
    assert moves == [(snowflake, "draw"), (HOST, "pass"), (HOST, "next")]
    assert first is not None


@pytest.mark.parametrize("game_id", [0, -1, 2**31, 2**63, int("9" * 20)])
async def test_an_id_no_row_can_have_is_not_found(db: Database, game_id: int) -> None:
    """Past `games.id`'s INTEGER (32-bit on PostgreSQL), past 64 bits (SQLite's driver raises
    OverflowError): a forged id is a game that does not exist, not a database error."""
    async with db.read() as unit:
        with pytest.raises(GameNotFound):
            await unit.games.get(game_id)
        with pytest.raises(GameNotFound):
            await unit.games.load(game_id)
