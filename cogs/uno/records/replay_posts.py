"""A round's replay posted once in a channel for a while: whoever asks for it again there is
pointed to the earlier post instead of the channel getting the same animation twice.

The per-member limit (records/exports.py, SHARE_EVERY) keeps one member from flooding a channel;
this keeps several members from posting the same round one after the other. A post under way counts:
a second ask waits for it (briefly) and is pointed to it, so two asks at once give one post.
Kept in memory, like the leaderboards' (boards.py): a channel belongs to one process, and after
a restart the worst case is one more post.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

import discord

#: How long a round's replay posted in a channel is pointed to instead of posted again (s).
FRESH_FOR = 600.0

#: (channel, game, round)
Where = tuple[int, int, int]


class ReplayPosts:
    def __init__(
        self, *, fresh_for: float = FRESH_FOR, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.fresh_for = fresh_for
        self.clock = clock
        self._posts: dict[Where, tuple[float, asyncio.Future[discord.Message | None]]] = {}

    async def earlier(self, where: Where, *, wait: float) -> discord.Message | None:
        """The replay of this round posted in this channel within `fresh_for`; one being posted
        is waited for up to `wait` seconds. None: there is none (or its post failed)."""
        now = self.clock()
        for key in [k for k, (at, _) in self._posts.items() if now - at > self.fresh_for]:
            del self._posts[key]
        found = self._posts.get(where)
        if found is None:
            return None
        post = found[1]
        if not post.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(post), wait)
        return post.result() if post.done() else None

    def begin(self, where: Where) -> None:
        """A post of this round's replay in this channel starts (asks meanwhile wait for it)."""
        self._posts[where] = (self.clock(), asyncio.get_running_loop().create_future())

    def done(self, where: Where, message: discord.Message | None) -> None:
        """The post started by `begin` is `message`, or failed (None: forgotten)."""
        found = self._posts.get(where)
        if found is not None and not found[1].done():
            found[1].set_result(message)
        if message is None:
            self._posts.pop(where, None)
