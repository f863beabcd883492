"""The per-click save: one transaction per move, before anything is answered or shown.

The snapshot, the action log, the leaderboard counters, any round/match result and an unseat
are written together under the expected version; a conflict forgets the live game (it is
reloaded from the database on the next click) and the click is told so. A plain move (nearly
every click) goes through the store's lean `save_click`, with the seat map of the live game;
one that ends a round or the match, or unseats a player, through a unit of work.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.engine import Action
from bot.engine import events as E
from bot.store import (
    UNCHANGED,
    ClickSave,
    GameNotFound,
    NewAction,
    NotSeated,
    StaleVersion,
    StorageUnavailable,
    WrongStatus,
)
from bot.ui.errors import UserError
from cogs.uno.house import House
from cogs.uno.live import LiveGame, stat_counters
from cogs.uno.turn_clock import next_deadline

log = logging.getLogger(__name__)

#: Events whose save also records a result (a round's score, the end of the match).
_SCORED = (E.RoundEnded, E.MatchEnded)


class Saving:
    def __init__(self, house: House) -> None:
        self.house = house

    async def save(
        self,
        live: LiveGame,
        before: int,
        user: int | None,
        applied: list[Action],
        events: list[E.Event],
        *,
        unseat: int | None = None,
        kicked: bool = False,
        timer_actor: int | None = None,
        timeouts: dict[int, int] | None = None,
    ) -> None:
        game = live.game
        timeouts = dict(timeouts or {})
        if user is not None and live.timeouts.get(user):
            live.timeouts[user] = 0  # acting in time ends a run of timeouts
            timeouts[user] = 0
        changed, deadline = next_deadline(
            live, timer_actor if timer_actor is not None else user, self.house.turn_seconds
        )
        records = [
            NewAction(version=before + i + 1, action=a.code, actor_id=user)
            for i, a in enumerate(applied)
        ]
        people = {p: c for p, c in stat_counters(events).items() if p not in live.levels}
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
        )
        try:
            if unseat is None and not any(isinstance(e, _SCORED) for e in events):
                await self.house.db.save_click(click)
            else:
                await self._save_with_results(click, events, unseat, kicked)
        except (StaleVersion, WrongStatus, GameNotFound, NotSeated):
            self.house.forget(live.game_id)
            raise UserError("error.conflict") from None
        except Exception:
            self.house.forget(live.game_id)
            raise
        live.deadline = deadline
        live.turn_key = (game.current_player, game.round_number)

    async def _save_with_results(
        self, click: ClickSave, events: list[E.Event], unseat: int | None, kicked: bool
    ) -> None:
        """A move that ends a round or the match, or unseats a player: one unit of work."""
        game_id = click.game_id
        async with self.house.db.write() as unit:
            await unit.games.save_action(
                game_id,
                expected_version=click.expected_version,
                state=click.state,
                actions=click.actions,
                turn_deadline=click.turn_deadline,
            )
            if click.timeouts:
                await unit.games.set_timeouts(game_id, click.timeouts)
            if unseat is not None:
                await unit.games.unseat(game_id, unseat, kicked=kicked)
            if click.counters:
                await unit.stats.add_counters(game_id, click.counters)
            for e in events:
                if isinstance(e, E.RoundEnded):
                    o = e.outcome
                    await unit.games.finish_round(
                        game_id, o.round_number, winner_id=o.winner, points=o.points
                    )
                elif isinstance(e, E.MatchEnded):
                    winners = e.outcome.winners
                    await unit.games.finish(
                        game_id,
                        winner_id=winners[0] if len(winners) == 1 else None,
                        walkover=any(isinstance(x, E.PlayerLeft) for x in events),
                    )

    async def save_moves(
        self,
        live: LiveGame,
        before: int,
        user: int | None,
        applied: list[Action],
        events: list[E.Event],
        **kwargs: Any,
    ) -> None:
        """Save moves made without a click (a timer, a computer player); the lock is held."""
        try:
            await self.save(live, before, user, applied, events, **kwargs)
        except UserError:
            log.info("an automatic move in game %s lost a race; reloaded", live.game_id)
        except StorageUnavailable:
            pass  # logged once by the store; the game is reloaded once saving works again
