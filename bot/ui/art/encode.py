"""Pictures to bytes, and the cached "what is shown -> file" entry points for a worker thread.

Format chosen by measurement (benchmarks/card_art.py; 640x300 table with 10 seats / 25-card hand):
PNG level 6 64 / 107 KB in 28 / 38 ms; lossless WebP 40-56 / 83-98 KB in 12-470 ms; lossy WebP
q80-90 19-23 / 34-43 KB in 12-67 ms but with colour fringes on the saturated edges; a 256-colour
palette PNG 17 / 32 KB in 12 / 21 ms, and crisp (the art is flat colour). So: palette PNG.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Final

from PIL import Image

from bot.engine import Card
from bot.ui.art.hand import hand_picture
from bot.ui.art.table import TableState, table_picture

EXTENSION: Final = "png"
CONTENT_TYPE: Final = "image/png"


def encode(image: Image.Image) -> bytes:
    """`image` as a 256-colour PNG: lossless for our flat art, the smallest and fastest tried."""
    palette = image.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    palette.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


@lru_cache(maxsize=256)  # ~17 KB each
def table_file(state: TableState) -> bytes:
    """The encoded table picture; cached, as the same table is often shown twice (edit, repost)."""
    return encode(table_picture(state))


def hand_file(cards: Sequence[Card], playable: Collection[Card] = (), page: int = 0) -> bytes:
    """The encoded page of a hand; cached by the cards shown, which recur as players page."""
    return _hand_file(tuple(cards), frozenset(playable), page)


@lru_cache(maxsize=128)  # ~30 KB each
def _hand_file(cards: tuple[Card, ...], playable: frozenset[Card], page: int) -> bytes:
    return encode(hand_picture(cards, playable, page))
