"""The database schema as SQLAlchemy 2 typed models; Alembic's migrations must match it exactly.

Snowflakes are 64-bit (BigInteger), timestamps are timezone-aware UTC, engine snapshots and rule
sets are plain JSON. Constraint names follow one naming convention so SQLite batch migrations and
PostgreSQL agree on them.
"""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Enum,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

from bot.engine.game_kinds import CLASSIC

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp that is always timezone-aware UTC in Python, whatever the backend stores.

    SQLite has no time zones and hands back naive values; PostgreSQL stores timestamptz.
    Naive datetimes are refused on the way in: they are a bug waiting for a DST change.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: pass an aware one (UTC)")
        value = value.astimezone(UTC)
        # SQLite would store the offset as text and then compare strings: store naive UTC.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class GameStatus(enum.StrEnum):
    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    ABANDONED = "abandoned"


OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.RUNNING)


class StartPolicy(enum.StrEnum):
    HOST = "host"
    ANYONE = "anyone"


def _values(enum_class: type[enum.Enum]) -> list[str]:
    return [member.value for member in enum_class]


#: Counters a caller may add to directly (the rest are derived from rounds and games).
COUNTERS = ("cards_played", "uno_calls", "catches", "challenges_won", "challenges_lost")


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {  # noqa: RUF012 - SQLAlchemy reads it as a class attribute
        datetime: UTCDateTime(),
        dict[str, Any]: JSON(),
    }
    if TYPE_CHECKING:
        # Every model here maps one Table (DeclarativeBase says FromClause, which also covers
        # joins): the store's Core statements update and insert into it.
        __table__: ClassVar[Table]


class GuildSettings(Base):
    """One server's preferences; a missing row means every default."""

    __tablename__ = "guild_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    rules: Mapped[dict[str, Any] | None]
    turn_timeout_seconds: Mapped[int] = mapped_column(Integer)
    language: Mapped[str] = mapped_column(String(16))
    manager_role_id: Mapped[int | None] = mapped_column(BigInteger)
    start_policy: Mapped[StartPolicy] = mapped_column(
        Enum(
            StartPolicy,
            name="start_policy",
            native_enum=False,
            create_constraint=True,
            length=16,
            values_callable=_values,
        )
    )
    # NULL: no turn pings. Servers stored before the setting existed get the default delay.
    turn_ping_seconds: Mapped[int | None] = mapped_column(Integer, server_default="10")
    # False: text only (no card pictures, no card emojis). Servers stored before: on.
    card_images: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # Seasons of the rating leaderboard: "off", "monthly" or "quarterly" (bot/store/ratings.py),
    # and where a season's champion is announced (None: the channel of its last counted match).
    season_length: Mapped[str] = mapped_column(String(16), default="off", server_default="off")
    season_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    # Seconds from a round's end until the next starts by itself (cogs/uno/game/clock.py);
    # servers stored before the setting existed get records.ROUND_BREAK_DEFAULT.
    round_break_seconds: Mapped[int] = mapped_column(Integer, default=15, server_default="15")
    updated_at: Mapped[datetime]


class BotState(Base):
    """Small global key/value facts, e.g. the hash of the last global command sync."""

    __tablename__ = "bot_state"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime]


#: The largest id a game can have: `games.id` is an INTEGER, 32-bit signed on PostgreSQL. A
#: larger one (a forged custom_id or command option) names no game; sent to the database it
#: would fail (SQLite's driver raises OverflowError past 64 bits, PostgreSQL refuses past 32).
MAX_GAME_ID = 2**31 - 1


class Game(Base):
    """A game in one channel, from lobby to its end, with the engine's live snapshot."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    host_id: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[GameStatus] = mapped_column(
        Enum(
            GameStatus,
            name="game_status",
            native_enum=False,
            create_constraint=True,
            length=16,
            values_callable=_values,
        )
    )
    rules: Mapped[dict[str, Any]]
    # The engine's to_dict() and its version; written only by a version-checked UPDATE.
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON, deferred=True)
    version: Mapped[int] = mapped_column(Integer)
    winner_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime]
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]
    table_message_id: Mapped[int | None] = mapped_column(BigInteger)
    table_message_posted_at: Mapped[datetime | None]
    turn_deadline: Mapped[datetime | None]
    # The turn ping shown in the channel now (cogs/uno/game/pings.py), so that the next process can
    # delete one a restart left behind; written when a ping is posted or deleted, not per move.
    ping_message_id: Mapped[int | None] = mapped_column(BigInteger)
    # Whether the match counts for the leaderboard (docs/playing.md, "What counts"): set at start
    # (two or more people), cleared when the host kicks it down to one person or a walkover is too
    # early.
    rated: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # Which game the match is (bot/engine/game_kinds.py), derived from its rules whenever they
    # are written: its totals and ratings are that game's ("game" elsewhere; "kind" here, as
    # the games table's statements bind the game's id as "game"). Matches stored before: classic.
    kind: Mapped[str] = mapped_column(String(16), default=CLASSIC, server_default=CLASSIC)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.seat_order", cascade="all, delete-orphan"
    )

    __table_args__ = (
        # One open game per channel, enforced by the database on both backends.
        Index(
            "uq_games_open_channel",
            "channel_id",
            unique=True,
            sqlite_where=text("status IN ('lobby', 'running')"),
            postgresql_where=text("status IN ('lobby', 'running')"),
        ),
        Index("ix_games_channel_id_created_at", "channel_id", "created_at"),
        Index("ix_games_guild_id_created_at", "guild_id", "created_at"),
        Index("ix_games_status", "status"),
    )


class Seat(Base):
    """A player at a game: a Discord user or a computer player (which never gets totals)."""

    __tablename__ = "seats"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    seat_order: Mapped[int] = mapped_column(Integer)
    is_bot: Mapped[bool] = mapped_column(Boolean)
    bot_level: Mapped[str | None] = mapped_column(String(16))
    joined_at: Mapped[datetime]
    left_at: Mapped[datetime | None]
    # Turns in a row this player let the turn timer run out (3 and they leave the game).
    timeouts: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    # Left because the host kicked them (`left_at` set too): a kick is not rated as a loss.
    kicked: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    game: Mapped[Game] = relationship(back_populates="seats")

    __table_args__ = (UniqueConstraint("game_id", "seat_order"),)


class GameAction(Base):
    """Append-only log: one row per engine version, enough to audit a game (a replay would also
    need the engine it was played with: the shuffle is part of the rules' code)."""

    __tablename__ = "game_actions"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    actor_id: Mapped[int | None] = mapped_column(BigInteger)
    action: Mapped[str] = mapped_column(String(100))
    detail: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime]

    __table_args__ = (UniqueConstraint("game_id", "version"),)


class Round(Base):
    """A scored round; unique per game and number so totals are added exactly once."""

    __tablename__ = "rounds"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    round_number: Mapped[int] = mapped_column(Integer)
    winner_id: Mapped[int | None] = mapped_column(BigInteger)
    # {str(user_id): points}; JSON object keys are strings.
    points: Mapped[dict[str, Any]]
    ended_at: Mapped[datetime]
    # Provable deals: SHA-256 of the round's seed, and the seed, revealed at the round's end
    # (64 hex digits each; none for rounds played before them).
    commitment: Mapped[str | None] = mapped_column(String(64))
    seed: Mapped[str | None] = mapped_column(String(64))

    __table_args__ = (UniqueConstraint("game_id", "round_number"),)


class PlayerTotal(Base):
    """Cumulative per-server figures of one human player in one game: what a stats page shows."""

    __tablename__ = "player_totals"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(16), primary_key=True, server_default=CLASSIC)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    points: Mapped[int] = mapped_column(BigInteger, default=0)
    rounds_played: Mapped[int] = mapped_column(Integer, default=0)
    rounds_won: Mapped[int] = mapped_column(Integer, default=0)
    games_played: Mapped[int] = mapped_column(Integer, default=0)
    games_won: Mapped[int] = mapped_column(Integer, default=0)
    cards_played: Mapped[int] = mapped_column(Integer, default=0)
    uno_calls: Mapped[int] = mapped_column(Integer, default=0)
    catches: Mapped[int] = mapped_column(Integer, default=0)
    challenges_won: Mapped[int] = mapped_column(Integer, default=0)
    challenges_lost: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime]

    __table_args__ = (
        Index("ix_player_totals_guild_id_points", "guild_id", "points"),
        Index("ix_player_totals_guild_id_games_won", "guild_id", "games_won"),
    )


class Season(Base):
    """A server's rating season; the current one has no `ended_at`. An ended season keeps its
    champion and top ten (`standings`: [{"user_id", "name", "rating", "matches"}, ...])."""

    __tablename__ = "seasons"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    started_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
    # The channel of the season's last counted match: where its champion is announced.
    last_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    champion_id: Mapped[int | None] = mapped_column(BigInteger)
    standings: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # False until the champion of an ended season was announced (an outbox: survives restarts).
    announced: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Rating(Base):
    """One human's skill rating in one game in one season of a server (openskill
    Plackett-Luce mu, sigma)."""

    __tablename__ = "ratings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    season: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(16), primary_key=True, server_default=CLASSIC)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)  # rated matches in this season
    updated_at: Mapped[datetime]


class RatingChange(Base):
    """What one counted match did to each human's rating: written once per (game, player), so
    a match's final save rates it exactly once (its presence is the idempotence key)."""

    __tablename__ = "rating_changes"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    season: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(16), default=CLASSIC, server_default=CLASSIC)
    place: Mapped[int] = mapped_column(Integer)  # 1: the winner
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime]

    __table_args__ = (Index("ix_rating_changes_guild_id_user_id", "guild_id", "user_id"),)


class PublicPost(Base):
    """A public message that carries what is found nowhere else (a round's results, a season's
    champion), written in the same transaction as the change it tells of, and posted by
    cogs/uno/outbox.py until Discord accepted it (an outbox: it survives a restart).

    `payload` is the message as rendered at save time (JSON: embeds, and which buttons), so it
    reads the same whenever it goes out; `nonce` is sent with `enforce_nonce`, so Discord
    returns the first message instead of a second one when a post is repeated."""

    __tablename__ = "public_posts"

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))  # "results", "season", "table" (an edit)
    payload: Mapped[dict[str, Any]]
    nonce: Mapped[str] = mapped_column(String(25))
    created_at: Mapped[datetime]
    # "pending" until Discord accepted it ("posted", with its message) or refused the channel
    # for good ("undeliverable": the bot may not post there, or the channel is gone); a
    # finished match's final table waits as "standby" for a restart, "superseded" once the
    # running process showed it itself.
    state: Mapped[str] = mapped_column(String(16), default="pending", server_default="pending")
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    done_at: Mapped[datetime | None]

    __table_args__ = (Index("ix_public_posts_state_channel_id", "state", "channel_id"),)


class TokenBudgetMember(Base):
    """A bot process sharing its token's request budget with the others on this database
    (PostgreSQL; bot/store/token_budget.py): who it is, when it last said it is alive, and
    `claim`, the most requests it may start in one of the budget's windows (its share, or more
    while a larger share it just gave up still counts in the window). The claims of a token's
    live processes never add up to more than the token's budget."""

    __tablename__ = "token_budget_members"

    token_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    process_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    pid: Mapped[int] = mapped_column(Integer)
    host: Mapped[str] = mapped_column(String(255))
    claim: Mapped[int] = mapped_column(Integer)
    # A process that stopped, whose last requests stay claimed until their window is over.
    leaving: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    joined_at: Mapped[datetime]
    heartbeat_at: Mapped[datetime]


class TokenBudgetPause(Base):
    """A global 429 seen by any process of a token: every process pauses until `paused_until`
    and then resumes at a lower rate (bot/request_budget.py)."""

    __tablename__ = "token_budget_pauses"

    token_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    paused_until: Mapped[datetime]
