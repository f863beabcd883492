"""What happens without a click: turn timers, computer players' moves, lobbies that expire.

Every move made here goes through the same path as a click (channel lock, version check, save,
table update). The flows that publish a move and run lobbies import this module, so what it
needs from them is passed in as callbacks, never imported back. Deadlines are stored with each
save (`games.turn_deadline`) and re-armed at start-up, so a restart neither loses a timer nor
resets it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bot.engine import Decision, GameError, Leave, NextRound, view_for
from bot.engine import events as E
from bot.i18n import t
from bot.store import GameStatus
from bot.ui.table import is_computer
from cogs.uno.house import House
from cogs.uno.live import LiveGame
from cogs.uno.saving import Saving
from cogs.uno.scheduler import Scheduler
from cogs.uno.thinking import decision_seed, think
from cogs.uno.turn_clock import MAX_TIMEOUTS, now

log = logging.getLogger(__name__)

#: Decisions that finish the timed-out player's turn after their first default action.
_FOLLOW_UPS = (Decision.PLAY_DRAWN, Decision.CHOOSE_COLOR, Decision.CHOOSE_TARGET)
# Computer player names: "🤖 Ada (hard)".
COMPUTER_NAMES = ("Ada", "Alan", "Grace", "Linus", "Edsger", "Barbara", "Ken", "Margaret", "Donald")


def computer_name(taken: list[str], level: str, locale: object = None) -> str:
    free = [n for n in COMPUTER_NAMES if not any(n in name for name in taken)]
    base = free[0] if free else f"#{len(taken) + 1}"
    return t("computer.name", locale, name=base, level=t(f"computer.level.{level}", locale))


class Autoplay:
    def __init__(
        self,
        house: House,
        saving: Saving,
        after_moves: Callable[[LiveGame, list[E.Event]], Awaitable[None]],
        expire_lobby: Callable[[int], Awaitable[None]],
    ) -> None:
        self.house = house
        self.saving = saving
        self.after_moves = after_moves  # results.py's, which wakes us back: passed in
        self.expire_lobby = expire_lobby  # lobby.py's, which arms us: passed in
        self.scheduler = Scheduler()
        # Others that follow every change of a running game (turn pings), told first.
        self.followers: list[Callable[[LiveGame], None]] = []
        settings = getattr(house.bot, "settings", None)
        self.delay_range = (
            getattr(settings, "computer_delay_min", 0.6),
            getattr(settings, "computer_delay_max", 1.5),
        )
        self.lobby_close_after = float(getattr(settings, "lobby_close_after", 1800))

    async def close(self) -> None:
        await self.scheduler.close()

    # ------------------------------------------------------------------ scheduling

    def after_change(self, live: LiveGame) -> None:
        """Arm the turn timer and wake the computer players, as the new state requires."""
        for follow in self.followers:
            follow(live)
        game_id = live.game_id
        game = live.game
        if game.outcome is not None or self.house.live.get(game_id) is not live:
            self.scheduler.cancel(("turn", game_id))
            self.scheduler.cancel(("ai", game_id))
            return
        current = game.current_player
        if live.deadline is not None and current is not None and not is_computer(current):
            delay = (live.deadline - now()).total_seconds()
            job = partial(self._turn_timeout, game_id, live.deadline)
            self.scheduler.at(("turn", game_id), delay, job)
        else:
            self.scheduler.cancel(("turn", game_id))
        if self._computers_may_act(live):
            low, high = self.delay_range
            delay = random.uniform(low, max(low, high))
            self.scheduler.at(("ai", game_id), delay, partial(self._computer_move, game_id))

    @staticmethod
    def _computers_may_act(live: LiveGame) -> bool:
        game = live.game
        for player in live.levels:
            if player in game.left:
                continue
            legal = game.legal_actions(player)
            if legal and not isinstance(legal[0], NextRound):
                return True
        return False

    # ------------------------------------------------------------------ the turn timer

    async def _turn_timeout(self, game_id: int, armed: datetime) -> None:
        house = self.house
        live = house.live.get(game_id)
        if live is None:
            return
        async with house.lock(live.channel_id):
            live = house.live.get(game_id)
            if live is None or live.deadline != armed:
                return  # the turn moved on, or the timer was re-armed
            game = live.game
            player = game.current_player
            if player is None or is_computer(player):
                return
            before = game.version
            applied: list[Any] = []
            events: list[E.Event] = []
            try:
                while True:
                    action = game.default_action(player)
                    if action is None:
                        break
                    events += game.apply(player, action)
                    applied.append(action)
                    if game.current_player != player or game.decision not in _FOLLOW_UPS:
                        break
                    if len(applied) >= 4:
                        break
                count = live.timeouts.get(player, 0) + 1
                live.timeouts[player] = count
                removed = count >= MAX_TIMEOUTS and game.outcome is None
                if removed:
                    events += game.apply(player, Leave())
                    applied.append(Leave())
            except GameError:
                log.exception("timeout in game %s could not be applied", game_id)
                house.forget(game_id)
                return
            locale = house.public_locale(live.guild_id)
            clause = t("turn.timed_out", locale, count=count)
            live.log.note_for(player, clause, live.names, locale)
            await self.saving.save_moves(
                live,
                before,
                None,
                applied,
                events,
                unseat=player if removed else None,
                timer_actor=player,
                timeouts={player: count},
            )
        await self.after_moves(live, events)

    # ------------------------------------------------------------------ computer players

    async def _computer_move(self, game_id: int) -> None:
        house = self.house
        live = house.live.get(game_id)
        if live is None:
            return
        async with house.lock(live.channel_id):
            live = house.live.get(game_id)
            if live is None or live.game.outcome is not None:
                return
            game = live.game
            current = game.current_player
            order = sorted(live.levels, key=lambda p: p != current)
            for player in order:
                if player in game.left:
                    continue
                action = await self._computer_choice_off_loop(live, player)
                if action is None or isinstance(action, NextRound):
                    continue
                before = game.version
                try:
                    events = game.apply(player, action)
                except GameError:
                    # Never leave a game waiting on a computer: the engine's default move.
                    log.warning("computer %s chose an illegal %s", player, action.code)
                    action = game.default_action(player)
                    if action is None or isinstance(action, NextRound):
                        continue
                    events = game.apply(player, action)
                await self.saving.save_moves(live, before, player, [action], events)
                break
            else:
                return
        await self.after_moves(live, events)

    @staticmethod
    async def _computer_choice_off_loop(live: LiveGame, player: int) -> Any:
        """A computer that thinks (the expert searches for up to its budget) does so in a worker
        process (thinking.py), so the bot goes on answering; the channel lock held meanwhile
        keeps the game still, and the player reads only the view built here."""
        computer = live.computer(player)
        if not getattr(computer, "thinks_long", False):
            return Autoplay._computer_choice(live, player)
        game = live.game
        seed = decision_seed(live.game_id, player, game.version)
        try:
            return await think(live.level(player), seed, view_for(game, player))
        except Exception:
            log.exception("computer %s of game %s failed to choose", player, live.game_id)
            return live.game.default_action(player)

    @staticmethod
    def _computer_choice(live: LiveGame, player: int) -> Any:
        """What the computer in this seat plays; the engine's default move if it fails."""
        try:
            return live.computer(player).choose(view_for(live.game, player))
        except Exception:
            log.exception("computer %s of game %s failed to choose", player, live.game_id)
            return live.game.default_action(player)

    # ------------------------------------------------------------------ lobbies

    def arm_lobby(self, game_id: int, created_at: datetime) -> None:
        closes = created_at + timedelta(seconds=self.lobby_close_after)
        delay = (closes - now()).total_seconds()
        self.scheduler.at(("lobby", game_id), delay, partial(self.expire_lobby, game_id))

    def lobby_gone(self, game_id: int) -> None:
        self.scheduler.cancel(("lobby", game_id))

    # ------------------------------------------------------------------ start-up

    async def resume(self) -> None:
        """Re-arm every stored deadline (a past one fires now), lobby expiry and computers."""
        house = self.house
        settings = getattr(house.bot, "settings", None)
        shard_count = getattr(settings, "shard_count", None) or 1
        shard_ids = getattr(settings, "shard_ids", None)
        async with house.db.read() as unit:
            lobbies = await unit.games.lobbies()
            running = await unit.games.running_games(
                shard_ids=shard_ids if shard_count > 1 else None, shard_count=shard_count
            )

        def ours(guild_id: int) -> bool:
            return shard_ids is None or (guild_id >> 22) % shard_count in shard_ids

        for record in lobbies:
            if ours(record.guild_id):
                self.arm_lobby(record.id, record.created_at)
        for saved in running:
            record = saved.game
            if record.turn_deadline is None and not any(s.is_bot for s in record.seats):
                continue
            try:
                live = await house.get_live(record.id)
            except Exception:
                log.exception("could not resume the timers of game %s", record.id)
                continue
            if record.status is GameStatus.RUNNING:
                self.after_change(live)
