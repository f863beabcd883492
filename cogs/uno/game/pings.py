"""Turn pings: a short public message that notifies the player whose turn it is.

The table names the current player, but an edit never notifies anybody (DISCORD.md), so a player
who looked away would not know their turn came. After a grace of the server's `turn_ping`
seconds (off, at once, or after N seconds) the player gets a new message that mentions them, and
only them (`allowed_mentions`). A player who acts within the grace is never pinged, so a fast
table is not spammed. A channel holds at most one reminder: it is deleted as soon as the turn is
taken, the turn moves on, or the game ends. Computer players are never pinged.

Each running game's owner holds its game's reminder (`GamePing`, made by `TurnPings.ping`:
whose turn it is for, the reminder shown, its pending post on the owner's clock) and tells it of
every change (step 4 of game/owner.py's publication: a saved move, a start, an end); it reads
nothing back from the flows. The reminder shown in a channel
is also stored (`games.ping_message_id`: written when one is posted or deleted, never per
move), so that the next process deletes the one a restart left behind: `clear_leftovers` at
start-up, and in any case before this process posts its first reminder (so a channel never
shows two).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from functools import partial

import discord

from bot.engine import Decision
from bot.engine.ai import is_computer
from bot.host import UnoHost
from bot.i18n import t
from bot.request_budget import Priority, priority
from bot.store import StorageUnavailable
from bot.ui.outgoing import Outgoing
from cogs.uno.game.clock import MAX_TIMEOUTS, Clock
from cogs.uno.game.live import LiveGame
from cogs.uno.shared import Shared

log = logging.getLogger(__name__)

#: Decisions that wait for the current player (not for the host's "next round").
_IN_TURN = (
    Decision.PLAY,
    Decision.PLAY_DRAWN,
    Decision.CHOOSE_COLOR,
    Decision.CHOOSE_TARGET,
    Decision.RESPOND,
)
#: Whose turn a reminder is for: (player, round).
TurnKey = tuple[int, int]


class TurnPings:
    """What every game's reminder shares: the settings, the store, and the last run's
    reminders to delete (`clear_leftovers`). Makes each game's `GamePing`."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self._leftovers: asyncio.Future[None] | None = None  # clearing the last run's pings

    def ping(self, live: LiveGame, clock: Clock, retired: Callable[[], bool]) -> GamePing:
        """The reminder of the game whose saved state is `live`, run on its owner's `clock`;
        `retired`: whether the owner let the game go (its reminder is then called off)."""
        return GamePing(self, live, clock, retired)

    async def close(self) -> None:
        if self._leftovers is not None and not self._leftovers.done():
            self._leftovers.cancel()
            await asyncio.gather(self._leftovers, return_exceptions=True)

    def clear_leftovers(self) -> asyncio.Future[None]:
        """Start deleting, in the background, the reminders a previous process left in the
        channels of this process's guilds (once: a later call gets the same future to await).
        Called at start-up; a reminder posted before that waits for it (`_post`)."""
        if self._leftovers is None:
            self._leftovers = asyncio.ensure_future(self._clear_leftovers())
        return self._leftovers

    async def _clear_leftovers(self) -> None:
        try:
            await self._delete_leftovers()
        except Exception:  # never in the way of a reminder: the next start tries again
            log.exception("could not delete the turn pings left by the last run")

    async def _delete_leftovers(self) -> None:
        settings = self.shared.settings
        shard_count = settings.shard_count or 1
        shard_ids = settings.shard_ids
        async with self.shared.db.read() as unit:
            stored = await unit.games.ping_messages(
                shard_ids=shard_ids if shard_count > 1 else None, shard_count=shard_count
            )
        gone = [
            (game, message)
            for game, channel, message in stored
            if await self._delete_message(channel, message)
        ]
        await self._forget(gone)
        log.info("deleted %d turn pings left by the last run", len(gone))

    async def delete(self, channel: int, message_id: int, game_id: int | None = None) -> None:
        """Delete a reminder (and, once it is gone, forget it as `game_id`'s stored one)."""
        if await self._delete_message(channel, message_id) and game_id is not None:
            await self._forget([(game_id, message_id)])

    async def _delete_message(self, channel: int, message_id: int) -> bool:
        """Whether the message is gone now (deleted, or already gone)."""
        try:
            with priority(Priority.PING):
                await _delete(self.shared.bot, channel, message_id)
        except discord.NotFound:
            return True
        except discord.HTTPException as exc:
            log.warning("could not delete turn ping %s: %s", message_id, exc)
            return exc.status == 403  # no access to the channel: nothing to retry either
        except (TimeoutError, OSError) as exc:
            log.warning("could not delete turn ping %s: %r", message_id, exc)
            return False
        return True

    async def _forget(self, pings: list[tuple[int, int]]) -> None:
        """Clear these (game, message) pings from the store (each only if still the one)."""
        if not pings:
            return
        try:
            async with self.shared.db.write() as unit:
                await unit.games.clear_ping_messages(pings)
        except StorageUnavailable as error:  # the store logged the fault once
            log.warning("could not forget %d turn pings: %s", len(pings), error)
        except Exception:
            log.exception("could not forget %d turn pings", len(pings))


class GamePing:
    """One game's turn reminder: at most one in its channel, for the turn being waited on."""

    def __init__(
        self, pings: TurnPings, live: LiveGame, clock: Clock, retired: Callable[[], bool]
    ) -> None:
        self._pings = pings
        self.shared = pings.shared
        self.live = live
        self._clock = clock
        self._retired = retired
        self._turn: TurnKey | None = None  # the turn being reminded of
        self._watching = False  # whether `_turn` was set (a turn may be None: nobody's)
        # Bumped whenever the pending reminder is called off: a post that was already on its
        # way when that happened is deleted as soon as it lands.
        self._generation = 0
        self._posted: int | None = None  # the reminder message shown now
        self._host_ping: int | None = None  # "the round is over" told to the host, while shown
        self._farewell: asyncio.Task[None] | None = None  # its deletion once the game ended

    def after_change(self) -> None:
        """The game changed: keep, call off or arm its reminder."""
        live = self.live
        game = live.game
        if game.outcome is not None or self._retired():
            self._call_off()
            self._turn, self._watching = None, False
            return
        current = game.current_player
        waiting = current is not None and game.decision in _IN_TURN
        key = (current, game.round_number) if waiting and current is not None else None
        acted = current is not None and live.acted_at.get(current) == game.version
        if key == self._turn and not acted and self._watching:
            return  # somebody else's out-of-turn move (a catch, an UNO call): it still stands
        self._turn, self._watching = key, True
        self._call_off()  # the turn was taken, or moved on
        if key is None or is_computer(key[0]):
            return
        generation = self._generation
        delays = self.shared.turn_pings  # cached per server, forgotten when a setting changes
        if live.guild_id in delays:
            self._arm(key, generation, delays[live.guild_id])
        else:
            self._clock.at("ping", 0, partial(self._load_and_arm, key, generation))

    def _call_off(self) -> None:
        """Cancel the pending reminder and delete the one shown, if any."""
        self._generation += 1
        self._clock.cancel("ping")
        posted, self._posted = self._posted, None
        if posted is not None:
            job = partial(self._pings.delete, self.live.channel_id, posted, self.live.game_id)
            self._clock.at(("ping-delete", posted), 0, job)

    async def _load_and_arm(self, key: TurnKey, generation: int) -> None:
        """The server's settings changed since they were read (a game start reads them)."""
        await self.shared.load_settings(self.live.guild_id)
        if self._generation == generation:
            self._arm(key, generation, self.shared.turn_pings.get(self.live.guild_id))

    def _arm(self, key: TurnKey, generation: int, delay: int | None) -> None:
        if delay is None:
            return  # the server turned pings off
        job = partial(self._post, key, generation)
        scale = self.shared.settings.uno_test_timer_scale
        self._clock.at("ping", delay * scale, job)

    # ------------------------------------------------------------------ the message

    def _current(self, key: TurnKey, generation: int) -> bool:
        return self._generation == generation and self._turn == key and not self._retired()

    async def _post(self, key: TurnKey, generation: int) -> None:
        if not self._current(key, generation):
            return
        live = self.live
        channel = live.channel_id
        player = key[0]
        await asyncio.shield(self._pings.clear_leftovers())  # the last run's first (at start-up)
        leftover, self._posted = self._posted, None  # at most one reminder per channel
        if leftover is not None:
            await self._pings.delete(channel, leftover, live.game_id)
        if not self._current(key, generation):
            return
        locale = self.shared.public_locale(live.guild_id)
        if live.deadline is not None:
            when = discord.utils.format_dt(live.deadline, "R")
            text = t("ping.turn_timed", locale, player=f"<@{player}>", when=when)
            if live.timeouts.get(player, 0) >= MAX_TIMEOUTS - 1:  # told to them, not only the table
                text += "\n" + t("ping.last_chance", locale)
        else:
            text = t("ping.turn", locale, player=f"<@{player}>")
        mentions = discord.AllowedMentions(
            users=[discord.Object(id=player)], everyone=False, roles=False, replied_user=False
        )
        with priority(Priority.PING):  # after results and tables when requests must wait
            message = await self.shared.send_public(
                channel, Outgoing(content=text, allowed_mentions=mentions)
            )
        if message is None:
            return
        if not self._current(key, generation):
            await self._pings.delete(channel, message.id)  # the turn was taken while it was posted
            return
        self._posted = message.id
        try:
            async with self.shared.db.write() as unit:
                await unit.games.set_ping_message(live.game_id, message.id)
        except StorageUnavailable as error:  # a locked or full database: told once, by the store
            log.warning("could not store the turn ping of game %s: %s", live.game_id, error)
        except Exception:
            log.exception("could not store the turn ping of game %s", live.game_id)

    # ------------------------------------------------------------------ the host's ping

    async def host_round_over(self) -> None:
        """With the server's turn timer off nobody may be watching: the host hears once that
        the round is over and when the next one starts by itself."""
        shared, live = self.shared, self.live
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
        ping = Outgoing(content=text, allowed_mentions=mentions)
        posted = await shared.send_public(live.channel_id, ping)
        if posted is not None:
            self._host_ping = posted.id

    async def call_off_host(self) -> None:
        """Delete the host's "round over" ping, if shown (the next round began, or the end)."""
        message_id, self._host_ping = self._host_ping, None
        if message_id is not None:
            with contextlib.suppress(discord.HTTPException):
                await _delete(self.shared.bot, self.live.channel_id, message_id)

    def farewell(self) -> None:
        """The game retired: the host's ping goes, in a task (the caller may hold the lock)."""
        if self._host_ping is not None:
            self._farewell = asyncio.create_task(self.call_off_host())


async def _delete(bot: UnoHost, channel_id: int, message_id: int) -> None:
    """Delete a message by ids alone (`PartialMessage.delete`): a turn ping or a host's ping
    whose Message object is long gone, without fetching it first."""
    await bot.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
