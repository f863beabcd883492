"""A server's language follows its own Discord language until an admin picks one ("auto").

Until now English was the only language, so a stored "en" was never a choice between languages:
it becomes "auto", and servers whose Discord language the bot speaks get it. Going back, "auto"
becomes "en" again (the only language the older code knows). No column changes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("UPDATE guild_settings SET language = 'auto' WHERE language = 'en'")


def downgrade() -> None:
    op.execute("UPDATE guild_settings SET language = 'en' WHERE language = 'auto'")
