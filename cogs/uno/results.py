"""What follows a saved move in public: log lines, round results, the table, the game's end.

The timers and computer players must hear of every change; they are woken through the `wake`
callback given here (autoplay imports nothing of the flows, and nothing here imports it).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import events as E
from bot.i18n import t
from bot.ui.table import rematch_view, render_round_result, render_table
from cogs.uno.hands import host_for_next
from cogs.uno.house import House
from cogs.uno.live import LiveGame
from cogs.uno.tables import TableUpdater


class Results:
    def __init__(
        self,
        house: House,
        tables: TableUpdater,
        wake: Callable[[LiveGame], None],
        hands: Callable[[LiveGame, list[E.Event]], None] = lambda live, events: None,
    ) -> None:
        self.house = house
        self.tables = tables
        self.wake = wake  # arm the turn timer and wake the computers, as the new state requires
        self.hands = hands  # edit the players' open hands whose view changed (live_hands.py)

    async def after(self, live: LiveGame, events: list[E.Event]) -> None:
        """Public consequences of an action: log lines, results, the table."""
        house = self.house
        locale = house.public_locale(live.guild_id)
        live.log.record(events, live.names, locale)
        repost = False
        for e in events:
            if isinstance(e, E.RoundEnded):
                match = live.game.outcome
                embed = render_round_result(
                    e.outcome,
                    live.names,
                    locale,
                    match=match,
                    host_id=None if match else host_for_next(live),
                )
                extra = {"view": rematch_view(live.game_id, locale)} if match else {}
                await house.send_public(live.channel_id, embed=embed, **extra)
            elif isinstance(e, E.RoundStarted) and e.round_number > 1:
                repost = True
        self.tables.request(live.game_id, repost=repost)
        self.hands(live, events)
        if live.game.outcome is not None:
            await self.tables.flush(live.game_id)
            house.forget(live.game_id)
        elif live.levels and not live.humans:
            await self._abandon_without_humans(live)
        self.wake(live)

    async def after_moves(self, live: LiveGame, events: list[E.Event]) -> None:
        """`after` for moves made without a click, unless the game was forgotten meanwhile."""
        if self.house.live.get(live.game_id) is live:
            await self.after(live, events)

    async def _abandon_without_humans(self, live: LiveGame) -> None:
        """Computer players do not play on among themselves: the game ends, uncounted."""
        house = self.house
        async with house.lock(live.channel_id):
            async with house.db.write() as unit:
                done = await unit.games.abandon(live.game_id)
            house.live.pop(live.game_id, None)
        if done:
            await self.tables.flush(live.game_id)
            locale = house.public_locale(live.guild_id)
            kwargs = render_table(
                live.game,
                live.game_id,
                live.names,
                locale,
                log=live.log.lines(),
                closed=t("notice.no_humans_left", locale),
            )
            kwargs["attachments"] = []  # a closed table shows no picture
            await house.edit_public(live.channel_id, live.table_message_id, **kwargs)
