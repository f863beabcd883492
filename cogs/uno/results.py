"""What a saved change says in public before the table moves: log lines and round results.

The first step of a running game's publication (running.py): the change's events become the
table's log lines, and a round's end is announced with its results (and, at the match's end, a
Rematch button). Also the closed table that ends a game nobody plays on.
"""

from __future__ import annotations

from typing import Any

from bot.engine import events as E
from bot.store import StoreError
from bot.store.rating_model import MIN_RATED_HAND, rated_hand
from bot.ui.table_message import rematch_view, render_round_result, render_table
from cogs.uno.live import LiveGame
from cogs.uno.seasons import announce_season_ends
from cogs.uno.shared import Shared


class Results:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    async def announce(
        self, live: LiveGame, events: list[E.Event], note: tuple[int, str] | None = None
    ) -> bool:
        """Log the change (`note`: a clause opening a player's line, e.g. the timer's "ran out
        of time") and post any round's results; whether a new round began (its table is then
        posted anew)."""
        shared = self.shared
        locale = shared.public_locale(live.guild_id)
        if note is not None:
            live.log.note_for(note[0], note[1], live.names, locale)
        live.log.record(events, live.names, locale)
        new_round = False
        for e in events:
            if isinstance(e, E.RoundEnded):
                match = live.game.outcome
                rated = await self._rating_changes(live.game_id) if match else None
                ratings, provisional = rated or (None, set())
                small = not rated_hand(live.game.rules.hand_size)
                embed = render_round_result(
                    e.outcome,
                    live.names,
                    locale,
                    match=match,
                    host_id=None if match else live.host_id,  # says: anyone may start it
                    seed=e.seed,  # the round is over: its seed is revealed
                    left=live.game.left,
                    ratings=ratings,
                    provisional=provisional,
                    unrated_below=MIN_RATED_HAND if small else None,
                )
                extra = {"view": rematch_view(live.game_id, locale)} if match else {}
                await shared.send_public(live.channel_id, embed=embed, **extra)
                if match:  # this match may have ended a season (a lazy rollover)
                    await announce_season_ends(shared.db, shared.bot, live.guild_id, locale)
            elif isinstance(e, E.RoundStarted) and e.round_number > 1:
                new_round = True
        return new_round

    async def _rating_changes(
        self, game_id: int
    ) -> tuple[dict[int, tuple[int, int]], set[int]] | None:
        """The match's rating changes, saved with its end, and who is still provisional; None
        if it was not rated (or the database cannot say now: the results go without them)."""
        try:
            async with self.shared.db.read() as unit:
                changes = await unit.ratings.changes(game_id)
                return (changes, await unit.ratings.provisional(game_id)) if changes else None
        except StoreError:
            return None

    def closed_table(self, live: LiveGame, closed: str) -> dict[str, Any]:
        """The table of a game that ended without a winner, saying why (`closed`)."""
        locale = self.shared.public_locale(live.guild_id)
        kwargs = render_table(
            live.game, live.game_id, live.names, locale, log=live.log.lines(), closed=closed
        )
        kwargs["attachments"] = []  # a closed table shows no picture
        return kwargs
