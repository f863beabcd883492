"""A member's short wait between two uses of a command that posts in a channel.

A replay shared in a channel (records.py) and a table posted anew (`/uno table`, table_posts.py)
are public messages each member may ask for as often as they click: a few in a row would flood
the channel and spend the bot's request budget (bot/request_budget.py) that every game's table
shares. So each is limited per member and place: one in `seconds`, and a second one inside them
is refused with the time it may be asked again, as a Discord relative timestamp (`<t:...:R>`,
shown in the reader's own language and time zone, counting down).

discord.py's `app_commands.checks.cooldown` is not used: it answers with its own untranslated
error and has no way to undo a use whose post did not go out (the bot may not post there).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from datetime import timedelta

import discord

from bot.ui.errors import UserError


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
