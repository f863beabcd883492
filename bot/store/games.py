"""The life of a channel game in the database: lobby, seats, start, versioned saves, rounds, end.

Each method runs inside the caller's unit of work (`Database.write()`); several calls in one unit
commit together. Saves are optimistic: `UPDATE ... WHERE version = :expected`, so of two clicks on
the same state exactly one is written. Round scores are unique per (game, round number), so a round
is added to the totals exactly once however often, or however concurrently, it is reported.

Longer than our usual 400 lines on purpose: it is the one repository of the `games`, `seats`,
`game_actions` and `rounds` tables, whose writes check each other (a seat's leave and the game's
rating, a round and the game's status); split, those checks would be spread over files.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime
from enum import Enum
from itertools import pairwise
from typing import Any, Final

from sqlalchemy import bindparam, delete, exists, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload, undefer

from bot.engine.game_kinds import game_of
from bot.engine.rules import RuleSet
from bot.engine.seeds import commitment
from bot.store.dml import rowcount
from bot.store.errors import (
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    NotSeated,
    StaleVersion,
    TableFull,
    WrongStatus,
)
from bot.store.match_rating import rate_ended_match
from bot.store.models import (
    MAX_GAME_ID,
    OPEN_STATUSES,
    Game,
    GameAction,
    GameStatus,
    Round,
    Seat,
    utcnow,
)
from bot.store.records import GameRecord, NewAction, SavedGame, SeatRecord, game_record, seat_record
from bot.store.roster import load_roster
from bot.store.stats import add_to_totals
from bot.store.upsert import PerDialect


class _Unchanged(Enum):
    UNCHANGED = "unchanged"


#: Default of optional arguments meaning "leave this column as it is" (None would clear it).
UNCHANGED: Final = _Unchanged.UNCHANGED

_NO_SYNC = {"synchronize_session": False}

# The hot path of every click, built once: plain Core statements, no ORM bookkeeping.
_GAMES = Game.__table__
_SAVE_STATE = (
    update(_GAMES)
    .where(
        _GAMES.c.id == bindparam("game"),
        _GAMES.c.version == bindparam("expected"),
        _GAMES.c.status == GameStatus.RUNNING,
    )
    .values(
        state=bindparam("new_state", type_=_GAMES.c.state.type),
        version=bindparam("new_version"),
    )
)
_SAVE_STATE_AND_DEADLINE = _SAVE_STATE.values(
    turn_deadline=bindparam("new_deadline", type_=_GAMES.c.turn_deadline.type)
)
#: A change of the turn's deadline alone (a Wait in a round's break), checked like a save.
_SAVE_DEADLINE = (
    update(_GAMES)
    .where(
        _GAMES.c.id == bindparam("game"),
        _GAMES.c.version == bindparam("expected"),
        _GAMES.c.status == GameStatus.RUNNING,
    )
    .values(turn_deadline=bindparam("new_deadline", type_=_GAMES.c.turn_deadline.type))
)
_LOG_ACTION = insert(GameAction.__table__)
_SEATS = Seat.__table__
_SET_TIMEOUTS = (
    update(_SEATS)
    .where(_SEATS.c.game_id == bindparam("game"), _SEATS.c.user_id == bindparam("user"))
    .values(timeouts=bindparam("count"))
)
#: What a refused versioned save is checked against (see `refusal`).
_STATUS_AND_VERSION = select(_GAMES.c.status, _GAMES.c.version).where(
    _GAMES.c.id == bindparam("game")
)
_CLEAR_PING = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game"), _GAMES.c.ping_message_id == bindparam("message"))
    .values(ping_message_id=None)
)
# A round is recorded by whoever inserts it first; the others see rowcount 0 (no savepoint).
_RECORD_ROUND = PerDialect(
    lambda insert: insert(Round.__table__).on_conflict_do_nothing(
        index_elements=["game_id", "round_number"]
    )
)
_FINISH = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game"))
    .values(
        status=GameStatus.FINISHED,
        finished_at=bindparam("finished_at", type_=_GAMES.c.finished_at.type),
        winner_id=bindparam("winner_id"),
        rated=bindparam("rated"),
        turn_deadline=None,
    )
)


def refusal(
    game_id: int, expected_version: int, row: Sequence[Any] | None
) -> GameNotFound | WrongStatus | StaleVersion:
    """Why a versioned save changed no row, from the game's (status, version) row or None."""
    if row is None:
        return GameNotFound(game_id)
    status, version = GameStatus(row[0]), row[1]
    if status is not GameStatus.RUNNING:
        return WrongStatus(game_id, status.value, ("running",))
    return StaleVersion(game_id, expected_version, version)


def _people_seated(game: Game) -> list[int]:
    """People (not computers) still at the table of an ORM game."""
    return [s.user_id for s in game.seats if not s.is_bot and s.left_at is None]


def _require(game: Game, *allowed: GameStatus) -> None:
    if game.status not in allowed:
        raise WrongStatus(game.id, game.status.value, tuple(status.value for status in allowed))


class GameRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    # -- reading ---------------------------------------------------------------------------

    async def _game(self, game_id: int, *, lock: bool = False, with_state: bool = False) -> Game:
        """The game with its seats, fresh from the database (row-locked on PostgreSQL if asked).
        An id no row can have (past MAX_GAME_ID, or below 1) is not looked up: not found."""
        if not 1 <= game_id <= MAX_GAME_ID:
            raise GameNotFound(game_id)
        stmt = select(Game).where(Game.id == game_id).options(selectinload(Game.seats))
        if with_state:
            stmt = stmt.options(undefer(Game.state))
        if lock:
            stmt = stmt.with_for_update()
        game = await self._session.scalar(stmt.execution_options(populate_existing=True))
        if game is None:
            raise GameNotFound(game_id)
        return game

    async def get(self, game_id: int) -> GameRecord:
        return game_record(await self._game(game_id))

    async def open_game_in(self, channel_id: int) -> GameRecord | None:
        """The channel's lobby or running game, if it has one."""
        game = await self._session.scalar(
            select(Game)
            .where(Game.channel_id == channel_id, Game.status.in_(OPEN_STATUSES))
            .options(selectinload(Game.seats))
            .execution_options(populate_existing=True)
        )
        return None if game is None else game_record(game)

    async def load(self, game_id: int) -> SavedGame:
        """The game and its engine snapshot; WrongStatus if it never started."""
        game = await self._game(game_id, with_state=True)
        if game.state is None:
            raise WrongStatus(game_id, game.status.value, ("running", "finished", "abandoned"))
        return SavedGame(game_record(game), game.state)

    async def running_games(
        self, *, shard_ids: Collection[int] | None = None, shard_count: int = 1
    ) -> list[SavedGame]:
        """Every running game with its snapshot, to resume at start-up.

        With shard_ids, only the games of guilds those shards own ((guild_id >> 22) % count).
        """
        stmt = (
            select(Game)
            .where(Game.status == GameStatus.RUNNING)
            .options(selectinload(Game.seats), undefer(Game.state))
            .order_by(Game.id)
            .execution_options(populate_existing=True)
        )
        if shard_ids is not None:
            shard = (Game.guild_id // (1 << 22)) % shard_count  # == (guild_id >> 22) % count
            stmt = stmt.where(shard.in_(list(shard_ids)))
        games = await self._session.scalars(stmt)
        return [SavedGame(game_record(game), game.state or {}) for game in games]

    async def lobbies(self) -> list[GameRecord]:
        """Every open lobby, to re-attach their join buttons at start-up."""
        games = await self._session.scalars(
            select(Game)
            .where(Game.status == GameStatus.LOBBY)
            .options(selectinload(Game.seats))
            .order_by(Game.id)
            .execution_options(populate_existing=True)
        )
        return [game_record(game) for game in games]

    # -- the lobby -------------------------------------------------------------------------

    async def open_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: RuleSet,
        seat_host: bool = True,
    ) -> GameRecord:
        """A new lobby in the channel (the host seated first). ChannelBusy if one is open."""
        existing = await self.open_game_in(channel_id)
        if existing is not None:
            raise ChannelBusy(channel_id, existing.id)
        now = utcnow()
        game = Game(
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status=GameStatus.LOBBY,
            rules=rules.to_dict(),
            kind=game_of(rules),
            version=0,
            created_at=now,
        )
        if seat_host:
            game.seats.append(
                Seat(
                    user_id=host_id,
                    display_name=host_name,
                    seat_order=0,
                    is_bot=False,
                    joined_at=now,
                )
            )
        try:
            # A savepoint: losing the race to the unique index must not spoil the caller's work.
            async with self._session.begin_nested():
                self._session.add(game)
        except IntegrityError:
            winner = await self.open_game_in(channel_id)
            raise ChannelBusy(channel_id, None if winner is None else winner.id) from None
        return await self.get(game.id)

    async def set_rules(self, game_id: int, rules: RuleSet) -> None:
        await self.update_rules(game_id, lambda _: rules)

    async def update_rules(self, game_id: int, change: Callable[[RuleSet], RuleSet]) -> RuleSet:
        """Change a lobby's rules atomically: `change` gets the stored rules, read with the game
        row locked, and what it returns is stored in this unit (an exception stores nothing)."""
        game = await self._game(game_id, lock=True)
        _require(game, GameStatus.LOBBY)
        rules = change(RuleSet.from_dict(dict(game.rules)))
        game.rules = rules.to_dict()
        game.kind = game_of(rules)
        await self._session.flush()
        return rules

    async def seat(
        self,
        game_id: int,
        user_id: int,
        display_name: str,
        *,
        is_bot: bool = False,
        bot_level: str | None = None,
        max_seats: int | None = None,
    ) -> SeatRecord:
        """Seat a player (or a computer player, is_bot=True) at the end of the lobby's table."""
        game = await self._game(game_id, lock=True)
        _require(game, GameStatus.LOBBY)
        if any(seat.user_id == user_id for seat in game.seats):
            raise AlreadySeated(game_id, user_id)
        if max_seats is not None and len(game.seats) >= max_seats:
            raise TableFull(game_id, max_seats)
        seat = Seat(
            game_id=game_id,
            user_id=user_id,
            display_name=display_name[:100],
            seat_order=max((s.seat_order for s in game.seats), default=-1) + 1,
            is_bot=is_bot,
            bot_level=bot_level,
            joined_at=utcnow(),
        )
        try:
            async with self._session.begin_nested():
                self._session.add(seat)
        except IntegrityError:
            # Only a concurrent writer on a backend without row locks can get here.
            raise AlreadySeated(game_id, user_id) from None
        return seat_record(seat)

    async def unseat(self, game_id: int, user_id: int, *, kicked: bool = False) -> None:
        """A lobby forgets the seat (later seats move up); a running game marks it as left.

        Leaving a running match counts for the leaver as a match played and lost, unless the
        host kicked them; a kick that leaves fewer than two people makes the match unrated
        (docs/playing.md, "What counts").
        """
        game = await self._game(game_id, lock=True)
        _require(game, *OPEN_STATUSES)
        seat = next((s for s in game.seats if s.user_id == user_id), None)
        if seat is None or seat.left_at is not None:
            raise NotSeated(game_id, user_id)
        if game.status is GameStatus.RUNNING:
            now = utcnow()
            seat.left_at = now
            seat.kicked = kicked
            if game.rated and not seat.is_bot:
                if not kicked:
                    loss = {user_id: (seat.display_name, {"games_played": 1})}
                    await add_to_totals(self._session, game.guild_id, game.kind, loss, now)
                elif len(_people_seated(game)) < 2:
                    game.rated = False
            await self._session.flush()
            return
        later = sorted(
            (s for s in game.seats if s.seat_order > seat.seat_order), key=lambda s: s.seat_order
        )
        await self._session.execute(
            delete(Seat).where(Seat.game_id == game_id, Seat.user_id == user_id),
            execution_options=_NO_SYNC,
        )
        # One row at a time, in seat order, so (game_id, seat_order) stays unique at every step.
        for other in later:
            await self._session.execute(
                update(Seat)
                .where(Seat.game_id == game_id, Seat.user_id == other.user_id)
                .values(seat_order=other.seat_order - 1),
                execution_options=_NO_SYNC,
            )
        self._session.expire(game)

    # -- playing ---------------------------------------------------------------------------

    async def start(
        self,
        game_id: int,
        *,
        state: Mapping[str, Any],
        version: int,
        actor_id: int | None = None,
        turn_deadline: datetime | None = None,
    ) -> GameRecord:
        """Lobby -> running with the engine's first snapshot (logged as the "start" action)."""
        game = await self._game(game_id, lock=True)
        _require(game, GameStatus.LOBBY)
        now = utcnow()
        game.status = GameStatus.RUNNING
        game.started_at = now
        game.state = dict(state)
        game.version = version
        game.turn_deadline = turn_deadline
        if "rules" in state:  # the rules the deal was made with: the match's game
            game.kind = game_of(RuleSet.from_dict(dict(state["rules"])))
        # A match of one person against computers is practice (docs/playing.md, "What counts").
        game.rated = len(_people_seated(game)) >= 2
        self._session.add(
            GameAction(
                game_id=game_id,
                version=version,
                actor_id=actor_id,
                action="start",
                detail={"state": dict(state)},
                created_at=now,
            )
        )
        await self._session.flush()
        return game_record(game)

    async def save_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        state: Mapping[str, Any],
        actions: NewAction | Sequence[NewAction],
        turn_deadline: datetime | _Unchanged | None = UNCHANGED,
    ) -> int:
        """Store the snapshot after `actions` if the game is still at `expected_version`.

        Returns the new version (the last action's). Raises StaleVersion when another writer
        saved first and WrongStatus when the game is no longer running; nothing is written then.
        """
        batch = (actions,) if isinstance(actions, NewAction) else tuple(actions)
        if not batch:
            raise ValueError("save_action needs at least one action")
        versions = [expected_version, *(action.version for action in batch)]
        if any(later <= earlier for earlier, later in pairwise(versions)):
            raise ValueError(f"action versions must increase from {expected_version}: {versions}")
        now = utcnow()
        params: dict[str, Any] = {
            "game": game_id,
            "expected": expected_version,
            "new_state": dict(state),
            "new_version": versions[-1],
        }
        statement = _SAVE_STATE
        if turn_deadline is not UNCHANGED:
            statement = _SAVE_STATE_AND_DEADLINE
            params["new_deadline"] = turn_deadline
        result = await self._session.execute(statement, params)
        if rowcount(result) != 1:
            await self._why_not_saved(game_id, expected_version)
        rows = [
            {
                "game_id": game_id,
                "version": action.version,
                "actor_id": action.actor_id,
                "action": action.action,
                "detail": None if action.detail is None else dict(action.detail),
                "created_at": now,
            }
            for action in batch
        ]
        await self._session.execute(_LOG_ACTION, rows[0] if len(rows) == 1 else rows)
        return versions[-1]

    async def _why_not_saved(self, game_id: int, expected_version: int) -> None:
        row = (await self._session.execute(_STATUS_AND_VERSION, {"game": game_id})).one_or_none()
        raise refusal(game_id, expected_version, row)

    async def move_deadline(
        self, game_id: int, *, expected_version: int, deadline: datetime | None
    ) -> None:
        """Store a new turn deadline alone (the state unchanged: a Wait between two rounds) if
        the game is still running at `expected_version`; StaleVersion or WrongStatus otherwise,
        with nothing written."""
        params = {"game": game_id, "expected": expected_version, "new_deadline": deadline}
        result = await self._session.execute(_SAVE_DEADLINE, params)
        if rowcount(result) != 1:
            await self._why_not_saved(game_id, expected_version)

    async def set_turn_deadline(self, game_id: int, deadline: datetime | None) -> None:
        await self._update(game_id, turn_deadline=deadline)

    async def set_timeouts(self, game_id: int, counts: Mapping[int, int]) -> None:
        """Store how many turns in a row each of these players lost to the turn timer."""
        rows = [{"game": game_id, "user": user, "count": n} for user, n in sorted(counts.items())]
        if rows:
            await self._session.execute(_SET_TIMEOUTS, rows, execution_options=_NO_SYNC)

    async def set_table_message(
        self, game_id: int, message_id: int | None, *, posted_at: datetime | None = None
    ) -> None:
        """Remember the public table message (posted_at defaults to now)."""
        posted = None if message_id is None else (posted_at or utcnow())
        await self._update(game_id, table_message_id=message_id, table_message_posted_at=posted)

    # -- turn pings ------------------------------------------------------------------------

    async def set_ping_message(self, game_id: int, message_id: int) -> None:
        """Remember the turn ping just posted for this game."""
        await self._update(game_id, ping_message_id=message_id)

    async def clear_ping_messages(self, pings: Collection[tuple[int, int]]) -> None:
        """Forget these (game, message) pings, each only if it is still the one remembered."""
        rows = [{"game": game, "message": message} for game, message in pings]
        if rows:
            await self._session.execute(_CLEAR_PING, rows, execution_options=_NO_SYNC)

    async def ping_messages(
        self, *, shard_ids: Collection[int] | None = None, shard_count: int = 1
    ) -> list[tuple[int, int, int]]:
        """(game, channel, message) of every remembered turn ping (of these shards' guilds)."""
        stmt = (
            select(_GAMES.c.id, _GAMES.c.channel_id, _GAMES.c.ping_message_id)
            .where(_GAMES.c.ping_message_id.is_not(None))
            .order_by(_GAMES.c.id)
        )
        if shard_ids is not None:
            shard = (_GAMES.c.guild_id // (1 << 22)) % shard_count
            stmt = stmt.where(shard.in_(list(shard_ids)))
        return [(g, c, m) for g, c, m in await self._session.execute(stmt)]

    async def _update(self, game_id: int, **values: Any) -> None:
        result = await self._session.execute(
            update(Game).where(Game.id == game_id).values(**values), execution_options=_NO_SYNC
        )
        if rowcount(result) != 1:
            raise GameNotFound(game_id)

    # -- scoring and the end ---------------------------------------------------------------

    async def finish_round(
        self,
        game_id: int,
        round_number: int,
        *,
        winner_id: int | None,
        points: Mapping[int, int],
        ended_at: datetime | None = None,
        seed: str | None = None,
    ) -> bool:
        """Record a round and add it to the totals. False (and nothing added) if already recorded.

        `seed` is the round's seed (hex), revealed now that it is over; its commitment (SHA-256)
        is kept beside it.

        `points` maps each player to the points they scored this round. Every seated human
        still at the table gets a round played; the winner, if human, a round won. A round
        without a winner (abandoned: too few players left) or of an unrated match is recorded
        but counts for nobody.
        """
        roster = await load_roster(self._session, game_id, lock=True)
        claimed = [*points, *([winner_id] if winner_id is not None else [])]
        unseated = [user for user in claimed if user not in roster.seats]
        if roster.status is not GameStatus.RUNNING or unseated:
            # A round reported again is acknowledged even once the game has ended.
            if await self._round_exists(game_id, round_number):
                return False
            if roster.status is not GameStatus.RUNNING:
                raise WrongStatus(game_id, roster.status.value, ("running",))
            raise NotSeated(game_id, unseated[0])
        ended_at = ended_at or utcnow()
        recorded = await self._session.execute(
            _RECORD_ROUND.for_session(self._session),
            {
                "game_id": game_id,
                "round_number": round_number,
                "winner_id": winner_id,
                "points": {str(user): int(p) for user, p in points.items()},
                "ended_at": ended_at,
                "commitment": commitment(bytes.fromhex(seed)) if seed else None,
                "seed": seed or None,
            },
        )
        if rowcount(recorded) != 1:
            return False  # recorded before, or by a concurrent finisher
        if not roster.rated or winner_id is None:
            return True  # recorded for the history; unrated or abandoned: counted for nobody
        changes: dict[int, tuple[str, Mapping[str, int]]] = {}
        for seat in roster.seats.values():
            if seat.is_bot:
                continue
            increments = {"points": int(points.get(seat.user_id, 0))}
            if seat.left_at is None:
                increments["rounds_played"] = 1
            if seat.user_id == winner_id:
                increments["rounds_won"] = 1
            changes[seat.user_id] = (seat.display_name, increments)
        await add_to_totals(self._session, roster.guild_id, roster.game, changes, ended_at)
        return True

    async def _round_exists(self, game_id: int, round_number: int) -> bool:
        return bool(
            await self._session.scalar(
                select(exists().where(Round.game_id == game_id, Round.round_number == round_number))
            )
        )

    async def finish(
        self,
        game_id: int,
        *,
        winner_id: int | None,
        walkover: bool = False,
        places: Mapping[int, int] | None = None,
    ) -> bool:
        """Running -> finished; every human still seated gets a game played, the winner a win,
        and the match is rated (match_rating.py) from the finishing `places` (1: the winner;
        ties share a place; default: the winner first, everybody else second), its leavers
        below everyone still seated.

        Nothing is counted on the points board for an unrated match, nor for a `walkover`
        (everybody else left or timed out) before any round was finished by play: the match
        then becomes unrated there (its leavers are still rated as having lost, once someone
        moved). False (and nothing counted) if the game was already finished.
        """
        roster = await load_roster(self._session, game_id, lock=True)
        if roster.status is GameStatus.FINISHED:
            return False
        if roster.status is not GameStatus.RUNNING:
            raise WrongStatus(game_id, roster.status.value, ("running",))
        if winner_id is not None and winner_id not in roster.seats:
            raise NotSeated(game_id, winner_id)
        rated = roster.rated and not (walkover and not await self._round_won_by_play(game_id))
        now = utcnow()
        await self._session.execute(
            _FINISH, {"game": game_id, "finished_at": now, "winner_id": winner_id, "rated": rated}
        )
        if rated:
            changes: dict[int, tuple[str, Mapping[str, int]]] = {
                seat.user_id: (
                    seat.display_name,
                    {"games_played": 1, "games_won": int(seat.user_id == winner_id)},
                )
                for seat in roster.seats.values()
                if not seat.is_bot and seat.left_at is None
            }
            await add_to_totals(self._session, roster.guild_id, roster.game, changes, now)
        if places is None:
            places = {user: 1 if user == winner_id else 2 for user in roster.seats}
        # (rated even after an early walkover: the leaver lost; match_rating.py says when)
        await rate_ended_match(self._session, roster, places, now)
        return True

    async def _round_won_by_play(self, game_id: int) -> bool:
        """Whether a round of the game was won (an abandoned round has no winner)."""
        return bool(
            await self._session.scalar(
                select(exists().where(Round.game_id == game_id, Round.winner_id.is_not(None)))
            )
        )

    async def abandon(self, game_id: int, *, ended_by: int | None = None) -> bool:
        """Lobby or running -> abandoned (nothing is counted on the points board). False if it
        had already ended. A running match is rated (match_rating.py): its leavers lost, and
        so did `ended_by`, who ended it with `/uno end`, if they were playing."""
        roster = await load_roster(self._session, game_id, lock=True)
        result = await self._session.execute(
            update(Game)
            .where(Game.id == game_id, Game.status.in_(OPEN_STATUSES))
            .values(status=GameStatus.ABANDONED, finished_at=utcnow(), turn_deadline=None),
            execution_options=_NO_SYNC,
        )
        if rowcount(result) == 1:
            if roster.status is GameStatus.RUNNING:
                await rate_ended_match(self._session, roster, {}, utcnow(), ender=ended_by)
            return True
        found = await self._session.scalar(select(func.count()).where(Game.id == game_id))
        if not found:
            raise GameNotFound(game_id)
        return False
