"""The shared state every flow of the game receives: one small object, built once per cog.

It holds the bot, the database, one lock per channel (it serialises everything that happens in
a channel: a lobby, its start, the game, a rematch) and the per-server settings the flows read
on every move (language, turn timer). Nothing of a running game is kept here: its owner holds
its channel's lock (game/owner.py), and a lock nobody holds or waits for is forgotten. The helpers
here are the ones every flow needs: finding a channel's game and posting in public.

A member's short wait between two uses of a command that posts in a channel.

A replay shared in a channel (records/exports.py) and a table posted anew (`/uno table`,
game/requests.py) are
public messages each member may ask for as often as they click: a few in a row would flood
the channel and spend the bot's request budget (bot/request_budget.py) that every game's table
shares. So each is limited per member and place: one in `seconds`, and a second one inside them
is refused with the time it may be asked again, as a Discord relative timestamp (`<t:...:R>`,
shown in the reader's own language and time zone, counting down).

discord.py's `app_commands.checks.cooldown` is not used: it answers with its own untranslated
error and has no way to undo a use whose post did not go out (the bot may not post there).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Hashable
from datetime import timedelta

import discord

from bot.host import Interaction, UnoHost
from bot.i18n import AUTO, resolve_locale
from bot.settings import Settings
from bot.store import Database, GameNotFound, GameRecord
from bot.ui.errors import UserError
from bot.ui.outgoing import Outgoing
from bot.ui.table_message import render_lobby
from cogs.uno.delivery import Ready

log = logging.getLogger(__name__)


class Shared:
    def __init__(self, bot: UnoHost, database: Database, settings: Settings) -> None:
        self.bot = bot
        self.db = database
        self.settings = settings  # the process's settings (bot/settings.py), read-only
        # channel id -> its lock, while somebody holds it (a running game's owner, a flow in it)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._languages: dict[int, str] = {}
        self.turn_seconds: dict[int, int] = {}  # guild id -> the server's turn timer (0: off)
        self.turn_pings: dict[int, int | None] = {}  # guild id -> turn ping delay (game/pings.py)
        self.card_images: dict[int, bool] = {}  # guild id -> card pictures on (drawing/renderer.py)
        self.round_breaks: dict[int, int] = {}  # guild id -> seconds between rounds (turn_clock)

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock: the same one for everybody who holds or awaits it meanwhile."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ server settings

    def lobby_message(self, record: GameRecord, *, closed: str | None = None) -> Outgoing:
        """A lobby as the channel sees it, in the server's language (every lobby flow, and
        `/uno table` on a lobby); `closed`: why it closed, if it did."""
        locale = self.public_locale(record.guild_id)
        players = [(s.user_id, s.display_name) for s in record.seats if s.left_at is None]
        return render_lobby(record.id, record.host_id, players, record.rules, locale, closed=closed)

    def public_locale(self, guild_id: int | None) -> str:
        """The catalogue the channel reads: the server's language setting, or, while it is
        "auto" (the default), the server's own Discord language."""
        language = self._languages.get(guild_id or 0, AUTO)
        if language == AUTO:
            known = getattr(self.bot, "guild_locale", None)
            language = (known(guild_id) if known and guild_id else None) or "en"
        return resolve_locale(language)

    def remember_settings(self, guild_id: int, language: str, turn_seconds: int) -> None:
        self._languages[guild_id] = language
        self.turn_seconds[guild_id] = turn_seconds

    async def load_settings(self, guild_id: int) -> None:
        """Read a server's language, turn timer, turn ping, card pictures and break between
        rounds, unless cached."""
        cached = (
            self._languages,
            self.turn_seconds,
            self.turn_pings,
            self.card_images,
            self.round_breaks,
        )
        if any(guild_id not in settings for settings in cached):
            async with self.db.read() as unit:
                config = await unit.settings.guild(guild_id)
            self.remember_settings(guild_id, config.language, config.turn_timeout_seconds)
            self.turn_pings[guild_id] = config.turn_ping_seconds
            self.card_images[guild_id] = config.card_images
            self.round_breaks[guild_id] = config.round_break_seconds

    def settings_changed(self, guild_id: int) -> None:
        """Forget a server's cached settings (the admin changed them)."""
        self._languages.pop(guild_id, None)
        self.turn_seconds.pop(guild_id, None)
        self.turn_pings.pop(guild_id, None)
        self.card_images.pop(guild_id, None)
        self.round_breaks.pop(guild_id, None)

    def images_on(self, guild_id: int) -> bool:
        """The server's card pictures setting (on until its settings are read)."""
        return self.card_images.get(guild_id, True)

    # ------------------------------------------------------------------ games

    async def record(self, game_id: int) -> GameRecord:
        try:
            async with self.db.read() as unit:
                return await unit.games.get(game_id)
        except GameNotFound:
            raise UserError("error.game_not_found") from None

    async def channel_game(self, channel_id: int) -> GameRecord:
        """The channel's open game (lobby or running), or a UserError."""
        async with self.db.read() as unit:
            record = await unit.games.open_game_in(channel_id)
        if record is None:
            raise UserError("error.no_game_here")
        return record

    @staticmethod
    def require_channel(interaction: Interaction, channel_id: int) -> None:
        """A click or command acts only on the game of the channel it was made in (and so of
        that channel's server, whose permissions are the ones that count)."""
        if interaction.channel_id != channel_id:
            raise UserError("error.other_channel")

    # ------------------------------------------------------------------ public messages

    async def edit_public(self, channel_id: int, message_id: int | None, message: Outgoing) -> None:
        """Make a public message (`message_id`; None: there is none) show `message` (a lobby:
        no picture), or log why Discord refused."""
        if message_id is None:
            return
        try:
            channel = self.bot.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).edit(**Ready(message).edit())
        except discord.HTTPException:
            log.info("could not edit message %s in %s", message_id, channel_id, exc_info=True)

    async def remove_buttons(self, channel_id: int, message_id: int | None) -> None:
        """Take a public message's buttons away (an older lobby message), the rest unchanged."""
        if message_id is None:
            return
        try:
            channel = self.bot.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException:
            log.info("could not edit message %s in %s", message_id, channel_id, exc_info=True)

    async def send_public(self, channel_id: int, message: Outgoing) -> discord.Message | None:
        """Post `message` (no picture: a lobby, a ping, a replay's file) in the channel; None
        when Discord refused (logged)."""
        try:
            return await self.bot.get_partial_messageable(channel_id).send(**Ready(message).send())
        except discord.HTTPException:
            log.warning("could not post in channel %s", channel_id, exc_info=True)
            return None


class MemberCooldown:
    """One use per `seconds` for each key (e.g. (server, member) or (channel, member))."""

    def __init__(self, seconds: float, refusal: str) -> None:
        """`refusal`: the catalogue key of the refusal; it takes `{when}`."""
        self.seconds = seconds
        self._refusal = refusal
        self._until: dict[Hashable, float] = {}  # key -> time.monotonic() of its next use

    def check(self, key: Hashable) -> None:
        """`UserError` when `key` was used under `seconds` ago (old entries are forgotten on
        the way: the dict holds the last `seconds` seconds only)."""
        now = time.monotonic()
        for old in [k for k, until in self._until.items() if until <= now]:
            del self._until[old]
        until = self._until.get(key)
        if until is not None:
            # (a second more: "in 0 seconds" would read as "now" while it is still refused)
            when = discord.utils.utcnow() + timedelta(seconds=until - now + 1)
            raise UserError(self._refusal, when=discord.utils.format_dt(when, "R"))

    def use(self, key: Hashable) -> None:
        """Count a use of `key` now (before its post: no second one slips in meanwhile)."""
        self._until[key] = time.monotonic() + self.seconds

    def undo(self, key: Hashable) -> None:
        """The use did not happen after all (nothing was posted): `key` may ask again now."""
        self._until.pop(key, None)
