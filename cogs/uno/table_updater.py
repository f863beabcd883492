"""What every table of this process shares: the bot, the pace of edits, the request budget, and
the updates in flight (to pace the busy tables together and to finish them at shutdown).

Each running game's owner gets its own table from here (`table`: game_table.py holds all of
one table's state); nothing here is kept per game.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import discord

from bot.request_budget import RequestBudget
from cogs.uno.game_table import GameTable, OnPosted, Renderer


class TableUpdater:
    def __init__(
        self,
        bot: discord.Client,
        *,
        interval: float,
        repost_after: float,
        budget: RequestBudget | None = None,
    ) -> None:
        """`interval`: seconds between two edits of one table (TABLE_EDIT_INTERVAL);
        `repost_after`: a table this many seconds old is posted anew (TABLE_REPOST_AFTER);
        `budget`: the process's request budget, which paces busy tables (REQUEST_BUDGET)."""
        self.bot = bot
        self.interval = interval
        self.repost_after = timedelta(seconds=repost_after)
        self.budget = budget
        self.closed = False
        # The tables' updates in flight, every game's (a finished game's last edit included).
        self._updates: set[asyncio.Task[None]] = set()

    def table(self, game_id: int, render: Renderer, on_posted: OnPosted) -> GameTable:
        """A game's table: `render` gives what it shows now, `on_posted` records a re-post."""
        return GameTable(self, game_id, render, on_posted)

    @property
    def busy(self) -> int:
        """How many tables are being updated now (they share the budget's pace)."""
        return len(self._updates)

    def started(self, task: asyncio.Task[None]) -> None:
        """A table's update task began (`GameTable`): followed until it ends."""
        self._updates.add(task)
        task.add_done_callback(self._updates.discard)

    async def flush_all(self, timeout: float) -> bool:
        """Wait (at most `timeout` seconds) until every table shows its latest state."""
        tasks = set(self._updates)
        if not tasks:
            return True
        _, pending = await asyncio.wait(tasks, timeout=timeout)
        return not pending

    async def close(self) -> None:
        """Stop every table's updates (pending edits are dropped) and wait until they ended."""
        self.closed = True
        tasks = list(self._updates)
        self._updates.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
