"""Skill ratings per (server, season, player), each match's rating change, and seasons.

`ratings` holds openskill Plackett-Luce (mu, sigma) per season; `rating_changes` one row per
(game, player) of every rated match (so a match is rated once); `seasons` a server's current
season and the archived champion and top ten of ended ones. Servers get `season_length`
("off" by default) and `season_channel_id` (where champions are announced).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("season_length", sa.String(length=16), server_default="off", nullable=False)
        )
        batch_op.add_column(sa.Column("season_channel_id", sa.BigInteger(), nullable=True))
    op.create_table(
        "seasons",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("champion_id", sa.BigInteger(), nullable=True),
        sa.Column("standings", sa.JSON(), nullable=True),
        sa.Column("announced", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "number", name=op.f("pk_seasons")),
    )
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("season", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "season", "user_id", name=op.f("pk_ratings")),
    )
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rating_changes_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_rating_changes")),
    )
    op.create_index("ix_rating_changes_guild_id_user_id", "rating_changes", ["guild_id", "user_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_guild_id_user_id", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_table("seasons")
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("season_channel_id")
        batch_op.drop_column("season_length")
