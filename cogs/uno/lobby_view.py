"""A lobby as the channel sees it, in the server's language (used by every lobby flow)."""

from __future__ import annotations

from typing import Any

from bot.store import GameRecord
from bot.ui.table_message import render_lobby
from cogs.uno.shared import Shared


def lobby_kwargs(
    shared: Shared, record: GameRecord, *, closed: str | None = None
) -> dict[str, Any]:
    locale = shared.public_locale(record.guild_id)
    players = [(s.user_id, s.display_name) for s in record.seats if s.left_at is None]
    return render_lobby(record.id, record.host_id, players, record.rules, locale, closed=closed)
