"""Provable deals: each round keeps its commitment and its seed, revealed at its end.

`commitment` is SHA-256 of the round's seed (64 hex digits, shown in part at the deal); `seed`
is the seed itself (64 hex digits), written when the round ends, never before (docs/records.md).
Rounds played before this revision have neither.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("seed", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rounds", schema=None) as batch_op:
        batch_op.drop_column("seed")
        batch_op.drop_column("commitment")
