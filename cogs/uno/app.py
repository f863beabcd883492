"""The composition root: every flow of the game built once for the cog, and wired together.

Flows get the shared House and what else they need as objects or callbacks; the ones that
would close a circle (the timers need the moves' save and publish, which wake the timers)
are connected here. This object is installed as `bot.components`: it answers clicks
(`handle_click`), and the client's shutdown and the admin cog reach `autoplay`, `tables` and
`settings_changed` through it.
"""

from __future__ import annotations

from typing import Any

from bot.engine import events as E
from bot.store import Database
from cogs.uno.autoplay import Autoplay
from cogs.uno.card_emojis import EmojiSync
from cogs.uno.components import Clicks
from cogs.uno.config_panel import ConfigPanel
from cogs.uno.hands import Hands
from cogs.uno.house import House
from cogs.uno.live import LiveGame
from cogs.uno.live_hands import LiveHands
from cogs.uno.lobby import Lobby
from cogs.uno.lobby_rules import LobbyRules
from cogs.uno.moves import Moves
from cogs.uno.pictures import DRAWING
from cogs.uno.pings import TurnPings
from cogs.uno.rematch import Rematch
from cogs.uno.results import Results
from cogs.uno.saving import Saving
from cogs.uno.table_posts import TablePosts
from cogs.uno.thinking import THINKING


class UnoApp:
    def __init__(self, bot: Any, database: Database) -> None:
        self.house = house = House(bot, database)
        self.table_posts = TablePosts(house)
        self.tables = self.table_posts.updater
        self.saving = Saving(house)
        self.autoplay = Autoplay(house, self.saving, self._after_moves, self._expire_lobby)
        self.pings = TurnPings(house)
        self.autoplay.followers.append(self.pings.after_change)  # every change wakes autoplay
        self.live_hands = LiveHands(house)
        self.results = Results(
            house, self.tables, wake=self.autoplay.after_change, hands=self.live_hands.refresh
        )
        shown, quiet = self.live_hands.register, self.live_hands.quiet
        self.hands = Hands(house, shown, quiet)
        self.moves = Moves(house, self.saving, self.results, shown, quiet)
        self.lobby_rules = LobbyRules(house)
        self.lobby = Lobby(house, self.tables, self.autoplay, self.moves, self.lobby_rules)
        self.config = ConfigPanel(house, self.lobby_rules.save_lobby_rules)
        self.rematch = Rematch(house, self.lobby, self.autoplay)
        self.clicks = Clicks(self.hands, self.lobby, self.config, self.moves, self.rematch)
        self.handle_click = self.clicks.handle_click  # bot.ui.items.ComponentHandler
        self.settings_changed = house.settings_changed  # the admin cog's changes
        self.card_emojis = EmojiSync(bot)  # started by the cog, in the background

    # What autoplay needs of the flows built after it (they wake it), bound late.

    async def _after_moves(self, live: LiveGame, events: list[E.Event]) -> None:
        await self.results.after_moves(live, events)

    async def _expire_lobby(self, game_id: int) -> None:
        await self.lobby.expire_lobby(game_id)

    async def close(self) -> None:
        """Stop the table updates, the timers and the pings (the cog is unloaded)."""
        await self.tables.close()
        await self.autoplay.close()
        await self.pings.close()
        await self.live_hands.close()
        await self.card_emojis.close()
        await DRAWING.close()
        await THINKING.close()
