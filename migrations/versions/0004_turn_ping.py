"""Servers choose when a player is pinged as their turn starts (`turn_ping_seconds`).

NULL turns the pings off; 0 pings at once; otherwise the ping waits that many seconds, so a
player who plays quickly is never pinged. Existing servers get the default, 10 s (README
"Turn pings").

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("turn_ping_seconds", sa.Integer(), server_default="10", nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("turn_ping_seconds")
