"""Processes of one bot token share its request budget through the database (PostgreSQL).

`token_budget_members` holds each live process of a token (a heartbeat every second) and the
share of the token's REQUEST_BUDGET it claims; `token_budget_pauses` the end of the pause a
global 429 seen by any of them imposes on all (bot/store/token_budget.py,
bot/budget_sharing.py). SQLite, one process, never uses them.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "token_budget_members",
        sa.Column("token_id", sa.String(length=64), nullable=False),
        sa.Column("process_key", sa.String(length=64), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("claim", sa.Integer(), nullable=False),
        sa.Column("leaving", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token_id", "process_key", name=op.f("pk_token_budget_members")),
    )
    op.create_table(
        "token_budget_pauses",
        sa.Column("token_id", sa.String(length=64), nullable=False),
        sa.Column("paused_until", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token_id", name=op.f("pk_token_budget_pauses")),
    )


def downgrade() -> None:
    op.drop_table("token_budget_pauses")
    op.drop_table("token_budget_members")
