"""What a player's private hand message shows, for every flow that sends or edits one."""

from __future__ import annotations

from bot.ui.hand_message import render_hand
from bot.ui.outgoing import Outgoing
from cogs.uno.game.live import LiveGame

#: Lines a hand tells of the last moves.
RECENT_LINES = 2


def recent_lines(live: LiveGame, locale: object) -> list[str]:
    """The last moves as the table's log tells them, but in the reader's language (a player's
    hand follows their Discord client, the table the server)."""
    return live.recent.lines(live.names, locale, RECENT_LINES)


def host_for_next(live: LiveGame) -> int | None:
    """Who may start the next round: the host, or anyone once the host has left."""
    return live.host_id if live.host_present else None


def hand_message(
    live: LiveGame,
    user: int,
    locale: object,
    *,
    page: int = 0,
    notice: str | None = None,
    pictures: bool = False,
) -> Outgoing:
    """The message showing `user` their hand (`pictures`: with its picture, and card emojis
    on the buttons)."""
    return render_hand(
        live.game,
        live.game_id,
        user,
        live.names,
        locale,
        page=page,
        notice=notice,
        host_id=host_for_next(live),
        pictures=pictures,
        deadline=live.deadline,
        recent=recent_lines(live, locale),
        waited=user in live.waited,
        player_view=live.view(user),
    )
