"""Pictures to bytes, and the cached "what is shown -> file" entry points for a worker thread.

Format chosen by measurement (benchmarks/card_art.py; the figures: docs/benchmarks.md, "Card
pictures"): a 256-colour palette PNG is the smallest and fastest of palette PNG, full-colour PNG,
lossless WebP (over the 80 KB hand budget) and lossy WebP (colour fringes on the saturated
edges). The art is flat colour, so the palette loses nothing visible. zlib level 3 rather than
6 or 9: about half the time of 6 for a few per cent more bytes, well inside the budgets; WebP of
the palette picture is smaller only at many times the time.

The palette is not computed per picture: every picture is made of the same few colours (the
faces, the felt, the highlight, their blends), so one palette is computed once from a sample of
all of them and each picture is mapped onto it, many times faster than a fresh octree and with
the same look. Computing it draws every face, so a process opts in (`use_shared_palette`, the
bot's picture workers at start-up); until then each picture gets its own octree palette. The
table and the hand have palettes of their own, fewer colours computed the same way
(`table_palette`, `hand_palette`): a quarter fewer bytes for the same look. UNO Flip's pictures
(eight colours, two card bodies, two felts) have their own (`flip_table_palette`,
`flip_hand_palette`), chosen by what a picture shows (`table_palette_for`, `hand_palette_for`).
Both are encoded at zlib level 3: level 6 saves a sixth of the bytes at twice the time, and the
bytes are well inside their budget since a hand is uploaded only when it changes (measurements
in docs/benchmarks.md, issue 23).
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence
from functools import lru_cache
from typing import Final

from PIL import Image

from bot.engine import COLORS, Card
from bot.engine.cards import FLIP_RANKS, flip_side_deck
from bot.ui.art.faces import face, is_dark
from bot.ui.art.hand_picture import deck_faces, deck_sheet, hand_picture
from bot.ui.art.indexed import indexed_hand, indexed_table, warm_hand_sprites
from bot.ui.art.lettering import font_path
from bot.ui.art.table_picture import SeatState, TableState, table_picture

EXTENSION: Final = "png"
CONTENT_TYPE: Final = "image/png"


@lru_cache(maxsize=1)
def shared_palette() -> Image.Image:
    """256 colours for every picture, from a sample of everything the pictures show: each deck's
    faces and the back, hands, tables in each colour."""
    sample = [deck_sheet(deck) for deck in ("classic108", "swap112", "shuffle112")]
    cards = deck_faces("shuffle112") + deck_faces("swap112")[-3:]
    sample += [hand_picture(cards[k : k + 25]) for k in (0, 25, 50)]
    flip = _flip_faces()  # UNO Flip's: its own card bodies and colours
    sample += [hand_picture(flip[k : k + 27]) for k in range(0, len(flip), 27)]
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


#: Colours of the table picture's own palette: the fewest that keep the look (32 show banding in
#: the card's shading); the sizes measured: docs/benchmarks.md, "Card pictures".
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


def _stacked(sample: Sequence[Image.Image], colours: int) -> Image.Image:
    """A palette of `colours` colours from pictures laid one under another."""
    canvas = Image.new("RGB", (max(i.width for i in sample), sum(i.height for i in sample)))
    y = 0
    for image in sample:
        canvas.paste(image.convert("RGB"), (0, y))
        y += image.height
    return canvas.quantize(colours, method=Image.Quantize.FASTOCTREE)


def _flip_faces() -> list[Card]:
    """Each face of both of UNO Flip's sides once, light side first."""
    return list(dict.fromkeys([*flip_side_deck(dark=False), *flip_side_deck(dark=True)]))


#: Colours of UNO Flip's table palette: its eight colours and two felts need more than the
#: classic table's 48.
FLIP_TABLE_COLOURS: Final = 96


@lru_cache(maxsize=1)
def flip_table_palette() -> Image.Image:
    """FLIP_TABLE_COLOURS colours for UNO Flip's tables: each side in play, with the other
    side's chips in every seat's fan."""
    light = list(dict.fromkeys(flip_side_deck(dark=False)))
    dark = list(dict.fromkeys(flip_side_deck(dark=True)))
    names = ("Ann", "Benedikt the Magnificent", "Zoë", "Dan", "Анна", "Emo")
    sample = []
    for k in range(8):
        side, other = (dark, light) if k % 2 else (light, dark)
        top = side[(k * 7) % len(side)]
        n = 2 + k % 5
        seats = tuple(
            SeatState(
                names[i % len(names)],
                5 + i,
                i == k % n,
                uno=i == (k + 1) % n,
                at_risk=i == (k + 2) % n,
                shows=tuple(other[(i * 9 + k * 5 + j * 4) % len(other)] for j in range(5 + i)),
            )
            for i in range(n)
        )
        color = top.color or (side[0].color if k % 4 < 2 else side[20].color)
        state = TableState(
            top, color, k % 2 == 0, seats, 30 + k, dark=bool(k % 2), pile_top=other[k * 3]
        )
        sample.append(table_picture(state))
    return _stacked(sample, FLIP_TABLE_COLOURS)


def table_palette_for(state: TableState) -> Image.Image:
    """The palette a table picture is mapped onto: UNO Flip's own, or the classic table's."""
    return flip_table_palette() if state.flip else table_palette()


@lru_cache(maxsize=1)
def flip_hand_palette() -> Image.Image:
    """HAND_COLOURS colours for hands holding UNO Flip's own cards (either side)."""
    cards = _flip_faces()
    return _stacked([hand_picture(cards[k : k + 7]) for k in range(0, len(cards), 7)], 96)


def hand_palette_for(cards: Sequence[Card]) -> Image.Image:
    """The palette a hand picture is mapped onto: UNO Flip's own when the hand holds any of
    UNO Flip's own faces (a light hand of only classic faces looks as the classic one)."""
    if any(card.rank in FLIP_RANKS or is_dark(card) for card in cards):
        return flip_hand_palette()
    return hand_palette()


#: Colours of the hand picture's own palette: 64 look the same as 256; the sizes measured:
#: docs/benchmarks.md, "Card pictures".
HAND_COLOURS: Final = 64


@lru_cache(maxsize=1)
def hand_palette() -> Image.Image:
    """HAND_COLOURS colours for every hand picture, from a sample of hands: every face of every
    deck."""
    cards = sorted({*deck_faces("shuffle112"), *deck_faces("swap112")}, key=lambda c: c.code)
    sample = [hand_picture(cards[k : k + 7]) for k in range(0, len(cards), 7)]
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


#: zlib's level for every picture (measured above).
LEVEL: Final = 3


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


@lru_cache(maxsize=256)  # a table file each (sizes: docs/benchmarks.md)
def table_file(state: TableState) -> bytes:
    """The encoded table picture, on the table's own palette; cached, as the same table is
    often shown twice (edit, repost)."""
    # Composed on the palette from cached sprites (indexed.py), as the hand is.
    return png(indexed_table(state, table_palette_for(state)))


def hand_file(cards: Sequence[Card], lifted: Collection[int] = ()) -> bytes:
    """The encoded hand picture of `cards`, those at the indices `lifted` standing up."""
    return _hand_file(tuple(cards), tuple(sorted(lifted)))


@lru_cache(maxsize=128)  # a hand's file each
def _hand_file(cards: tuple[Card, ...], lifted: tuple[int, ...]) -> bytes:
    # Composed on the palette from cached sprites: the pixels of
    # `encode(hand_picture(cards, lifted), hand_palette())` at a fraction of the work.
    return png(indexed_hand(cards, hand_palette_for(cards), lifted))
