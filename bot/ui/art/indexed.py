"""The hand and table pictures composed directly on their palettes, from sprites mapped once.

`hand.hand_picture` and `table.table_picture` draw in full colour, and `encode` would then map
every pixel onto the picture's palette (nearest colour, no dithering): for a table uploaded at
every other interaction, and a hand at every card played or drawn, that is drawing, compositing
through alpha and mapping 60,000-110,000 pixels each time. Nearest-colour mapping works pixel
by pixel, so a sprite mapped on its own gives exactly the pixels it gets inside the whole
picture, as long as what lies under it is the same: each card is drawn once in full colour on
the felt, mapped onto the palette and kept; a hand is then plain pastes of palette indices,
with nothing to map before encoding. The table is cut the same way: the
top card's band of the left panel (by card and colour), its band of icons (by colour,
direction and draw pile) and each seat's row (by what it shows and where), each drawn at its
place on the empty table and cut out; those that change at a turn are drawn again, the rest
pasted. The pixels are those of `encode(hand_picture(...), hand_palette())` and
`encode(table_picture(...), table_palette())` but for a few edge pixels: Pillow's nearest-colour
lookup is approximate and depends on the order it meets colours in (tests/ui/test_art.py).
The table's sprites are kept in bounded caches: names and counts are endless.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Sequence

from PIL import Image

from bot.engine import Card
from bot.ui.art.faces import face, face_size, memo
from bot.ui.art.hand_picture import HAND_CARD_WIDTH, card_origin, hand_size
from bot.ui.art.palette import FELT, RGB
from bot.ui.art.table_picture import (
    MAX_SEATS,
    PANEL_SPLIT,
    SEATS_X,
    WIDTH,
    SeatState,
    TableState,
    draw_panel_card,
    draw_panel_icons,
    draw_seat,
    felt,
    felt_tones,
    name_size,
    picture_size,
    row_height,
)

#: Table sprites kept (a row of a 10-seat table is ~7 KB, a panel band ~4-22 KB).
TABLE_SPRITES = 384


def _mapped(image: Image.Image, palette: Image.Image) -> Image.Image:
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _empty(size: tuple[int, int], palette: Image.Image, cloth: RGB = FELT) -> Image.Image:
    """A picture of bare felt (`cloth`) on `palette`: a copy of one kept per size (a copy is
    a memory copy; making one anew maps the felt and sets the palette, a sixth of a hand's
    time)."""

    def build() -> Image.Image:
        felt = _mapped(Image.new("RGB", (1, 1), cloth), palette).getpixel((0, 0))
        assert isinstance(felt, int)
        image = Image.new("P", size, felt)
        image.putpalette(palette.getpalette() or [])
        return image

    return memo(("indexed felt", size, cloth, id(palette)), build).copy()


def _card(card: Card, palette: Image.Image) -> Image.Image:
    """A card as the hand shows it, with the felt around its corners, on the palette."""

    def build() -> Image.Image:
        image = Image.new("RGB", face_size(HAND_CARD_WIDTH), FELT)
        sprite = face(card, HAND_CARD_WIDTH)
        image.paste(sprite, (0, 0), sprite)
        return _mapped(image, palette)

    return memo(("indexed card", card.code, id(palette)), build)


def indexed_hand(
    cards: Sequence[Card], palette: Image.Image, lifted: Collection[int] = ()
) -> Image.Image:
    """`hand.hand_picture(cards, lifted)` mapped onto `palette` (a "P" image ready to
    encode), composed from cached sprites."""
    image = _empty(hand_size(len(cards)), palette)
    for index, card in enumerate(cards):
        image.paste(_card(card, palette), card_origin(index, index in lifted))
    return image


def warm_hand_sprites(cards: Collection[Card], palette: Image.Image) -> None:
    """Map every card's sprite onto `palette` now (a worker's warm-up), so that the first
    hands are as quick as the rest."""
    for card in cards:
        _card(card, palette)


_table_sprites: OrderedDict[Hashable, Image.Image] = OrderedDict()
_sprites_lock = threading.Lock()  # pictures are drawn in more than one thread


def _kept(key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
    """A table sprite from the bounded cache, built on a miss (outside the lock: two threads
    may build the same sprite once each, never corrupt the cache)."""
    with _sprites_lock:
        found = _table_sprites.get(key)
        if found is not None:
            _table_sprites.move_to_end(key)
            return found
    found = build()
    with _sprites_lock:
        _table_sprites[key] = found
        if len(_table_sprites) > TABLE_SPRITES:
            _table_sprites.popitem(last=False)
    return found


def _panel_band(state: TableState, upper: bool, height: int, palette: Image.Image) -> Image.Image:
    """A band of the left panel on the palette: the top card's (`upper`) or the icons'."""

    def build() -> Image.Image:
        image = felt((SEATS_X, height), state.dark).copy()
        if upper:
            draw_panel_card(image, state)
            box = (0, 0, SEATS_X, PANEL_SPLIT)
        else:
            draw_panel_icons(image, state)
            box = (0, PANEL_SPLIT, SEATS_X, height)
        return _mapped(image.crop(box), palette)

    shows = (
        (state.top, state.color, state.dark)
        if upper
        else (state.color, state.clockwise, state.draw_pile, state.dark, state.pile_top)
    )
    return _kept(("panel", upper, shows, height, id(palette)), build)


def _seat_row(
    seat: SeatState,
    top: int,
    height: int,
    size: int,
    palette: Image.Image,
    dark: bool | None = None,
) -> Image.Image:
    """A seat's row (right of the panel) on the palette, drawn where the table has it."""

    # Drawn on a canvas of the row's height (a fraction of the picture's), at 0 or 1 px from
    # its top: the same pixels as at `top`, as every coordinate moves by an even number (the
    # drawing rounds halves to even), and one sprite for the rows of that parity.
    parity = top % 2

    def build() -> Image.Image:
        image = Image.new("RGB", (WIDTH, parity + height), felt_tones(dark)[0])
        draw_seat(image, seat, parity, height, size, dark is not None)
        return _mapped(image.crop((SEATS_X, parity, WIDTH, parity + height)), palette)

    return _kept(("seat", seat, parity, height, size, dark, id(palette)), build)


def indexed_table(state: TableState, palette: Image.Image) -> Image.Image:
    """`table.table_picture(state)` mapped onto `palette` (a "P" image ready to encode),
    composed from cached sprites."""
    seats = state.seats[:MAX_SEATS]
    size = picture_size(len(seats), state.flip)
    image = _empty(size, palette, felt_tones(state.dark)[0])
    image.paste(_panel_band(state, True, size[1], palette), (0, 0))
    image.paste(_panel_band(state, False, size[1], palette), (0, PANEL_SPLIT))
    height = row_height(len(seats), state.flip)
    text = name_size(len(seats), state.flip)
    top = (size[1] - height * len(seats)) // 2
    for index, seat in enumerate(seats):
        row = top + index * height
        image.paste(_seat_row(seat, row, height, text, palette, state.dark), (SEATS_X, row))
    return image
