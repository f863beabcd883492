"""Every match says which game it was (`games.kind`: "classic", "no_mercy", later "flip"), and
totals and ratings are kept per game (`player_totals.game`, `ratings.game`,
`rating_changes.game`): a No Mercy rating is not a classic one (bot/engine/game_kinds.py).

Everything stored before was the classic game (a No Mercy match played before this revision was
counted as classic: its totals were added to the classic ones, and they cannot be told apart
afterwards), so every existing row becomes "classic" and nothing is lost. Going down, only the
classic rows can stay in tables keyed without the game: the others are removed.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _game_column(name: str = "game") -> sa.Column[str]:
    return sa.Column(name, sa.String(length=16), server_default="classic", nullable=False)


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(_game_column("kind"))
    with op.batch_alter_table("rating_changes", schema=None) as batch_op:
        batch_op.add_column(_game_column())
    with op.batch_alter_table("player_totals", schema=None) as batch_op:
        batch_op.add_column(_game_column())
        batch_op.drop_constraint("pk_player_totals", type_="primary")
        batch_op.create_primary_key("pk_player_totals", ["guild_id", "game", "user_id"])
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.add_column(_game_column())
        batch_op.drop_constraint("pk_ratings", type_="primary")
        batch_op.create_primary_key("pk_ratings", ["guild_id", "season", "game", "user_id"])


def downgrade() -> None:
    for table in ("player_totals", "ratings", "rating_changes"):
        op.execute(sa.text(f"DELETE FROM {table} WHERE game != 'classic'"))
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_constraint("pk_ratings", type_="primary")
        batch_op.create_primary_key("pk_ratings", ["guild_id", "season", "user_id"])
        batch_op.drop_column("game")
    with op.batch_alter_table("player_totals", schema=None) as batch_op:
        batch_op.drop_constraint("pk_player_totals", type_="primary")
        batch_op.create_primary_key("pk_player_totals", ["guild_id", "user_id"])
        batch_op.drop_column("game")
    with op.batch_alter_table("rating_changes", schema=None) as batch_op:
        batch_op.drop_column("game")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("kind")
