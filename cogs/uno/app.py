"""The composition root: every flow of the game built once for the cog, in the order they need
each other; arrows one way, no callbacks bound late.

The publishers' services (results, tables, live hands, pings) and the save are handed to
`RunningGames`, whose `RunningGame`s own each running game, make and retire its table, hands
and pings, and publish every saved change in a fixed order (game/owner.py); the flows get the
running games from it. The services hold only what every game shares. This object is installed as
`bot.uno` (bot.client.GameService): it answers clicks (`handle_click`), the client's shutdown
stops it (`stop_clocks`, `finish_tables`) and the admin cog tells it of changed settings.
"""

from __future__ import annotations

from bot.host import UnoHost
from bot.settings import Settings
from bot.store import Database
from cogs.uno.boards import PublicBoards, announce_season_ends
from cogs.uno.clicks import Clicks
from cogs.uno.drawing.emoji_upload import EmojiSync
from cogs.uno.drawing.renderer import DRAWING
from cogs.uno.game.computers import THINKING
from cogs.uno.game.hands import PrivateHands
from cogs.uno.game.moves import Moves
from cogs.uno.game.pings import TurnPings
from cogs.uno.game.registry import RunningGames
from cogs.uno.game.requests import RoundLog, ShowHand, TablePosts
from cogs.uno.game.results import Results
from cogs.uno.game.saving import Saving
from cogs.uno.game.table import TableUpdater
from cogs.uno.lobby.lobbies import Lobby
from cogs.uno.lobby.rematch import Rematch
from cogs.uno.lobby.rules import LobbyRules
from cogs.uno.lobby.settings_panel import ConfigPanel
from cogs.uno.outbox import PublicPoster
from cogs.uno.records.exports import Records
from cogs.uno.records.work import RECORDS
from cogs.uno.shared import Shared


class UnoApp:
    def __init__(self, bot: UnoHost, database: Database, settings: Settings) -> None:
        self.shared = shared = Shared(bot, database, settings)
        self.table_posts = TablePosts(shared)
        self.tables = TableUpdater(
            bot,
            interval=settings.table_edit_interval,
            repost_after=settings.table_repost_after,
            budget=bot.request_budget,
            token_ttl=settings.table_token_ttl,
        )
        self.private_hands = PrivateHands(shared)
        self.pings = TurnPings(shared)
        self.posts = PublicPoster(shared)  # results and champions, saved with their change
        self.games = RunningGames(
            shared,
            Saving(shared),
            Results(shared, self.posts),
            self.tables,
            self.private_hands,
            self.pings,
        )
        self.show_hand = ShowHand(self.games)
        self.moves = Moves(self.games)
        self.lobby_rules = LobbyRules(shared)
        self.lobby = Lobby(shared, self.games, self.moves, self.lobby_rules)
        self.config = ConfigPanel(shared, self.lobby_rules.save_lobby_rules)
        self.rematch = Rematch(shared, self.lobby)
        self.records = Records(shared)
        self.round_log = RoundLog(self.games)
        self.clicks = Clicks(
            self.show_hand,
            self.lobby,
            self.config,
            self.moves,
            self.rematch,
            self.records,
            self.round_log,
        )
        self.handle_click = self.clicks.handle_click  # bot.ui.items.ComponentHandler
        self.settings_changed = shared.settings_changed  # the admin cog's changes
        self.boards = PublicBoards(shared)  # `/uno leaderboard` in public
        self.card_emojis = EmojiSync(bot)  # started by the cog, in the background

    def running_games(self) -> int:
        """How many games this process runs now (the request summaries count per game)."""
        return len(self.games)

    async def stop_clocks(self) -> None:
        """No more timer or computer moves, nor lobby expiry (a shutdown began)."""
        await self.games.close()
        self.lobby.expiry.cancel_all()

    async def announce_season_ends(self, guild_id: int, locale: object) -> None:
        """Post the server's ended seasons' champions through this process's outbox (the admin
        cog's `season_end`; boards.py `announce_season_ends`)."""
        await announce_season_ends(self.shared.db, self.posts, guild_id, locale)

    async def finish_tables(self, timeout: float) -> bool:
        """At shutdown: every table brought up to date within `timeout` seconds (False if some
        could not be), then no more table updates."""
        shown = await self.tables.flush_all(timeout)
        await self.tables.close()
        return shown

    async def close(self) -> None:
        """Stop the table updates, the timers and the pings (the cog is unloaded)."""
        await self.tables.close()
        await self.stop_clocks()
        self.games.drop_clocks()  # the pings' jobs too
        await self.posts.close()  # what is still pending is posted by the next run
        await self.pings.close()
        await self.private_hands.close()
        await self.card_emojis.close()
        await DRAWING.close()
        await THINKING.close()
        await RECORDS.close()
