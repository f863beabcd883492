"""Servers choose whether the bot shows card pictures (`card_images`).

Off gives text only (for slow connections and screen readers): no table or hand picture and no
card emojis on the buttons. Existing servers get the default, on (README "Card pictures").

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("card_images", sa.Boolean(), server_default=sa.true(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("card_images")
