"""The owner of each running game: its state as last saved, its lock, its clock, and the one path
by which a change is saved and then shown.

Every change of a running game (a click, a command, the turn timer, a computer's move, a player
leaving) is a `commit`: under the game's lock, the change is worked out on a copy of the saved
state, saved in one transaction (saving.py), and only then becomes the game's state. From
then on the change is the owner's: its own publishing task shows what was saved, change by change in
the order they were saved, and re-arms the clock, whatever happens to the answer to whoever
made the change (that answer is one output among the others, and its failure skips none of them:
a click answered with Discord's 5xx, or on a hand deleted meanwhile, still moves the game on).
`change` lets that answer go first (`ANSWER_HEADSTART`). A change is shown always in this order:

  1. any round or match results, in public         (results.py; `commit` wrote the log lines)
  2. the host's "round over" ping, or its calling off                               (pings.py)
  3. the table                                                        (table.py: edits coalesced)
  4. the players' live hands                                                        (hands.py)
  5. the turn ping                                                                  (pings.py)
  6. the clock: the turn timer and the computers' next move, or nothing once it is over

What a failed save does (the reliability rules, docs/operating.md "Reliability"):
- the game stays exactly as last saved: memory is the database, nothing unsaved is shown;
- the actor is told: a conflict with another save "try again" (the state is reloaded first),
  storage that cannot save "could not be saved" (the store's typed errors), anything else an
  internal error;
- the clock is re-armed: a computer or the timer whose move failed tries again by itself, 1 s
  later, doubling up to 30 s, until a save works.
Nothing waits on a worker process while holding the lock: a computer thinks on the saved state
first, and its move is committed only if the game has not changed meanwhile.

All of one game is held here, made and retired with it: its state, its channel's lock, its
clock (clock.py: timer, computers, reload, and its ping's jobs), its table (table.py), its live
hands (hands.py) and its pings (pings.py); the services only make them. Every write to a
running game goes through its owner: `commit`, `end` (or no humans left), `table_posted`, its
start (`RunningGames.start`, registry.py) and `resumed`; and its ping's own message id, written
by its `GamePing` (pings.py). tests/test_architecture_claims.py holds the store's writers to
this list.

Over 500 lines on purpose: this is one actor, and its handlers (a change, its publication,
start, end, the clock's jobs) read best together; what is not the actor's own (the registry,
the table, the hands, the ping, the save) already lives beside it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from typing import Any

import discord

from bot.engine import Game, GameError, NextRound
from bot.engine import events as E
from bot.engine.ai import is_computer
from bot.host import Interaction
from bot.i18n import t
from bot.store import (
    GameNotFound,
    GameStatus,
    NotSeated,
    StaleVersion,
    StorageUnavailable,
    WrongStatus,
)
from bot.ui.errors import UserError
from bot.ui.outgoing import Outgoing
from cogs.uno.game.clock import Clock, now
from cogs.uno.game.computers import (
    apply_computer_move,
    computer_move,
    computers_may_act,
    timeout_moves,
)
from cogs.uno.game.hand_tokens import Token
from cogs.uno.game.hands import PrivateHands
from cogs.uno.game.live import LiveGame
from cogs.uno.game.pings import TurnPings
from cogs.uno.game.results import Results
from cogs.uno.game.saving import Change, Saving
from cogs.uno.game.table import Rendered, TableUpdater, table_message
from cogs.uno.shared import Shared

log = logging.getLogger(__name__)

#: Seconds before a failed automatic move (timer, computer) is tried again; doubled per
#: failure in a row, up to RETRY_MAX: a locked database gets time, a game never stalls.
RETRY_FIRST = 1.0
RETRY_MAX = 30.0

#: Seconds a new round's hands wait for its new table to be posted before they are posted
#: again below it (a failing table heals on its own; the hands do not wait for that).
HAND_WAITS_FOR_TABLE = 5.0

#: Seconds a change's publication lets the answer to the person who made it go first (their
#: fresh hand before the table and the others' hands); past it, whatever holds the answer up
#: (discord.py retrying Discord's 5xx for up to 25 s), the game is shown and moves on.
ANSWER_HEADSTART = 1.0

#: Seconds the start waits for the hands being dealt before its clock starts (a hand later
#: than that still arrives; the first turn's time counts from then on).
DEAL_TIMEOUT = 5.0

#: The clock's jobs that move the game (its ping's jobs are the ping's: game/pings.py).
_GAME_JOBS = ("timer", "computer", "reload")

#: The store's answers that mean "another save changed this game first": reload, try again.
_CONFLICTS = (StaleVersion, WrongStatus, GameNotFound, NotSeated)

#: What a change is: a function that changes the draft it is given (a copy of the saved game)
#: and says how (or raises to change nothing).
Plan = Callable[[Game], Change]


class _Moved(Exception):
    """An automatic move found the game changed since it was planned: nothing to do."""


@dataclass(frozen=True)
class Services:
    """What every owner is handed at its making (by the registry, game/registry.py): the
    services that make its table, hands and ping, the save, the results; nothing per game."""

    shared: Shared
    saving: Saving
    results: Results
    tables: TableUpdater
    hands: PrivateHands
    pings: TurnPings
    computer_delay: tuple[float, float]  # seconds a computer takes to move, at random


class RunningGame:
    """One running game's owner. Flows get it from `RunningGames.get` and change it only
    through `commit` (then `publish`)."""

    def __init__(
        self, live: LiveGame, services: Services, retired: Callable[[RunningGame], None]
    ) -> None:
        self.live = live
        self.lock = services.shared.lock(live.channel_id)  # one per channel: lobby, game, rematch
        self._services = services
        self._retired = retired  # the registry forgets it
        self._outbox: deque[Change] = deque()  # saved, not yet shown
        self._publishing = asyncio.Lock()
        self._publisher: asyncio.Task[None] | None = None  # shows the outbox, in its own task
        self.clock = Clock(f"game {live.game_id}")  # _GAME_JOBS, and the ping's
        self.table = services.tables.table(live.game_id, self._render_table, self.table_posted)
        self.hands = services.hands.hands(live, self.lock)
        self.ping = services.pings.ping(live, self.clock, lambda: self.closed)
        self._failures = 0  # automatic moves that failed to save, in a row
        self.closed = False

    @property
    def game_id(self) -> int:
        return self.live.game_id

    # ------------------------------------------------------------------ the one way to change

    async def commit(self, plan: Plan, *, after: asyncio.Future[None] | None = None) -> Change:
        """Work `plan` out on a copy of the saved game, save it, and make it the game's state;
        the owner then shows it in its own task (after `after` is done, or ANSWER_HEADSTART s).
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
                saved = await self._services.saving.save(live, draft, before, change)
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
            if any(isinstance(e, E.RoundStarted) for e in change.events):
                live.waited.clear()  # a new break, a new Wait for everyone
            if change.break_until is not None and change.actor is not None:
                live.waited.add(change.actor)
            self._log(change)
            self._failures = 0
            self._outbox.append(change)
            self._publish_soon(after)
        return change

    def _log(self, change: Change) -> None:
        """The table's log tells the saved change, as it becomes the game's state (so a table
        drawn from the state at any moment has its lines; `note`: a clause opening a player's
        line, e.g. the timer's "ran out of time")."""
        live = self.live
        locale = self._services.shared.public_locale(live.guild_id)
        timed = change.timer_actor if change.log_note is not None else None
        if timed is not None and change.log_note is not None:
            live.log.note_for(timed, change.log_note, live.names, locale)
        live.log.record(change.events, live.names, locale)
        lost = change.timeouts.get(timed, 0) if timed is not None else 0
        live.recent.append((tuple(change.events), timed, lost))

    @contextlib.asynccontextmanager
    async def change(self, plan: Plan, *, via: Interaction | None = None) -> AsyncIterator[Change]:
        """`commit(plan)`, whose body answers the person who made the change: their answer goes
        first, and the change is shown by the owner however the body ends (an answer that
        raised, or a click's task cancelled). `via`: the click or command that made it (its
        token may carry the table: `clicked`)."""
        answered: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        try:
            change = await self.commit(plan, after=answered)
            if via is not None:
                self.clicked(via)
            yield change
        finally:
            if not answered.done():
                answered.set_result(None)

    def clicked(self, interaction: Interaction) -> None:
        """A click (or command) in this game: the table may move to its token, on routes exempt
        from Discord's global limit, once its answer is done (game/table_tokens.py)."""
        if not self.closed and interaction.channel_id == self.live.channel_id:
            self.table.reach.offer(interaction)

    def _publish_soon(self, after: asyncio.Future[None] | None) -> None:
        """Make sure the owner's publishing task runs (it shows every change left in the
        outbox before it ends, so one already running takes this change too)."""
        task = self._publisher
        if task is None or task.done():
            self._publisher = asyncio.create_task(
                self._publish_after(after), name=f"uno-publish-{self.game_id}"
            )

    async def _publish_after(self, after: asyncio.Future[None] | None) -> None:
        if after is not None and not after.done():
            await asyncio.wait({after}, timeout=ANSWER_HEADSTART)
        await self.publish()

    async def publish(self) -> None:
        """Show every saved change not shown yet, in the order they were saved. A change whose
        showing failed is logged and left (the next change shows the game's newest state); the
        clock is re-armed whatever happened, so the game never waits on a failed post."""
        async with self._publishing:
            while self._outbox:
                change = self._outbox.popleft()
                try:
                    await self._show(change)
                except Exception:
                    log.exception("game %s: showing a saved change failed", self.game_id)
                    self.arm()

    async def shown(self) -> None:
        """Wait until every change saved so far has been shown (tests, shutdown)."""
        while (task := self._publisher) is not None and not task.done():
            await asyncio.shield(task)

    async def _show(self, change: Change) -> None:
        games, live = self._services, self.live
        new_round = await games.results.announce(live, change.events)
        if new_round or live.game.outcome is not None:
            await self.ping.call_off_host()
        elif live.game.round_over and any(isinstance(e, E.RoundEnded) for e in change.events):
            await self.ping.host_round_over()
        self.table.request(repost=new_round)
        if new_round:  # the hands come down below the results and the new table
            await self.table.flush(timeout=HAND_WAITS_FOR_TABLE)
            self.hands.bring_down(change.events)
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
            self.hands.refresh(change.events, timed_out=timed_out, ended=ended)
        # The game's state may already be a later change's (a commit can land while this one
        # is still being shown, e.g. while the request budget holds its requests back): only
        # the last change to show retires a finished game, so the final one still reaches the
        # table (its render needs the game held).
        over = live.game.outcome is not None and not self._outbox
        if over:
            shown = await self.table.flush()  # its last state, while it still renders
            games.results.posts.final_table_shown(self.game_id, live.channel_id, shown=shown)
            self._retire()
        self.ping.after_change()
        self.arm()
        if not over and live.levels and not live.humans:
            await self._abandon_without_humans()

    async def started(
        self,
        *,
        table_shown: bool,
        reach: Mapping[int, tuple[Token, discord.Locale]] | None = None,
        via: Interaction | None = None,
    ) -> None:
        """A game just dealt (its start saved by the lobby): show it, hand every person their
        hand without a click (`reach`: their last click in the lobby, game/hands.py `deal`),
        and start its clock: the first turn's time counts from when the hands were dealt.
        `via`: the Start click; when its answer edited the lobby into the table, the table is
        edited through its token (`@original`) from now on, else posted as its follow-up."""
        if via is not None:
            self._start_token(via, table_shown=table_shown)
        if not table_shown:
            self.table.request()
        if reach:
            began = now()
            dealing = asyncio.ensure_future(self.hands.deal(reach))
            await asyncio.wait({dealing}, timeout=DEAL_TIMEOUT)  # (late ones arrive later)
            await self._first_turn_from(now() - began)
        self.ping.after_change()
        self.arm()

    async def _first_turn_from(self, dealing: timedelta) -> None:
        """Move the first turn's deadline on by the time the deal took (saved: a restart keeps
        it), so nobody's time runs while their hand is on its way."""
        async with self.lock:
            live = self.live
            if self.closed or live.deadline is None or dealing <= timedelta(0):
                return
            deadline = live.deadline + dealing
            try:
                async with self._services.shared.db.write() as unit:
                    await unit.games.set_turn_deadline(self.game_id, deadline)
            except Exception:  # the deadline as saved still holds: a little less time
                log.warning("game %s: the first turn's deadline stays as saved", self.game_id)
                return
            live.deadline = deadline
        self.table.request()  # its countdown

    def _start_token(self, start: Interaction, *, table_shown: bool) -> None:
        """The Start click's token carries the table: the clicked message itself when the
        answer edited it into the table, else (a command, an answer elsewhere) a follow-up."""
        message_id = self.live.table_message_id
        clicked = start.message.id if start.message is not None else None
        edited = start.response.type in (
            discord.InteractionResponseType.message_update,
            discord.InteractionResponseType.deferred_message_update,
        )
        if table_shown and edited and message_id is not None and clicked == message_id:
            self.table.reach.posted(start, message_id, original=True)
        else:
            self.clicked(start)

    def resumed(self, note: str) -> None:
        """Loaded again at start-up: the log says so, and the table shows it (re-posted
        instead when old or gone). Its clock is armed once the gateway is up."""
        self.live.log.note(note)
        self.table.request()

    def _render_table(self) -> Rendered:
        """The table as the saved state shows it (for its updates: game/table.py)."""
        live = self.live
        return live.channel_id, live.table_message_id, table_message(self._services.shared, live)

    async def table_posted(self, message_id: int) -> None:
        """The table was posted anew (its updates, `/uno table`): the game's record says where.
        Takes no lock: a table is posted anew while the lock is held (`/uno table`) or not."""
        self.live.table_message_id = message_id
        async with self._services.shared.db.write() as unit:
            await unit.games.set_table_message(self.game_id, message_id)

    async def end(self, ended_by: int, closed: Callable[[bool], str]) -> tuple[Outgoing, str]:
        """`/uno end` by `ended_by`: the game is abandoned (nothing counted on the points board;
        a started match rated, match_rating.py), saved, then the owner stops. The closed table
        to show, once an update in flight has landed, and what it says (`closed(rated)`).
        UserError("error.game_ended") if it had already ended."""
        async with self.lock:
            if self.closed:
                raise UserError("error.game_ended")
            done, rated = await self._save_end(ended_by)
            if not done:
                raise UserError("error.game_ended")
            self.stop()  # no clock, no ping, no more moves
            text = closed(rated)
            table = self._services.results.closed_table(self.live, text)
        await self.table.flush(timeout=5)  # an update in flight must not land after this
        return table, text

    async def _save_end(
        self, ended_by: int | None = None, closed: str | None = None
    ) -> tuple[bool, bool]:
        """Save the game as abandoned: (whether it was still open, whether it was rated).
        `closed`: the catalogue key of why, whose closed table is saved with the end (and so
        shown after a restart too: outbox.py)."""
        games = self._services
        async with games.shared.db.write() as unit:
            done = await unit.games.abandon(self.game_id, ended_by=ended_by)
            rated = done and bool(await unit.ratings.changes(self.game_id))
            if done and closed is not None:
                await games.results.save_closed_table(unit, self.live, closed)
        return done, rated

    def stop(self) -> None:
        """The game ended outside a move (`/uno end`, no humans left): no clock, no ping, no
        more changes. The caller holds the lock and has saved the end."""
        self._retire()
        self.ping.after_change()  # calls off the ping: the game is gone

    def _retire(self) -> None:
        """The game leaves the running games: its clock stops; its table keeps its last state
        for the edit its end requested, and its hands their last edits (they finish on their
        own); its ping is called off by the caller (`after_change`)."""
        self.closed = True
        self._cancel_clock()
        self.table.retire()  # its last table, rendered while it still can be
        self._retired(self)
        self.ping.farewell()  # the host's "round over" ping deleted

    async def _abandon_without_humans(self) -> None:
        """Computer players do not play on among themselves: the game ends, uncounted."""
        games = self._services
        async with self.lock:
            if self.closed:
                return
            done, _ = await self._save_end(closed="notice.no_humans_left")
            self.stop()
        if done:
            await self.table.flush()
            games.results.posts.deliver(self.live.channel_id)  # (outbox.py)

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
            self.clock.at("timer", delay, partial(self._next_round, live.deadline))
        elif live.deadline is not None and current is not None and not is_computer(current):
            delay = max(floor, (live.deadline - now()).total_seconds())
            self.clock.at("timer", delay, partial(self._turn_timeout, live.deadline))
        else:
            self.clock.cancel("timer")
        if computers_may_act(live):
            low, high = self._services.computer_delay
            delay = max(floor, random.uniform(low, max(low, high)))
            self.clock.at("computer", delay, self._computer)
        else:
            self.clock.cancel("computer")

    def _retry_later(self) -> None:
        """An automatic move could not be saved: the clock tries again, later each time."""
        self._failures += 1
        delay = min(RETRY_MAX, RETRY_FIRST * 2 ** (self._failures - 1))
        log.info("game %s: automatic move not saved; trying again in %.0f s", self.game_id, delay)
        self.arm(floor=delay)

    def stop_clock(self) -> None:
        """No more timer or computer moves (shutdown); the game itself stays as saved."""
        self._cancel_clock()

    def _cancel_clock(self) -> None:
        for job in _GAME_JOBS:
            self.clock.cancel(job)

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
        await self.shown()  # (shown by the owner's publishing task: this job ends after it)

    async def _turn_timeout(self, armed: Any) -> None:
        """The current player's time ran out: the timer plays their turn for them."""
        live = self.live
        locale = self._services.shared.public_locale(live.guild_id)

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
        games = self._services
        try:
            async with games.shared.db.read() as unit:
                saved = await unit.games.load(self.game_id)
        except (GameNotFound, WrongStatus):
            self.stop()
            return
        except Exception:
            log.warning("game %s could not be reloaded; trying later", self.game_id, exc_info=True)
            self.clock.at("reload", RETRY_MAX, self._reload_locked)
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
