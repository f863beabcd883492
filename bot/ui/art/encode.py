"""Pictures to bytes, and the cached "what is shown -> file" entry points for a worker thread.

Format chosen by measurement (benchmarks/card_art.py, 2 shared cores; p50 encode time and size
for a 10-seat table / a 25-card hand): a 256-colour palette PNG 3.4 ms 16 KB / 11 ms 32 KB;
full-colour PNG 7.8 ms 56 KB / 26 ms 104 KB; lossless WebP 3.8 ms 49 KB / 6 ms 94 KB (over the
80 KB hand budget); lossy WebP q85 6 ms 18 KB / 10 ms 34 KB but with colour fringes on the
saturated edges. The art is flat colour, so the palette loses nothing visible: palette PNG.
zlib level 3 rather than 6: half the time for 5-15 % more bytes (table 0.8 vs 1.7 ms, 13 vs
12 KB; 25-card hand 1.7 vs 3.8 ms, 35 vs 31 KB), well inside the budgets.

The palette is not computed per picture: every picture is made of the same few colours (the
faces, the felt, the highlight, their blends), so one palette is computed once from a sample of
all of them and each picture is mapped onto it, ten times faster than a fresh octree (0.26 vs
3 ms for a table) and with the same look. Computing it takes half a second (it draws every
face), so a process opts in (`use_shared_palette`, the bot's picture workers at start-up);
until then each picture gets its own octree palette. The table and the hand have palettes of
their own, fewer colours computed the same way (`table_palette`, `hand_palette`): a quarter
fewer bytes for the same look. Measured again for the 400x218 table and 408x140 hand
(benchmarks/card_art.py's machine, one picture): palette PNG level 3 0.3 ms 6.2 / 9.3 KB,
level 6 0.7 ms 5.3 / 8.4 KB, level 9 5.5 ms; lossless WebP of the RGB picture 1.3 ms 22 KB
(method 0) to 170 ms 16 KB (method 6); lossless WebP of the palette picture 1.4 ms 7.1 / 11.8
KB (method 0), 6-9 ms 4.0 / 6.9 KB (method 4). Level 3 stays: the cheapest that keeps the size.
Measured again on 200 two-seat tables and 7-card hands of 56-px cards (issue 23; encoding only):
level 1 0.22 ms 5.3 / 7.7 KB, level 3 0.25-0.29 ms 5.0 / 7.3 KB, level 6 0.55-0.63 ms 4.2 / 6.3
KB, level 9 3-4 ms; zlib's RLE strategy 0.23 ms but 7.3 / 13.3 KB; lossless WebP (method 1,
quality 25) 1.5 ms 3.2 KB for a table, 7 ms 7.4 KB for a hand. The table, uploaded at about
every other interaction, is encoded at level 6 (`TABLE_LEVEL`): 0.3 ms more for a sixth fewer
bytes; the hand, uploaded at nearly every interaction, stays at level 3.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Final

from PIL import Image

from bot.engine import COLORS, Card, Color
from bot.ui.art.faces import face
from bot.ui.art.hand import deck_faces, deck_sheet, hand_picture
from bot.ui.art.indexed import indexed_hand, indexed_table, warm_hand_sprites
from bot.ui.art.lettering import font_path
from bot.ui.art.table import SeatState, TableState, table_picture

EXTENSION: Final = "png"
CONTENT_TYPE: Final = "image/png"


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """256 colours for every picture, from a sample of everything the pictures show: each deck's
    faces and the back, a hand with faded and highlighted cards, tables in each colour."""
    sample = [deck_sheet(deck) for deck in ("classic108", "swap112", "shuffle112")]
    cards = deck_faces("shuffle112") + deck_faces("swap112")[-3:]
    sample += [hand_picture(cards[k : k + 25], cards[k : k + 25 : 2]) for k in (0, 25, 50)]
    sample += [hand_picture(cards[k : k + 25], (), 0, cards[k], COLORS[k % 4]) for k in (0, 50)]
    names = ("Ann", "Benedikt the Magnificent", "Zoe", "Dan", "Anna", "Emo", "Eve", "Fay")
    for k, color in enumerate(COLORS):
        top = cards[k * 13 + 7] if k % 2 else Card.of("W4")
        seats = tuple(
            SeatState(n, 1 + (i * 3 + k) % 20, i == k, uno=i == k + 1, at_risk=i == k + 2)
            for i, n in enumerate(names)
        )
        sample.append(table_picture(TableState(top, color, k % 2 == 0, seats, 20 * k)))
    width = max(i.width for i in sample)
    canvas = Image.new("RGB", (width, sum(i.height for i in sample)))
    y = 0
    for image in sample:
        canvas.paste(image.convert("RGB"), (0, y))
        y += image.height
    return canvas.quantize(256, method=Image.Quantize.FASTOCTREE)


#: Colours of the table picture's own palette: measured on a 10-seat table, 256 shared colours
#: give 12.7 KB, 96 own 10.1 KB, 48 own 8.3 KB (4 seats: 5.7 KB), 32 own 7.7 KB with visible
#: banding in the card's shading; 48 keep the look.
TABLE_COLOURS: Final = 48


@lru_cache(maxsize=1)
def table_palette() -> Image.Image:
    """TABLE_COLOURS colours for every table picture, from a sample of tables: each kind of top
    card (every deck's), each colour, 2 to 10 seats, current, UNO and at-risk seats."""
    names = ("Ann", "Benedikt the Magnificent", "Zoë", "Dan", "Анна", "Emo", "Eve", "Fay", "Σοφία")
    cards = sorted({*deck_faces("shuffle112"), *deck_faces("swap112")}, key=lambda c: c.code)
    sample = []
    for k, card in enumerate(cards[::6]):
        n = 2 + k % 9
        seats = tuple(
            SeatState(
                names[i % len(names)],
                1 + (i * 3 + k) % 20,
                i == k % n,
                uno=i == (k + 1) % n,
                at_risk=i == (k + 2) % n,
            )
            for i in range(n)
        )
        color = card.color or COLORS[k % 4]
        sample.append(table_picture(TableState(card, color, k % 2 == 0, seats, k)))
    canvas = Image.new("RGB", (max(i.width for i in sample), sum(i.height for i in sample)))
    y = 0
    for image in sample:
        canvas.paste(image, (0, y))
        y += image.height
    return canvas.quantize(TABLE_COLOURS, method=Image.Quantize.FASTOCTREE)


#: Colours of the hand picture's own palette: measured on 7-card hands (a 408x140 picture),
#: 256 shared colours give 8.7 KB, 128 own 7.8 KB, 64 own 6.6 KB, 48 own 5.9 KB (a little
#: banding on the faded cards); 64 look the same as 256.
HAND_COLOURS: Final = 64


@lru_cache(maxsize=1)
def hand_palette() -> Image.Image:
    """HAND_COLOURS colours for every hand picture, from a sample of hands: every face of every
    deck, playable (highlighted) and not (faded), beside a card to match of each colour."""
    cards = sorted({*deck_faces("shuffle112"), *deck_faces("swap112")}, key=lambda c: c.code)
    sample = []
    for k in range(0, len(cards), 7):
        shown = cards[k : k + 7]
        top = cards[(k * 5) % len(cards)]
        color = top.color or COLORS[(k // 7) % 4]
        sample.append(hand_picture(shown, shown[k % 2 :: 2], 0, top, color).convert("RGB"))
    canvas = Image.new("RGB", (max(i.width for i in sample), sum(i.height for i in sample)))
    y = 0
    for image in sample:
        canvas.paste(image, (0, y))
        y += image.height
    return canvas.quantize(HAND_COLOURS, method=Image.Quantize.FASTOCTREE)


_shared: list[Image.Image] = []  # the shared palette, once this process asked for it


def use_shared_palette() -> None:
    """From now on, map every picture onto the shared palette (computed now, once)."""
    if not _shared:
        _shared.append(shared_palette())


def warm_up() -> int:
    """For a process that will draw many pictures: draw every face and the shared palette now,
    so its first pictures are quick, and open the names' font (a missing one is logged at start,
    not at the first table); the number of faces."""
    font_path()
    cards = {c for deck in ("classic108", "swap112", "shuffle112") for c in deck_faces(deck)}
    for card in cards:
        face(card)
    use_shared_palette()
    table_palette()
    warm_hand_sprites(cards, hand_palette())
    return len(cards)


#: zlib levels: the hand's (and every other picture's), and the table's (measured above).
LEVEL: Final = 3
TABLE_LEVEL: Final = 6


def png(image: Image.Image, level: int = LEVEL) -> bytes:
    """A palette ("P") image as a PNG file."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=level)
    return buffer.getvalue()


def encode(image: Image.Image, palette: Image.Image | None = None, level: int = LEVEL) -> bytes:
    """`image` as a 256-colour PNG: lossless for our flat art, the smallest and fastest tried;
    `palette`: map it onto these colours instead (the table's own, `table_palette`); `level`:
    zlib's compression level."""
    rgb = image.convert("RGB")
    if palette is not None:
        palette = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    elif _shared:
        palette = rgb.quantize(palette=_shared[0], dither=Image.Dither.NONE)
    else:
        palette = rgb.quantize(256, method=Image.Quantize.FASTOCTREE)
    return png(palette, level)


@lru_cache(maxsize=256)  # ~5-8 KB each
def table_file(state: TableState) -> bytes:
    """The encoded table picture, on the table's own palette; cached, as the same table is
    often shown twice (edit, repost)."""
    # Composed on the palette from cached sprites (indexed.py), as the hand is.
    return png(indexed_table(state, table_palette()), TABLE_LEVEL)


def hand_file(
    cards: Sequence[Card],
    playable: Collection[Card] = (),
    page: int = 0,
    top: Card | None = None,
    color: Color | None = None,
) -> bytes:
    """The encoded page of a hand (with `top`, the card to match, in `color`); cached by what
    is shown, which recurs as players page."""
    return _hand_file(tuple(cards), frozenset(playable), page, top, color)


@lru_cache(maxsize=128)  # ~5-20 KB each
def _hand_file(
    cards: tuple[Card, ...],
    playable: frozenset[Card],
    page: int,
    top: Card | None,
    color: Color | None,
) -> bytes:
    # Composed on the palette from cached sprites: the pixels of
    # `encode(hand_picture(...), hand_palette())` at a fraction of the work (indexed.py).
    return png(indexed_hand(cards, playable, page, top, color, hand_palette()))
