"""Rating a match at its end, however it ends: who takes part, at what place (docs/playing.md,
"Skill ratings and seasons").

A match is rated when it counted for two or more people, its hand size is a real game
(`rated_hand`) and somebody moved: a person or a computer made a move, not only the turn timer.
Then everyone still seated is ranked by the standing, whoever ended it with `/uno end` after
them, and everyone who left or was removed after timeouts below all of those, the last to
leave highest: leaving a started match is losing it. A kicked player is not rated. Computers
take part at their level's fixed strength. Runs inside the unit of work that ends the match
(`GameRepository.finish` or `abandon`), so a restart in between cannot lose or repeat it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.models import Game, GameAction
from bot.store.rating_model import computer_strength, rated_hand, rating_places
from bot.store.ratings import RatingRepository
from bot.store.roster import Roster

#: Logged actions that are not a move of the match.
_NOT_MOVES = ("start", "leave")


async def ratable(session: AsyncSession, roster: Roster) -> bool:
    """Whether the match may be rated: counted, a real hand size, and somebody moved."""
    if not roster.rated:
        return False
    rules = await session.scalar(select(Game.rules).where(Game.id == roster.game_id))
    if not rated_hand(int((rules or {}).get("hand_size", 7))):
        return False
    moved = await session.scalar(
        select(
            exists().where(
                GameAction.game_id == roster.game_id,
                GameAction.actor_id.is_not(None),
                GameAction.action.not_in(_NOT_MOVES),
            )
        )
    )
    return bool(moved)


async def rate_ended_match(
    session: AsyncSession,
    roster: Roster,
    standing: Mapping[int, int],
    now: datetime,
    *,
    ender: int | None = None,
) -> bool:
    """Rate the match `roster` ends (`standing`: the places of those still seated, 1 the
    winner; one missing shares the last of them). `ender`: who ended it with `/uno end`.
    False, and nothing changed, if it is not to be rated or was rated already."""
    if not await ratable(session, roster):
        return False
    seats = roster.seats
    seated = [p for p, seat in seats.items() if seat.left_at is None]
    if ender is not None and (ender not in seated or seats[ender].is_bot):
        ender = None  # a moderator, or a host who is not playing: nobody lost by ending it
    last = max((standing[p] for p in seated if p in standing), default=1)
    stayers = {p: standing.get(p, last) for p in seated if p != ender}
    leavers = sorted(
        (p for p, seat in seats.items() if seat.left_at is not None and not seat.kicked),
        key=lambda p: (seats[p].left_at, p),
    )
    places = rating_places(stayers, [p for p in leavers if not seats[p].is_bot], ender)
    if len(set(places.values())) < 2:
        return False  # nobody finished ahead of anybody: nothing to learn
    names = {p: seats[p].display_name for p in places if not seats[p].is_bot}
    computers = {p: computer_strength(seats[p].bot_level) for p in places if seats[p].is_bot}
    return await RatingRepository(session).rate_match(
        roster.game_id, places, names, now, computers=computers
    )
