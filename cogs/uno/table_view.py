"""What a running game's public table shows: its message as rendered from the saved state.

Shared by whoever shows a table: its owner's updates (running.py, game_table.py), the first
table at the start (lobby.py) and `/uno table` (table_posts.py).
"""

from __future__ import annotations

from typing import Any

from bot.ui.pictures import table_picture
from bot.ui.table_message import render_table
from cogs.uno.live import LiveGame
from cogs.uno.pictures import images_on
from cogs.uno.shared import Shared
from cogs.uno.turn_clock import MAX_TIMEOUTS


def table_kwargs(shared: Shared, live: LiveGame) -> dict[str, Any]:
    """The running game's table, with the turn timer's countdown (and warning) when it is on,
    and (card pictures on) its picture under "picture" (see pictures.py)."""
    locale = shared.public_locale(live.guild_id)
    current = live.game.current_player
    lost = live.timeouts.get(current, 0) if current is not None else 0
    picture = (
        table_picture(live.game, live.names, locale) if images_on(shared, live.guild_id) else None
    )
    kwargs = render_table(
        live.game,
        live.game_id,
        live.names,
        locale,
        log=live.log.lines(),
        deadline=live.deadline,
        last_chance=lost if lost >= MAX_TIMEOUTS - 1 else 0,
        pictured=picture is not None,
    )
    if picture is not None:
        picture.point(kwargs["embed"])
        kwargs["picture"] = picture
    return kwargs
