"""The card emojis uploaded as the application's own, once, in the background at start-up.

The bot answers from the first second: until this is done (or if Discord refuses), the buttons
show today's Unicode emojis (`bot.ui.card_emojis.button_emoji`). The list of the application's
emojis is read once; only the wanted names missing from it are uploaded (a name carries the
image's digest, so changed art is uploaded and unchanged art never again), then versions of
ours that are no longer wanted are deleted, which keeps the application under Discord's 2,000.
A failed upload ends the uploads (the buttons without an emoji keep the plain one). Of the
processes of one token (shards), only shard 0's uploads and deletes; the others read the list
until it is complete, for a name another process just took is refused.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.host import UnoHost
from bot.request_budget import Priority, priority
from bot.ui.card_emojis import CARD_EMOJIS, CardEmojis, EmojiArt, is_ours, wanted_emojis

log = logging.getLogger(__name__)

#: A process that does not upload reads the application's emojis again this often (seconds),
#: this many times at most, while shard 0's process uploads them.
READ_AGAIN_AFTER = 20.0
READS_WHILE_ANOTHER_UPLOADS = 15


def _ready(
    wanted: list[EmojiArt], existing: dict[str, discord.Emoji]
) -> list[tuple[str, int, str]]:
    """The wanted emojis the application has, as `CardEmojis.use` takes them."""
    return [(art.key, existing[art.name].id, art.name) for art in wanted if art.name in existing]


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

    def _uploads(self) -> bool:
        """Whether this process uploads: the one running shard 0 (or the only one). The other
        processes of the token would race it for every name (Discord refuses a name taken)."""
        shards = self.bot.settings.shard_ids
        return shards is None or 0 in shards

    async def _upload(self, name: str, image: bytes) -> discord.Emoji | None:
        """Upload one card emoji; None if Discord refused it (the next start tries again)."""
        try:
            with priority(Priority.BACKGROUND):  # after every game's request
                emoji = await self.bot.create_application_emoji(name=name, image=image)
        except (discord.HTTPException, OSError, TimeoutError) as exc:
            log.warning("card emoji %s not uploaded, no more tried: %s", name, exc)
            return None
        self.uploaded += 1
        return emoji

    async def _sync(self) -> None:
        try:
            wanted = await asyncio.to_thread(wanted_emojis)  # drawing takes a few 100 ms
            existing = {e.name: e for e in await self.bot.fetch_application_emojis()}
            if not self._uploads():
                # Shard 0's process uploads what is missing: read the list again until it is
                # all there (or a few minutes have passed), using what is there meanwhile.
                for _ in range(READS_WHILE_ANOTHER_UPLOADS):
                    self.emojis.use(_ready(wanted, existing))
                    if all(art.name in existing for art in wanted):
                        break
                    await asyncio.sleep(READ_AGAIN_AFTER * self.bot.settings.uno_test_timer_scale)
                    existing = {e.name: e for e in await self.bot.fetch_application_emojis()}
                self.emojis.use(ready := _ready(wanted, existing))
                log.info("card emojis ready: %d of %d (shard 0 uploads)", len(ready), len(wanted))
                return
        except Exception as exc:  # anything: the buttons simply keep their plain emojis
            log.warning("card emojis not available (buttons keep their plain emojis): %r", exc)
            return
        for art in wanted:
            if art.name not in existing:
                emoji = await self._upload(art.name, art.image)
                if emoji is None:  # Discord refuses or is down: the rest would fail alike
                    break
                existing[art.name] = emoji
        ready = _ready(wanted, existing)
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
