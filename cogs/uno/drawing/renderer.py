"""Card pictures on the way out: drawn in a thread, as the file attached to a message.

A message (`Outgoing`, bot/ui/outgoing.py) carries the picture to show (a `Picture` from
bot/ui/pictures.py; its embed already points at it); `picture_file` draws it into the file
discord.py uploads, and cogs/uno/delivery.py attaches that file to the message (or keeps the
one the message shows, or leaves it out when late).

Drawing and encoding take about half a millisecond, nearly all of it Pillow's C code, which
releases the interpreter lock, so threads of the bot draw (drawing/threads.py, which says why
not a worker process): one for the pictures an answer waits for (a hand, after a click), one
for those drawn in the background (the table, hands edited as the game goes on), so an answer
never queues behind a table. Files already drawn are kept by what they show (`Picture.key`):
the same picture is never drawn twice while it is in the cache.

A picture has a deadline (`URGENT_DEADLINE`, `BACKGROUND_DEADLINE`); a late one is left out
(`PictureLate`): the message goes text-only, its embed pointing at no image, and the
next edit brings the picture (a stuck thread is replaced meanwhile). Replays, seconds of
drawing, have a worker process of their own (drawing/workers.py).
"""

from __future__ import annotations

import asyncio
import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import discord

from bot.ui.art.encode import warm_up
from bot.ui.pictures import Picture
from bot.ui.replay import ReplayFile, replay_from_parts, warm_up_replays
from cogs.uno.drawing.threads import DrawingLate, DrawingThread
from cogs.uno.drawing.workers import START_DEADLINE, WorkerLate, WorkerProcess

log = logging.getLogger(__name__)

#: Encoded pictures kept by what they show (their sizes: docs/benchmarks.md, "Card pictures").
CACHE_SIZE = 512
#: Seconds an answer waits for its picture. Drawing takes milliseconds, so a second is a thread
#: that is stuck, not busy; and Discord wants the answer within 3 s of the click, of which the save
#: and the upload need their share.
URGENT_DEADLINE = 1.0
#: Seconds a picture drawn in the background (a table, a hand edited as the game goes on) may
#: take. Nobody waits on it, but its table waits: a few seconds allow a queue of a hundred
#: busy tables (under a second) and keep the table, text-only, at most this much behind.
BACKGROUND_DEADLINE = 3.0
#: Seconds a replay may take, its process's start included: drawing one and starting the process
#: take seconds at most (benchmarks/replay.py, docs/benchmarks.md), a few times that on a loaded
#: machine.
#: The asker watches a "thinking" message meanwhile, and past this is told to try again.
REPLAY_DEADLINE = 15.0
#: Replays kept (they never change: a finished round's), by their total size.
REPLAY_CACHE_BYTES = 16 * 1000 * 1000


class PictureLate(Exception):
    """The picture was not drawn within its deadline: the message goes without it."""


class Drawing:
    """Draws pictures off the event loop (drawing threads), with a cache of recent files."""

    def __init__(self) -> None:
        # One thread for the pictures an answer waits for, one for those drawn in the
        # background: an answer never queues behind a table.
        self._threads = {
            urgent: DrawingThread("picture" if urgent else "background picture")
            for urgent in (True, False)
        }
        self._warming: asyncio.Task[None] | None = None
        self._warmed = False
        self._cache: OrderedDict[Hashable, bytes] = OrderedDict()
        # Replays get a process of their own, started at the first one: a second of drawing
        # would otherwise hold up every table and hand queued behind it. Never a thread: that
        # second would hold the event loop.
        self._replays = WorkerProcess("replay picture", warm_up_replays)
        self._replay_cache: OrderedDict[Hashable, ReplayFile] = OrderedDict()
        self.hits = 0  # pictures answered from the cache
        self.misses = 0  # pictures drawn
        self._stuck_while: Path | None = None  # the test hook UNO_TEST_STUCK_PICTURES

    def start(self, *, stuck_while: Path | None = None) -> None:
        """Warm up in the background: every face and palette drawn once, so the first
        pictures are as quick as the rest (the bot answers meanwhile, pictures included).
        `stuck_while` (a test hook, never in production): the first drawing thread of each
        kind that starts a picture while this file exists never finishes it, as if Pillow
        hung."""
        self._stuck_while = stuck_while
        if self._warming is None:
            self._warming = asyncio.create_task(self._warm_up(), name="uno-pictures-warm-up")

    async def _warm_up(self) -> None:
        try:
            faces = await self._threads[False].run(warm_up, deadline=START_DEADLINE)
        except Exception:
            log.warning("pictures not warmed up (drawn cold instead)", exc_info=True)
            return
        self._warmed = True
        log.info("pictures ready (%s faces drawn)", faces)

    async def wait_ready(self) -> bool:
        """Wait for the warm-up (tests and benchmarks); whether it was done."""
        if self._warming is not None:
            await asyncio.gather(self._warming, return_exceptions=True)
        return self._warmed

    async def close(self) -> None:
        if self.hits or self.misses:
            log.info("pictures: %d drawn, %d from the cache", self.misses, self.hits)
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
            await asyncio.gather(self._warming, return_exceptions=True)
        for thread in self._threads.values():
            thread.close()
        await self._replays.close()

    async def render(self, picture: Picture, *, urgent: bool = False) -> bytes:
        """The encoded picture: from the cache, else drawn in a drawing thread; `urgent`: an
        answer waits for it. `PictureLate` past its deadline."""
        cached = self._cache.get(picture.key)
        if cached is not None:
            self._cache.move_to_end(picture.key)
            self.hits += 1
            return cached
        self.misses += 1
        draw: Callable[[], bytes] = picture.render
        if self._stuck_while is not None:
            draw = _stuck_while_exists(self._stuck_while, draw)
        try:
            data = await self._threads[urgent].run(
                draw, deadline=URGENT_DEADLINE if urgent else BACKGROUND_DEADLINE
            )
        except DrawingLate as exc:
            raise PictureLate(picture.filename) from exc
        self._cache[picture.key] = data
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return data

    @property
    def replay_worker(self) -> WorkerProcess:
        """The replay process (tests stop it to see a late replay refused)."""
        return self._replays

    async def replay(
        self, key: Hashable, parts: dict[str, Any], round_number: int, locale: str = "en"
    ) -> ReplayFile:
        """Round `round_number` of the record built from `parts` (cogs/uno/records/exports.py) as an
        animated picture, its captions in `locale`, drawn in the replay process; `key`: what
        it shows (the locale is added to it), for the cache.
        `PictureLate` when the process is not up and done within REPLAY_DEADLINE; the
        replay's own errors (a record that does not replay: `Mismatch`) propagate."""
        key = (key, locale)
        cached = self._replay_cache.get(key)
        if cached is not None:
            self._replay_cache.move_to_end(key)
            return cached
        loop = asyncio.get_running_loop()
        until = loop.time() + REPLAY_DEADLINE
        worker = self._replays
        worker.start()  # (once: later calls find it started, or given up)
        starting = asyncio.ensure_future(worker.wait_ready())
        await asyncio.wait({starting}, timeout=REPLAY_DEADLINE)
        if not worker.ready:
            raise PictureLate("replay: no process")
        try:
            made = await worker.run(
                replay_from_parts,
                parts,
                round_number,
                locale,
                deadline=max(0.1, until - loop.time()),
                thread=False,
            )
        except WorkerLate as exc:
            raise PictureLate("replay") from exc
        self._replay_cache[key] = made
        while sum(len(r.data) for r in self._replay_cache.values()) > REPLAY_CACHE_BYTES:
            self._replay_cache.popitem(last=False)
        return made


def _stuck_while_exists(path: Path, draw: Callable[[], bytes]) -> Callable[[], bytes]:
    """`draw`, except that the first drawing thread of each kind ("picture", "background
    picture") to start it while `path` exists never returns (the test hook): the thread that
    replaces it draws, as after a real hang."""

    def drawn_or_stuck() -> bytes:
        name = threading.current_thread().name
        if path.exists() and name not in _STUCK_THREADS:
            _STUCK_THREADS.add(name)
            log.warning("test hook: the %s thread is stuck for good (%s exists)", name, path)
            threading.Event().wait()
        return draw()

    return drawn_or_stuck


#: The kinds of drawing thread the test hook has stuck (one thread of each, at most).
_STUCK_THREADS: set[str] = set()


#: The bot's one drawing worker (started by the cog: `DRAWING.start()`).
DRAWING = Drawing()


async def picture_file(picture: Picture, *, urgent: bool = False) -> discord.File:
    """The encoded picture as a file with its alt text, drawn off the event loop;
    `PictureLate` past its deadline."""
    data = await DRAWING.render(picture, urgent=urgent)
    return discord.File(io.BytesIO(data), picture.filename, description=picture.description)
