"""A seat remembers whether its player was kicked (`seats.kicked`).

Leaving a rated match is losing it (docs/playing.md, "Skill ratings and seasons"): whoever left
or was removed after timeouts is rated at the match's end as having lost to everyone still
seated, while a player the host kicked loses nothing. Both set `left_at`; `kicked` tells them
apart, across restarts, when the match ends.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("kicked", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("kicked")
