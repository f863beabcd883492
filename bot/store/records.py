"""Plain frozen values the repositories return and take, so no caller ever touches a live ORM row.

A record stays valid after its transaction ends (nothing lazy-loads behind the caller's back) and
can be passed between tasks freely.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, TypeGuard, get_args

from bot.engine.game_kinds import CLASSIC
from bot.engine.rules import RuleSet
from bot.store.models import OPEN_STATUSES, Game, GameStatus, Seat, StartPolicy

LeaderboardSort = Literal["points", "wins", "win_rate"]


def is_leaderboard_sort(sort: str) -> TypeGuard[LeaderboardSort]:
    """Whether the totals leaderboard can be sorted by `sort`."""
    return sort in get_args(LeaderboardSort)


OFFICIAL_RULES = RuleSet()

#: Bounds of a server's turn timeout, in seconds.
TURN_TIMEOUT_RANGE = (10, 24 * 3600)
#: Bounds of a server's turn ping delay, in seconds (0: as the turn starts).
TURN_PING_RANGE = (0, 600)
#: The default delay: a player who is looking plays before it, one who is away gets one ping.
TURN_PING_DEFAULT = 10
#: Seconds between a round's end and the next round starting by itself (`round_break`): short,
#: so a table is not idle, and long enough to read the results; a server may lengthen it.
ROUND_BREAK_RANGE = (10, 300)
ROUND_BREAK_DEFAULT = 15


@dataclass(frozen=True, slots=True)
class SeatRecord:
    user_id: int
    display_name: str
    seat_order: int
    is_bot: bool
    bot_level: str | None
    joined_at: datetime
    left_at: datetime | None = None
    timeouts: int = 0  # turns in a row lost to the turn timer


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: GameStatus
    rules_data: Mapping[str, Any]
    version: int
    winner_id: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    table_message_id: int | None
    table_message_posted_at: datetime | None
    turn_deadline: datetime | None
    seats: tuple[SeatRecord, ...] = ()
    rated: bool = True  # counts for the leaderboard (docs/playing.md, "What counts")
    game: str = CLASSIC  # which game (bot/engine/game_kinds.py), derived from its rules

    @property
    def rules(self) -> RuleSet:
        """The game's rules, validated now (raises InvalidRules) so one bad row fails alone."""
        return RuleSet.from_dict(dict(self.rules_data))

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    def seat_of(self, user_id: int) -> SeatRecord | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game with the engine snapshot to rebuild it from (`Game.from_dict(saved.state)`)."""

    game: GameRecord
    state: dict[str, Any]

    @property
    def version(self) -> int:
        return self.game.version


@dataclass(frozen=True, slots=True)
class NewAction:
    """One applied engine action to log; `version` is the game's version right after it."""

    version: int
    action: str
    actor_id: int | None = None  # None: the bot itself (a timer, a forced move)
    detail: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class ActionRecord:
    game_id: int
    version: int
    action: str
    actor_id: int | None
    detail: Mapping[str, Any] | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class RoundRecord:
    game_id: int
    round_number: int
    winner_id: int | None
    points: Mapping[int, int]
    ended_at: datetime
    commitment: str | None = None  # SHA-256 of the round's seed (hex)
    seed: str | None = None  # the round's seed (hex), revealed at its end


@dataclass(frozen=True, slots=True)
class PlayerStats:
    guild_id: int
    user_id: int
    display_name: str
    points: int = 0
    rounds_played: int = 0
    rounds_won: int = 0
    games_played: int = 0
    games_won: int = 0
    cards_played: int = 0
    uno_calls: int = 0
    catches: int = 0
    challenges_won: int = 0
    challenges_lost: int = 0
    rank: int | None = None  # 1-based place on the leaderboard it came from
    game: str = CLASSIC  # the game these totals are of (bot/engine/game_kinds.py)

    @property
    def win_rate(self) -> float:
        return self.games_won / self.games_played if self.games_played else 0.0


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    sort: LeaderboardSort
    page: int  # 1-based
    per_page: int
    total: int  # players on the whole leaderboard
    entries: tuple[PlayerStats, ...] = field(default_factory=tuple)
    game: str = CLASSIC

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


@dataclass(frozen=True, slots=True)
class GuildConfig:
    """A server's settings; every field has the default a new server gets."""

    guild_id: int
    rules: RuleSet = OFFICIAL_RULES
    turn_timeout_seconds: int = 60  # 0: no turn timer
    language: str = "auto"  # "auto": the server's own Discord language
    # Members with this role (or Manage Server) may manage any game; None: Manage Server only.
    manager_role_id: int | None = None
    start_policy: StartPolicy = StartPolicy.HOST
    # Seconds after a turn starts until its player is pinged (0: at once); None: never.
    turn_ping_seconds: int | None = TURN_PING_DEFAULT
    # Card pictures and card emojis; False: text only (slow connections, screen readers).
    card_images: bool = True
    # Rating seasons: "off", "monthly" or "quarterly" (bot/store/ratings.py); where a season's
    # champion is announced (None: the channel of the season's last counted match).
    season_length: str = "off"
    season_channel_id: int | None = None
    # Seconds from a round's end until the next starts by itself (Wait adds to it).
    round_break_seconds: int = ROUND_BREAK_DEFAULT

    def __post_init__(self) -> None:
        if self.season_length not in ("off", "monthly", "quarterly"):
            raise ValueError("season_length must be off, monthly or quarterly")
        low, high = TURN_TIMEOUT_RANGE
        if self.turn_timeout_seconds != 0 and not low <= self.turn_timeout_seconds <= high:
            raise ValueError(f"turn_timeout_seconds must be 0 (off) or from {low} to {high}")
        low, high = TURN_PING_RANGE
        if self.turn_ping_seconds is not None and not low <= self.turn_ping_seconds <= high:
            raise ValueError(f"turn_ping_seconds must be None (off) or from {low} to {high}")
        low, high = ROUND_BREAK_RANGE
        if not low <= self.round_break_seconds <= high:
            raise ValueError(f"round_break_seconds must be from {low} to {high}")
        if not 0 < len(self.language) <= 16:
            raise ValueError("language must be 'auto' or a locale code such as 'en' or 'pt-BR'")
        object.__setattr__(self, "start_policy", StartPolicy(self.start_policy))


def seat_record(seat: Seat) -> SeatRecord:
    """The frozen value of an ORM seat."""
    return SeatRecord(
        user_id=seat.user_id,
        display_name=seat.display_name,
        seat_order=seat.seat_order,
        is_bot=seat.is_bot,
        bot_level=seat.bot_level,
        joined_at=seat.joined_at,
        left_at=seat.left_at,
        timeouts=seat.timeouts or 0,
    )


def game_record(game: Game) -> GameRecord:
    """The frozen value of an ORM game (its seats must be loaded)."""
    return GameRecord(
        id=game.id,
        guild_id=game.guild_id,
        channel_id=game.channel_id,
        host_id=game.host_id,
        status=game.status,
        rules_data=game.rules,
        version=game.version,
        winner_id=game.winner_id,
        created_at=game.created_at,
        started_at=game.started_at,
        finished_at=game.finished_at,
        table_message_id=game.table_message_id,
        table_message_posted_at=game.table_message_posted_at,
        turn_deadline=game.turn_deadline,
        seats=tuple(seat_record(seat) for seat in sorted(game.seats, key=lambda s: s.seat_order)),
        rated=game.rated,
        game=game.kind,
    )
