"""Initial schema: server settings, games with their live state and log, rounds, player totals.

Revision ID: 0001
Revises:
Create Date: 2026-12-02
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OPEN_GAME = sa.text("status IN ('lobby', 'running')")


def _timestamp(name: str, *, nullable: bool = False) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _counter(name: str, type_: type[sa.types.TypeEngine[Any]] = sa.Integer) -> sa.Column[Any]:
    return sa.Column(name, type_(), nullable=False)


def upgrade() -> None:
    op.create_table(
        "bot_state",
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        _timestamp("updated_at"),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_bot_state")),
    )
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("rules", sa.JSON(), nullable=True),
        sa.Column("turn_timeout_seconds", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("manager_role_id", sa.BigInteger(), nullable=True),
        sa.Column(
            "start_policy",
            sa.Enum(
                "host",
                "anyone",
                name="start_policy",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        _timestamp("updated_at"),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_guild_settings")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "lobby",
                "running",
                "finished",
                "abandoned",
                name="game_status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("winner_id", sa.BigInteger(), nullable=True),
        _timestamp("created_at"),
        _timestamp("started_at", nullable=True),
        _timestamp("finished_at", nullable=True),
        sa.Column("table_message_id", sa.BigInteger(), nullable=True),
        _timestamp("table_message_posted_at", nullable=True),
        _timestamp("turn_deadline", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games") as batch_op:
        batch_op.create_index("ix_games_channel_id_created_at", ["channel_id", "created_at"])
        batch_op.create_index("ix_games_guild_id_created_at", ["guild_id", "created_at"])
        batch_op.create_index("ix_games_status", ["status"])
        batch_op.create_index(
            "uq_games_open_channel",
            ["channel_id"],
            unique=True,
            sqlite_where=OPEN_GAME,
            postgresql_where=OPEN_GAME,
        )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("seat_order", sa.Integer(), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        _timestamp("joined_at"),
        _timestamp("left_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_seats_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_seats")),
        sa.UniqueConstraint("game_id", "seat_order", name=op.f("uq_seats_game_id_seat_order")),
    )
    op.create_table(
        "game_actions",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("actor_id", sa.BigInteger(), nullable=True),
        sa.Column("action", sa.String(length=100), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        _timestamp("created_at"),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_game_actions_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_actions")),
        sa.UniqueConstraint("game_id", "version", name=op.f("uq_game_actions_game_id_version")),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("winner_id", sa.BigInteger(), nullable=True),
        sa.Column("points", sa.JSON(), nullable=False),
        _timestamp("ended_at"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rounds_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rounds")),
        sa.UniqueConstraint("game_id", "round_number", name=op.f("uq_rounds_game_id_round_number")),
    )
    op.create_table(
        "player_totals",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        _counter("points", sa.BigInteger),
        _counter("rounds_played"),
        _counter("rounds_won"),
        _counter("games_played"),
        _counter("games_won"),
        _counter("cards_played"),
        _counter("uno_calls"),
        _counter("catches"),
        _counter("challenges_won"),
        _counter("challenges_lost"),
        _timestamp("updated_at"),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_player_totals")),
    )
    with op.batch_alter_table("player_totals") as batch_op:
        batch_op.create_index("ix_player_totals_guild_id_games_won", ["guild_id", "games_won"])
        batch_op.create_index("ix_player_totals_guild_id_points", ["guild_id", "points"])


def downgrade() -> None:
    op.drop_table("player_totals")
    op.drop_table("rounds")
    op.drop_table("game_actions")
    op.drop_table("seats")
    op.drop_table("games")
    op.drop_table("guild_settings")
    op.drop_table("bot_state")
