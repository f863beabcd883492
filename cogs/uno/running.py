"""The owner of each running game: its state as last saved, its lock, its clock, and the one path
by which a change is saved and then shown.

Every change of a running game (a click, a command, the turn timer, a computer's move, a player
leaving) is a `commit`: under the game's lock, the change is worked out on a copy of the saved
state, saved in one transaction (saving.py), and only then becomes the game's state. Then
`publish` shows what was saved, change by change in the order they were saved, always in this
order:

  1. the log and any round or match results, in public  (results.py)
  2. the table                                            (table_updater.py: edits coalesced)
  3. the players' live hands                              (live_hands.py)
  4. the turn ping                                        (pings.py)
  5. the clock: the turn timer and the computers' next move, or nothing once it is over

What a failed save does (the reliability rules, docs/operating.md "Reliability"):
- the game stays exactly as last saved: memory is the database, nothing unsaved is shown;
- the actor is told: a conflict with another save "try again" (the state is reloaded first),
  storage that cannot save "could not be saved" (the store's typed errors), anything else an
  internal error;
- the clock is re-armed: a computer or the timer whose move failed tries again by itself, 1 s
  later, doubling up to 30 s, until a save works.
Nothing waits on a worker process while holding the lock: a computer thinks on the saved state
first, and its move is committed only if the game has not changed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import Callable, Coroutine, Iterator, Mapping
from typing import Any

import discord

from bot.discord_internals import delete_channel_message
from bot.engine import Game, GameError, NextRound
from bot.engine import events as E
from bot.engine.ai import is_computer
from bot.i18n import t
from bot.store import (
    GameNotFound,
    GameRecord,
    GameStatus,
    NotSeated,
    StaleVersion,
    StorageUnavailable,
    WrongStatus,
)
from bot.ui.errors import UserError
from cogs.uno.autoplay import apply_computer_move, computer_move, computers_may_act, timeout_moves
from cogs.uno.live import LiveGame
from cogs.uno.live_hands import LiveHands
from cogs.uno.pings import TurnPings
from cogs.uno.results import Results
from cogs.uno.saving import Change, Saving
from cogs.uno.shared import Shared
from cogs.uno.table_updater import TableUpdater
from cogs.uno.turn_clock import now

log = logging.getLogger(__name__)

#: Seconds before a failed automatic move (timer, computer) is tried again; doubled per
#: failure in a row, up to RETRY_MAX: a locked database gets time, a game never stalls.
RETRY_FIRST = 1.0
RETRY_MAX = 30.0

#: Seconds a new round's hands wait for its new table to be posted before they are posted
#: again below it (a failing table heals on its own; the hands do not wait for that).
HAND_WAITS_FOR_TABLE = 5.0

#: The store's answers that mean "another save changed this game first": reload, try again.
_CONFLICTS = (StaleVersion, WrongStatus, GameNotFound, NotSeated)

#: What a change is: a function that changes the draft it is given (a copy of the saved game)
#: and says how (or raises to change nothing).
Plan = Callable[[Game], Change]
#: A clock job: a coroutine function of the running game.
_Job = Callable[..., Coroutine[Any, Any, None]]


class _Moved(Exception):
    """An automatic move found the game changed since it was planned: nothing to do."""


class RunningGame:
    """One running game's owner. Flows get it from `RunningGames.get` and change it only
    through `commit` (then `publish`)."""

    def __init__(self, live: LiveGame, games: RunningGames) -> None:
        self.live = live
        self.lock = games.shared.lock(live.channel_id)  # one per channel: lobby, game, rematch
        self._games = games
        self._outbox: deque[Change] = deque()  # saved, not yet shown
        self._publishing = asyncio.Lock()
        self._clock: dict[str, asyncio.Task[None]] = {}  # "timer"/"computer"/"reload" -> job
        self._failures = 0  # automatic moves that failed to save, in a row
        self._host_ping: int | None = None  # "the round is over" told to the host, while shown
        self._farewell: asyncio.Task[None] | None = None  # its deletion once the game ended
        self.closed = False

    @property
    def game_id(self) -> int:
        return self.live.game_id

    # ------------------------------------------------------------------ the one way to change

    async def commit(self, plan: Plan) -> Change:
        """Work `plan` out on a copy of the saved game, save it, and make it the game's state.
        Raises what `plan` raises, UserError("error.conflict") if another save came first, or
        the store's error; in every case the game is left exactly as last saved."""
        async with self.lock:
            if self.closed:
                raise UserError("error.game_ended")
            live = self.live
            draft = live.game.copy()
            before = draft.version
            change = plan(draft)
            try:
                saved = await self._games.saving.save(live, draft, before, change)
            except _CONFLICTS as exc:
                log.info("game %s changed elsewhere (%s); reloading it", self.game_id, exc)
                await self._reload()
                raise UserError("error.conflict") from None
            live.game = draft
            live.deadline = saved.deadline
            live.turn_key = (draft.current_player, draft.round_number)
            live.timeouts.update(saved.timeouts)
            if change.actor is not None:
                live.acted(change.actor, change.events)
            elif any(isinstance(e, E.RoundStarted) for e in change.events):
                live.baseline = draft.version
            self._failures = 0
            self._outbox.append(change)
        return change

    async def publish(self) -> None:
        """Show every saved change not shown yet, in the order they were saved."""
        async with self._publishing:
            while self._outbox:
                await self._show(self._outbox.popleft())

    async def _show(self, change: Change) -> None:
        games, live = self._games, self.live
        note = None
        if change.log_note is not None and change.timer_actor is not None:
            note = (change.timer_actor, change.log_note)
        new_round = await games.results.announce(live, change.events, note)
        if new_round or live.game.outcome is not None:
            await self._call_off_host_ping()
        elif live.game.round_over and any(isinstance(e, E.RoundEnded) for e in change.events):
            await self._ping_host()
        games.tables.request(self.game_id, repost=new_round)
        if new_round:  # the hands come down below the results and the new table
            await games.tables.flush(self.game_id, timeout=HAND_WAITS_FOR_TABLE)
            games.live_hands.bring_down(live, change.events)
        else:
            timed_out = dict(change.timeouts) if change.timer_actor is not None else {}
            ended = {}
            if change.unseat is not None:
                if change.kicked:
                    ended[change.unseat] = "notice.removed_kicked"
                elif change.timer_actor == change.unseat:
                    ended[change.unseat] = "notice.removed_timeouts"
                else:
                    ended[change.unseat] = "notice.left"
            games.live_hands.refresh(live, change.events, timed_out=timed_out, ended=ended)
        # The game's state may already be a later change's (a commit can land while this one
        # is still being shown, e.g. while the request budget holds its requests back): only
        # the last change to show retires a finished game, so the final one still reaches the
        # table (its render needs the game held).
        over = live.game.outcome is not None and not self._outbox
        if over:
            shown = await games.tables.flush(self.game_id)  # its last state, while it renders
            games.results.posts.final_table_shown(self.game_id, live.channel_id, shown=shown)
            self._retire()
        games.pings.after_change(live)
        self.arm()
        if not over and live.levels and not live.humans:
            await self._abandon_without_humans()

    async def _ping_host(self) -> None:
        """With the server's turn timer off nobody may be watching: the host hears once that
        the round is over and when the next one starts by itself."""
        shared, live = self._games.shared, self.live
        if shared.turn_seconds.get(live.guild_id, 0) or live.deadline is None:
            return  # a timer's table is watched; the countdown on it is enough
        if not live.host_present or is_computer(live.host_id):
            return
        text = t(
            "ping.next_round",
            shared.public_locale(live.guild_id),
            player=f"<@{live.host_id}>",
            when=discord.utils.format_dt(live.deadline, "R"),
        )
        mentions = discord.AllowedMentions(
            users=[discord.Object(id=live.host_id)], everyone=False, roles=False
        )
        posted = await shared.send_public(live.channel_id, content=text, allowed_mentions=mentions)
        if posted is not None:
            self._host_ping = posted.id

    async def _call_off_host_ping(self) -> None:
        message_id, self._host_ping = self._host_ping, None
        if message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await delete_channel_message(
                    self._games.shared.bot, self.live.channel_id, message_id
                )

    async def started(self, *, table_shown: bool) -> None:
        """A game just dealt (its start saved by the lobby): show it and start its clock."""
        if not table_shown:
            self._games.tables.request(self.game_id)
        self._games.pings.after_change(self.live)
        self.arm()

    def stop(self) -> None:
        """The game ended outside a move (`/uno end`, no humans left): no clock, no ping, no
        more changes. The caller holds the lock and has saved the end."""
        self._retire()
        self._games.pings.after_change(self.live)  # calls off the ping: the game is gone

    def _retire(self) -> None:
        self.closed = True
        self._cancel_clock()
        self._games.tables.retire(self.game_id)  # its last table, rendered while it still can be
        self._games.remove(self)
        if self._host_ping is not None:  # (a task: the caller may hold the lock)
            self._farewell = asyncio.create_task(self._call_off_host_ping())

    async def _abandon_without_humans(self) -> None:
        """Computer players do not play on among themselves: the game ends, uncounted."""
        games = self._games
        async with self.lock:
            if self.closed:
                return
            async with games.shared.db.write() as unit:
                done = await unit.games.abandon(self.game_id)
                if done:  # the closed table is saved with the end: shown after a restart too
                    await games.results.save_closed_table(unit, self.live, "notice.no_humans_left")
            self.stop()
        if done:
            await games.tables.flush(self.game_id)
            games.results.posts.deliver(self.live.channel_id)  # (public_posts.py)

    # ------------------------------------------------------------------ the clock

    def arm(self, floor: float = 0.0) -> None:
        """Arm the turn timer and wake the computers, as the saved state requires (no job
        sooner than `floor` seconds: the backoff after a failed save)."""
        live, game = self.live, self.live.game
        if self.closed or game.outcome is not None:
            self._cancel_clock()
            return
        current = game.current_player
        if live.deadline is not None and game.round_over:
            delay = max(floor, (live.deadline - now()).total_seconds())
            self._later("timer", delay, self._next_round, live.deadline)
        elif live.deadline is not None and current is not None and not is_computer(current):
            delay = max(floor, (live.deadline - now()).total_seconds())
            self._later("timer", delay, self._turn_timeout, live.deadline)
        else:
            self._cancel("timer")
        if computers_may_act(live):
            low, high = self._games.computer_delay
            self._later("computer", max(floor, random.uniform(low, max(low, high))), self._computer)
        else:
            self._cancel("computer")

    def _retry_later(self) -> None:
        """An automatic move could not be saved: the clock tries again, later each time."""
        self._failures += 1
        delay = min(RETRY_MAX, RETRY_FIRST * 2 ** (self._failures - 1))
        log.info("game %s: automatic move not saved; trying again in %.0f s", self.game_id, delay)
        self.arm(floor=delay)

    def _later(self, job: str, delay: float, fn: _Job, *args: Any) -> None:
        self._cancel(job)
        self._clock[job] = asyncio.create_task(
            self._run(job, delay, fn, *args), name=f"uno-{job}-{self.game_id}"
        )

    async def _run(self, job: str, delay: float, fn: _Job, *args: Any) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if self._clock.get(job) is asyncio.current_task():
            del self._clock[job]  # running now: what it arms next must not cancel it
        try:
            await fn(*args)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: %s job failed", self.game_id, job)

    def _cancel(self, job: str) -> None:
        task = self._clock.pop(job, None)
        if task is not None:
            task.cancel()

    def stop_clock(self) -> None:
        """No more timer or computer moves (shutdown); the game itself stays as saved."""
        self._cancel_clock()

    def _cancel_clock(self) -> None:
        for job in list(self._clock):
            self._cancel(job)

    async def _automatic(self, plan: Plan) -> None:
        """Commit and show a move nobody clicked; a failed save is tried again later."""
        try:
            await self.commit(plan)
        except _Moved:
            return
        except GameError:
            log.exception("game %s: the engine refused an automatic move", self.game_id)
            return
        except UserError as error:
            if error.key == "error.game_ended":
                return
            self._retry_later()  # a conflict: reloaded, and tried again on the fresh state
            return
        except StorageUnavailable:  # logged by the store, once per fault
            self._retry_later()
            return
        except Exception:
            log.exception("game %s: an automatic move could not be saved", self.game_id)
            self._retry_later()
            return
        await self.publish()

    async def _turn_timeout(self, armed: Any) -> None:
        """The current player's time ran out: the timer plays their turn for them."""
        live = self.live
        locale = self._games.shared.public_locale(live.guild_id)

        def plan(draft: Game) -> Change:
            player = draft.current_player
            if live.deadline != armed or player is None or is_computer(player):
                raise _Moved  # the turn moved on, or the timer was re-armed
            lost = live.timeouts.get(player, 0)
            applied, events, removed = timeout_moves(draft, player, lost)
            return Change(
                applied,
                events,
                actor=None,
                unseat=player if removed else None,
                timer_actor=player,
                timeouts={player: lost + 1},
                log_note=t("turn.timed_out", locale, count=lost + 1),
            )

        await self._automatic(plan)

    async def _next_round(self, armed: Any) -> None:
        """The round's countdown ran out: the next round starts without anyone's click."""
        live = self.live

        def plan(draft: Game) -> Change:
            if live.deadline != armed or not draft.round_over or draft.outcome is not None:
                raise _Moved  # started meanwhile by a click
            seated = [p for p in draft.players if p not in draft.left]
            people = [p for p in seated if not is_computer(p)]
            starter = live.host_id if live.host_id in people else next(iter(people or seated), None)
            if starter is None:
                raise _Moved
            events = draft.apply(starter, NextRound())
            return Change([NextRound()], events, actor=None, players=[starter])

        await self._automatic(plan)

    async def _computer(self) -> None:
        """A computer's move: chosen on the saved state without the lock (the expert thinks in a
        worker process meanwhile), committed only if the game is still where it was."""
        game = self.live.game  # never changed in place: a commit replaces it
        choice = await computer_move(self.live, game)
        if choice is None:
            return
        player, action = choice
        version = game.version

        def plan(draft: Game) -> Change:
            if draft.version != version:
                raise _Moved
            played, events = apply_computer_move(draft, player, action)
            return Change([played], events, actor=player)

        await self._automatic(plan)

    async def _reload(self) -> None:
        """Another save changed the game (another process, a conflict): take the database's
        state in place (the caller holds the lock), or end here if the game is over there."""
        games = self._games
        try:
            async with games.shared.db.read() as unit:
                saved = await unit.games.load(self.game_id)
        except (GameNotFound, WrongStatus):
            self.stop()
            return
        except Exception:
            log.warning("game %s could not be reloaded; trying later", self.game_id, exc_info=True)
            self._later("reload", RETRY_MAX, self._reload_locked)
            return
        if saved.game.status is not GameStatus.RUNNING:
            self.stop()
            return
        self.live.reload(saved.game, Game.from_dict(saved.state))
        self.arm()

    async def _reload_locked(self) -> None:
        async with self.lock:
            if not self.closed:
                await self._reload()


class _States(Mapping[int, LiveGame]):
    """The running games' saved states by game id: what the publishers read."""

    def __init__(self, games: dict[int, RunningGame]) -> None:
        self._games = games

    def __getitem__(self, game_id: int) -> LiveGame:
        return self._games[game_id].live

    def __iter__(self) -> Iterator[int]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)


class RunningGames:
    """Every running game of this process, each with its owner, and what they share: the save,
    the publishers, the settings."""

    def __init__(
        self,
        shared: Shared,
        saving: Saving,
        results: Results,
        tables: TableUpdater,
        live_hands: LiveHands,
        pings: TurnPings,
    ) -> None:
        self.shared = shared
        self.saving = saving
        self.results = results
        self.tables = tables
        self.live_hands = live_hands
        self.pings = pings
        self._games: dict[int, RunningGame] = {}
        shared.live = _States(self._games)  # read by the publishers (tables, hands, pings)
        settings = shared.settings
        self.computer_delay = (settings.computer_delay_min, settings.computer_delay_max)

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
        running = RunningGame(LiveGame.from_record(record, game), self)
        self._games[record.id] = running
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
