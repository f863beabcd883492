"""The turn ping shown in a game's channel is remembered (`games.ping_message_id`).

A ping (cogs/uno/game/pings.py) was kept in memory only, so one posted before a restart stayed
in the channel for good and the next process posted another. Its id is now stored when it is posted
and cleared when it is deleted; at start-up the pings of the previous process are deleted.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("ping_message_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("ping_message_id")
