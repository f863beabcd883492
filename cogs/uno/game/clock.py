"""Delayed jobs keyed by what they are for: one per key, a new one replaces the old.

The one clock of the bot: each running game's owner has one (game/owner.py: its turn timer, its
computers' moves, a reload after a failed one, and its turn ping, game/pings.py), and the lobbies
share one for their expiry (lobby/lobbies.py). A job that is running is no longer registered, so it
may schedule its own successor under the same key without cancelling itself; a job that fails is
logged, never lost silently, and takes no other job with it.

Also when the current turn times out: a deadline computed with each save, from the server's
timer (`next_deadline`), which the owner's clock then fires (game/owner.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable, Mapping
from datetime import UTC, datetime, timedelta

from bot.engine import Game
from bot.engine.ai import is_computer
from bot.store.records import ROUND_BREAK_DEFAULT
from cogs.uno.game.live import LiveGame

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class Clock:
    def __init__(self, name: str = "uno") -> None:
        """`name`: what the clock is for, in its tasks' names and its log lines."""
        self.name = name
        self._tasks: dict[Hashable, asyncio.Task[None]] = {}

    def at(self, key: Hashable, delay: float, job: Job) -> None:
        """Run `job` in `delay` seconds (now if not positive), replacing `key`'s pending job."""
        self.cancel(key)
        self._tasks[key] = asyncio.create_task(
            self._run(key, delay, job), name=f"{self.name}-{key}"
        )

    def cancel(self, key: Hashable) -> None:
        task = self._tasks.pop(key, None)
        if task is not None:
            task.cancel()

    def cancel_all(self) -> None:
        """Cancel every pending job (the ones running now finish)."""
        for key in list(self._tasks):
            self.cancel(key)

    async def _run(self, key: Hashable, delay: float, job: Job) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if self._tasks.get(key) is asyncio.current_task():
            del self._tasks[key]  # running now: what it arms next must not cancel it
        try:
            await job()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s: %s job failed", self.name, key)


#: Turns in a row a player may lose to the timer; then they leave the game.
MAX_TIMEOUTS = 3
#: Seconds after a round's end until the next starts by itself, unless the server's
#: `round_break` says otherwise (GuildConfig.round_break_seconds): long enough to read the
#: results, short enough that nobody waits on an absent host, whatever the turn timer.
NEXT_ROUND_SECONDS = ROUND_BREAK_DEFAULT
#: Seconds a Wait adds to a round's break (each seated person may ask once per break).
WAIT_SECONDS = 30


def now() -> datetime:
    return datetime.now(UTC)


def next_deadline(
    live: LiveGame,
    game: Game,
    actor: int | None,
    turn_seconds: Mapping[int, int],
    timer_scale: float = 1.0,
    round_breaks: Mapping[int, int] | None = None,
) -> tuple[bool, datetime | None]:
    """(changed, deadline) when `live` (as last saved) becomes `game` by `actor`'s action: a new
    turn gets a new deadline, and so does a round's end (when the next round starts).
    `turn_seconds` is each server's turn timer (guild id -> seconds, 0 or missing: off);
    `round_breaks` each server's break between rounds (missing: NEXT_ROUND_SECONDS);
    `timer_scale` stretches every timer (the UNO_TEST_TIMER_SCALE test hook)."""
    current = game.current_player
    key = (current, game.round_number)
    if key == live.turn_key and actor != current:
        return False, live.deadline
    seconds = turn_seconds.get(live.guild_id, 0)
    if game.round_over and game.outcome is None:  # the next round starts by itself
        wait = (round_breaks or {}).get(live.guild_id, NEXT_ROUND_SECONDS)
        return True, now() + timedelta(seconds=wait * timer_scale)
    if current is None or is_computer(current) or not seconds:
        return True, None
    return True, now() + timedelta(seconds=seconds * timer_scale)


def waited_deadline(live: LiveGame, timer_scale: float = 1.0) -> datetime:
    """When a round's break ends after a Wait: WAIT_SECONDS later than it would have (counted
    from now if its countdown already ran out while the Wait was on its way)."""
    start = max(live.deadline or now(), now())
    return start + timedelta(seconds=WAIT_SECONDS * timer_scale)
