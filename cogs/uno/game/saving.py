"""The per-change save: one transaction per change of a running game, before anything is shown.

The snapshot, the action log, the leaderboard counters, any round/match result and an unseat
are written together under the expected version. A plain move (nearly every click) goes through
the store's lean `save_click`, with the seat map of the live game; one that ends a round or the
match, or unseats a player, through a unit of work. Nothing here changes the live game: the
running game (game/owner.py) adopts the new state only once this returned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.engine import Action, Game
from bot.engine import events as E
from bot.engine.ai import is_computer
from bot.engine.standing import finishing_places
from bot.store import UNCHANGED, ClickSave, NewAction, UnitOfWork
from cogs.uno.game.clock import next_deadline
from cogs.uno.game.live import LiveGame, stat_counters
from cogs.uno.game.results import final_table_post, results_post
from cogs.uno.shared import Shared

#: Events whose save also records a result (a round's score, the end of the match).
_SCORED = (E.RoundEnded, E.MatchEnded)


@dataclass(slots=True)
class Change:
    """What one change did to a copy of the game, and how it is saved and shown."""

    applied: list[Action]
    events: list[E.Event]
    actor: int | None  # who acted (a player, a kicker, a computer); None: the turn timer
    unseat: int | None = None  # a player who leaves the game with this change
    kicked: bool = False  # ...because the host kicked them (counts as nothing for them)
    timer_actor: int | None = None  # whose turn the timer played (their deadline moves on)
    timeouts: dict[int, int] = field(default_factory=dict)  # turns in a row lost, as changed
    log_note: str | None = None  # a clause opening `timer_actor`'s log line ("ran out of time")
    # Whose action each of `applied` was, when not `timer_actor` or `actor` (a next round
    # started by the countdown, a kick): the game's record replays each for its player.
    players: list[int] = field(default_factory=list)
    # A Wait in a round's break (by `actor`): the break now ends then, and nothing else
    # changes (no action, no new version: the game's record has nothing to replay).
    break_until: datetime | None = None

    def player_of(self, index: int) -> int | None:
        if self.players:
            return self.players[index]
        return self.timer_actor if self.timer_actor is not None else self.actor


@dataclass(slots=True)
class Saved:
    """What the save decided besides the state: the turn's deadline and the timeout runs."""

    deadline: datetime | None
    timeouts: dict[int, int]


class Saving:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    async def save(self, live: LiveGame, game: Game, before: int, change: Change) -> Saved:
        """Save `game` (a copy of `live.game` at version `before`, changed by `change`).
        Raises the store's errors (StaleVersion, StorageUnavailable, ...) with nothing written."""
        if change.break_until is not None:  # a Wait: the deadline alone, at the same version
            async with self.shared.db.write() as unit:
                await unit.games.move_deadline(
                    live.game_id, expected_version=before, deadline=change.break_until
                )
            return Saved(change.break_until, {})
        timeouts = dict(change.timeouts)
        actor = change.actor
        if actor is not None and live.timeouts.get(actor) and actor not in timeouts:
            timeouts[actor] = 0  # acting in time ends a run of timeouts
        clock_actor = change.timer_actor if change.timer_actor is not None else actor
        changed, deadline = next_deadline(
            live,
            game,
            clock_actor,
            self.shared.turn_seconds,
            self.shared.settings.uno_test_timer_scale,
            self.shared.round_breaks,
        )
        records = [
            NewAction(
                version=before + i + 1,
                action=a.code,
                actor_id=actor,
                detail=_player_detail(change.player_of(i)),
            )
            for i, a in enumerate(change.applied)
        ]
        people = {p: c for p, c in stat_counters(change.events).items() if not is_computer(p)}
        if sum(not is_computer(p) for p in live.names) < 2:
            people = {}  # practice (one person against computers) counts for nobody
        click = ClickSave(
            game_id=live.game_id,
            guild_id=live.guild_id,
            expected_version=before,
            state=game.to_dict(),
            actions=records,
            turn_deadline=deadline if changed else UNCHANGED,
            counters=people,
            names={p: live.names.get(p, str(p)) for p in people},
            timeouts=timeouts,
            game=live.game_kind,
        )
        scored = any(isinstance(e, _SCORED) for e in change.events)
        if change.unseat is None and not scored:
            await self.shared.db.save_click(click)
        else:
            await self._save_with_results(click, change, game, live)
        return Saved(deadline, timeouts)

    async def _save_with_results(
        self, click: ClickSave, change: Change, game: Game, live: LiveGame
    ) -> None:
        """A move that ends a round or the match, or unseats a player: one unit of work (run
        again from the start on PostgreSQL after a deadlock or serialization failure). A
        round's results are saved with it, as the outbox's post (outbox.py)."""
        game_id = click.game_id
        events = change.events
        locale = self.shared.public_locale(live.guild_id)

        async def work(unit: UnitOfWork) -> None:
            await unit.games.save_action(
                game_id,
                expected_version=click.expected_version,
                state=click.state,
                actions=click.actions,
                turn_deadline=click.turn_deadline,
            )
            if click.timeouts:
                await unit.games.set_timeouts(game_id, click.timeouts)
            if change.unseat is not None:
                await unit.games.unseat(game_id, change.unseat, kicked=change.kicked)
            if click.counters:
                await unit.stats.add_counters(game_id, click.counters)
            for e in events:
                if isinstance(e, E.RoundEnded):
                    o = e.outcome
                    await unit.games.finish_round(
                        game_id, o.round_number, winner_id=o.winner, points=o.points, seed=e.seed
                    )
                elif isinstance(e, E.MatchEnded):
                    winners = e.outcome.winners
                    await unit.games.finish(
                        game_id,
                        winner_id=winners[0] if len(winners) == 1 else None,
                        walkover=any(isinstance(x, E.PlayerLeft) for x in events),
                        places=finishing_places(game.rules, e.outcome),  # for the ratings
                    )
            for e in events:  # after the match's end: its rating changes are saved by now
                if isinstance(e, E.RoundEnded):
                    ratings = await unit.ratings.changes(game_id) if game.outcome else None
                    provisional = await unit.ratings.provisional(game_id) if ratings else set()
                    await unit.posts.add(
                        guild_id=live.guild_id,
                        channel_id=live.channel_id,
                        game_id=game_id,
                        kind="results",
                        payload=results_post(live, game, e, locale, ratings or None, provisional),
                    )
            final = final_table_post(live, game, events, locale) if game.outcome else None
            if final is not None:  # shown by this process; by the next if it dies first
                await unit.posts.add(
                    guild_id=live.guild_id,
                    channel_id=live.channel_id,
                    game_id=game_id,
                    kind="table",
                    payload=final,
                    standby=True,
                )

        await self.shared.db.transact(work)


def _player_detail(player: int | None) -> dict[str, int] | None:
    """The logged action's player (records/exports.py replays each action for its player)."""
    return None if player is None else {"player": player}
