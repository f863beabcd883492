"""Every running game of this process, by id, each with its owner (owner.py), and carrying on
after a restart: every running game of this process's shards is loaded again.

The stored snapshot is the truth, so a game resumes exactly where its last saved action left it.
Its buttons need nothing (they are DynamicItems); its recorded table message is refreshed (or
re-posted when old or gone) with a log line saying the game was resumed.
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from bot.engine import Game
from bot.engine import events as E
from bot.i18n import t
from bot.store import GameNotFound, GameRecord, GameStatus, WrongStatus
from bot.ui.errors import UserError
from cogs.uno.game.hands import PrivateHands
from cogs.uno.game.live import LiveGame
from cogs.uno.game.owner import RunningGame, Services
from cogs.uno.game.pings import TurnPings
from cogs.uno.game.results import Results
from cogs.uno.game.saving import Saving
from cogs.uno.game.table import TableUpdater
from cogs.uno.shared import Shared

log = logging.getLogger(__name__)


class RunningGames:
    """Every running game of this process, each with its owner, and what they share: the save,
    the publishers, the settings."""

    def __init__(
        self,
        shared: Shared,
        saving: Saving,
        results: Results,
        tables: TableUpdater,
        private_hands: PrivateHands,
        pings: TurnPings,
    ) -> None:
        self.shared = shared
        self.results = results
        self.private_hands = private_hands
        self._games: dict[int, RunningGame] = {}
        settings = shared.settings
        delay = (settings.computer_delay_min, settings.computer_delay_max)
        self._services = Services(shared, saving, results, tables, private_hands, pings, delay)

    def __len__(self) -> int:
        return len(self._games)

    def peek(self, game_id: int) -> RunningGame | None:
        """The running game if this process holds it now (never loads)."""
        return self._games.get(game_id)

    async def get(self, game_id: int) -> RunningGame:
        """The running game, loaded from its snapshot if not held yet (its clock then armed);
        a UserError if it is not running."""
        running = self._games.get(game_id)
        if running is not None:
            return running
        try:
            async with self.shared.db.read() as unit:
                saved = await unit.games.load(game_id)
        except GameNotFound:
            raise UserError("error.game_not_found") from None
        except WrongStatus:
            raise UserError("error.game_not_started") from None
        if saved.game.status is not GameStatus.RUNNING:
            raise UserError("error.game_ended")
        running = self._games.get(game_id)  # loaded meanwhile by another task
        if running is None:
            running = self.hold(saved.game, Game.from_dict(saved.state))
            await self.shared.load_settings(running.live.guild_id)
            running.arm()
        return running

    def hold(self, record: GameRecord, game: Game) -> RunningGame:
        """Hold a running game (just started, resumed or loaded); its clock is not armed yet."""
        running = RunningGame(LiveGame.from_record(record, game), self._services, self.remove)
        self._games[record.id] = running
        return running

    def start(self, record: GameRecord, game: Game, events: list[E.Event]) -> RunningGame:
        """A game just started (its start saved by the lobby): its owner, handed its first
        state and the deal's log lines; its clock is not armed yet (`started`)."""
        running = self.hold(record, game)
        live = running.live
        live.log.record(events, live.names, self.shared.public_locale(record.guild_id))
        live.recent.append((tuple(events), None, 0))
        return running

    def remove(self, running: RunningGame) -> None:
        if self._games.get(running.game_id) is running:
            del self._games[running.game_id]

    def arm_all(self) -> None:
        """Arm every held game's clock (at start-up, once the gateway is up)."""
        for running in list(self._games.values()):
            running.arm()

    async def close(self) -> None:
        """Stop every clock (shutdown): no timer or computer moves from now on."""
        for running in list(self._games.values()):
            running.stop_clock()

    def drop_clocks(self) -> None:
        """The cog is unloaded: every held game's clock stops entirely, its ping's jobs too."""
        for running in list(self._games.values()):
            running.clock.cancel_all()


def shard_filter(
    shard_count: int | None, shard_ids: Collection[int] | None
) -> tuple[list[int] | None, int]:
    """(shard ids to load, shard count) for `running_games`; (None, 1) means every game."""
    if not shard_count or shard_ids is None or set(shard_ids) >= set(range(shard_count)):
        return None, 1
    return sorted(shard_ids), shard_count


async def resume_running_games(
    games: RunningGames,
    *,
    shard_count: int | None = None,
    shard_ids: Collection[int] | None = None,
) -> int:
    """Load the running games this process owns and refresh their tables; how many resumed.
    Their clocks are armed once the gateway is up (`RunningGames.arm_all`)."""
    shared = games.shared
    ids, count = shard_filter(shard_count, shard_ids)
    async with shared.db.read() as unit:
        saved = await unit.games.running_games(shard_ids=ids, shard_count=count)
    resumed = 0
    for item in saved:
        game_id = item.game.id
        try:
            game = Game.from_dict(item.state)
        except Exception:
            log.exception("game %s has an unreadable snapshot: not resumed", game_id)
            continue
        if games.peek(game_id) is not None:  # a click loaded it first: as fresh or newer
            continue
        running = games.hold(item.game, game)
        guild_id = running.live.guild_id
        await shared.load_settings(guild_id)
        running.resumed(t("log.resumed", shared.public_locale(guild_id)))
        resumed += 1
    log.info("resumed %d running games", resumed)
    return resumed
