"""Servers choose how long the break between two rounds lasts (`round_break_seconds`).

The next round starts by itself that many seconds after a round's end, unless someone at the
table starts it sooner (Next round) or asks to wait (Wait). Existing servers get the default,
15 s (docs/playing.md "Between rounds"); it used to be the turn timer's length.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("round_break_seconds", sa.Integer(), server_default="15", nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("round_break_seconds")
