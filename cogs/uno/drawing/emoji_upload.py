"""The card emojis uploaded as the application's own, once, in the background at start-up.

The bot answers from the first second: until this is done (or if Discord refuses), the buttons
show today's Unicode emojis (`bot.ui.card_emojis.button_emoji`). The list of the application's
emojis is read once; only the wanted names missing from it are uploaded (a name carries the
image's digest, so changed art is uploaded and unchanged art never again), then versions of
ours that are no longer wanted are deleted, which keeps the application under Discord's 2,000.
A failed upload ends the uploads (the buttons without an emoji keep the plain one).
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.host import UnoHost
from bot.request_budget import Priority, priority
from bot.ui.card_emojis import CARD_EMOJIS, CardEmojis, is_ours, wanted_emojis

log = logging.getLogger(__name__)


class EmojiSync:
    def __init__(self, bot: UnoHost, emojis: CardEmojis = CARD_EMOJIS) -> None:
        self.bot = bot
        self.emojis = emojis
        self.task: asyncio.Task[None] | None = None
        self.uploaded = 0

    def start(self) -> None:
        """Begin the sync in the background (once)."""
        if self.task is None:
            self.task = asyncio.create_task(self._sync(), name="uno-card-emojis")

    async def close(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)

    async def _sync(self) -> None:
        try:
            wanted = await asyncio.to_thread(wanted_emojis)  # drawing takes a few 100 ms
            existing = {e.name: e for e in await self.bot.fetch_application_emojis()}
        except Exception as exc:  # anything: the buttons simply keep their plain emojis
            log.warning("card emojis not available (buttons keep their plain emojis): %r", exc)
            return
        ready: list[tuple[str, int, str]] = []
        for art in wanted:
            emoji = existing.get(art.name)
            if emoji is None:
                try:
                    with priority(Priority.BACKGROUND):  # after every game's request
                        emoji = await self.bot.create_application_emoji(
                            name=art.name, image=art.image
                        )
                except (discord.HTTPException, OSError, TimeoutError) as exc:
                    # Discord refuses or is down: the rest would fail alike. Use what is
                    # there; the next start tries again.
                    log.warning("card emoji %s not uploaded, no more tried: %s", art.name, exc)
                    break
                self.uploaded += 1
            ready.append((art.key, emoji.id, emoji.name))
        self.emojis.use(ready)
        log.info(
            "card emojis ready: %d of %d (%d uploaded)", len(ready), len(wanted), self.uploaded
        )
        names = {art.name for art in wanted}
        for name, emoji in existing.items():
            if is_ours(name) and name not in names:
                try:
                    await emoji.delete()
                except discord.HTTPException as exc:
                    log.info("old card emoji %s not deleted: %s", name, exc)
