"""The table picture: the discard pile's top card, the active colour, the direction of play, the
draw pile and every seat with its card count, the current player highlighted.

The input is a small immutable value (`TableState`), so pictures are cached by what they show.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw, ImageOps

from bot.engine import Card, Color
from bot.ui.art.faces import back, face, memo, swatch
from bot.ui.art.palette import BACK_FILL, FELT, FELT_LIGHT, HIGHLIGHT, INK, MUTED, PAPER, font
from bot.ui.art.text import label, name_label

WIDTH: Final = 640
HEIGHT: Final = 300
MAX_SEATS: Final = 10
_PAD: Final = 18
_SEATS_X: Final = 300  # the seat list's left edge
_FAN_MAX: Final = 8  # backs drawn per seat; the number says the rest


@dataclass(frozen=True, slots=True)
class SeatState:
    name: str
    cards: int
    current: bool = False


@dataclass(frozen=True, slots=True)
class TableState:
    """What the table picture shows. `color` is the colour in force (for a wild on top: the
    colour chosen, None while it is being chosen)."""

    top: Card
    color: Color | None
    clockwise: bool
    seats: tuple[SeatState, ...]
    draw_pile: int

    @property
    def current(self) -> SeatState | None:
        return next((s for s in self.seats if s.current), None)


def _direction_icon(clockwise: bool, size: int) -> Image.Image:
    """A circular arrow (counter-clockwise: its mirror image), drawn large and scaled down."""

    def build() -> Image.Image:
        s = size * 4
        image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        m = s * 0.16
        w = round(s * 0.13)
        start, end = 300, 580  # degrees, clockwise from 3 o'clock: open at the top
        draw.arc((m, m, s - m, s - m), start, end, fill=PAPER, width=w)
        r = (s - 2 * m - w) / 2
        a = math.radians(end)
        cx = cy = s / 2
        tx, ty = cx + math.cos(a) * r, cy + math.sin(a) * r
        along = (-math.sin(a), math.cos(a))  # the clockwise tangent
        out = (math.cos(a), math.sin(a))
        h = s * 0.2
        draw.polygon(
            [
                (tx + along[0] * h, ty + along[1] * h),
                (tx + out[0] * h, ty + out[1] * h),
                (tx - out[0] * h, ty - out[1] * h),
            ],
            fill=PAPER,
        )
        image = image.resize((size, size), Image.Resampling.LANCZOS)
        return image if clockwise else ImageOps.mirror(image)

    return memo(("direction", clockwise, size), build)


def _mini_back(width: int) -> Image.Image:
    """A card back for the seat fans: the real back is too busy below 20 px, so a plain card
    in the back's colours; overlapped, their paper edges read as a fan."""

    def build() -> Image.Image:
        k = 4
        w, h = width * k, round(width * 1.5) * k
        image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle((0, 0, w - 1, h - 1), w * 0.16, fill=PAPER, outline=INK, width=k)
        m = w * 0.12
        draw.rounded_rectangle((m, m, w - m, h - m), w * 0.1, fill=BACK_FILL)
        return image.reduce(k)

    return memo(("mini back", width), build)


@lru_cache(maxsize=1024)
def _number_image(value: int, size: int) -> Image.Image:
    """A count, outlined so it reads on any background; cached (counts recur all game long)."""
    box = size * 4
    image = Image.new("RGBA", (box, size * 2), (0, 0, 0, 0))
    ImageDraw.Draw(image).text(
        (box / 2, size),
        str(value),
        font=font(size),
        fill=PAPER,
        anchor="mm",
        stroke_width=2,
        stroke_fill=INK,
    )
    return image


def _number(image: Image.Image, xy: tuple[float, float], value: int, size: int) -> None:
    """`value` centred on `xy`."""
    number = _number_image(value, size)
    x, y = round(xy[0] - number.width / 2), round(xy[1] - number.height / 2)
    image.alpha_composite(number, (x, y))


def _fan(count: int, width: int) -> Image.Image:
    """`count` overlapping card backs (a seat's hand), drawn once per count and size."""

    def build() -> Image.Image:
        mini = _mini_back(width)
        image = Image.new("RGBA", (mini.width + 9 * (count - 1), mini.height), (0, 0, 0, 0))
        for k in range(count):
            image.alpha_composite(mini, (k * 9, 0))
        return image

    return memo(("fan", count, width), build)


def _piles(image: Image.Image, state: TableState) -> None:
    """Left half: the draw pile, the top card, the active colour and the direction."""
    draw = ImageDraw.Draw(image)
    pile = back(84)
    layers = min(3, max(1, math.ceil(state.draw_pile / 20))) if state.draw_pile else 0
    x, y = _PAD + 4, 52
    if layers == 0:
        draw.rounded_rectangle((x, y, x + 84, y + 126), 8, outline=MUTED, width=2)
    for k in range(layers):
        image.alpha_composite(pile, (x + 2 * (layers - 1 - k), y - 2 * (layers - 1 - k)))
    _number(image, (x + 42, y + 148), state.draw_pile, 22)
    chosen = state.color if state.top.is_wild else None
    top = face(state.top, 140, chosen)
    image.alpha_composite(top, (130, (HEIGHT - top.height) // 2 - 14))
    badge_y = HEIGHT - _PAD - 40
    if state.color is not None:
        image.alpha_composite(swatch(state.color, 40), (146, badge_y))
    image.alpha_composite(_direction_icon(state.clockwise, 40), (214, badge_y))


def _row_height(seats: int) -> int:
    return min(44, (HEIGHT - 2 * _PAD) // max(1, seats))


def _seat(image: Image.Image, seat: SeatState, index: int, top: int, height: int) -> None:
    """One seat: number, name, a fan of backs and the count; the current one highlighted."""
    draw = ImageDraw.Draw(image)
    left, right = _SEATS_X, WIDTH - _PAD
    if seat.current:
        draw.rounded_rectangle(
            (left, top + 1, right, top + height - 1), 8, fill=FELT_LIGHT, outline=HIGHLIGHT, width=2
        )
    size = min(18, height - 10)
    tone = HIGHLIGHT if seat.current else MUTED
    image.alpha_composite(label(str(index + 1), 22, height, tone, size, True), (left + 6, top))
    name_tone = HIGHLIGHT if seat.current else (226, 232, 228)
    image.alpha_composite(name_label(seat.name, 150, height, name_tone, size), (left + 30, top))
    card_h = height - 8
    fan = min(seat.cards, _FAN_MAX)
    if fan:
        backs = _fan(fan, max(8, card_h * 2 // 3))
        image.alpha_composite(backs, (left + 186, top + (height - backs.height) // 2))
    _number(image, (right - 22, top + height / 2), seat.cards, size + 2)


def _felt() -> Image.Image:
    """The empty table: the felt and the panel of the piles."""

    def build() -> Image.Image:
        image = Image.new("RGBA", (WIDTH, HEIGHT), (*FELT, 255))
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle((6, 6, _SEATS_X - 14, HEIGHT - 7), 16, fill=FELT_LIGHT)
        return image

    return memo(("felt", WIDTH, HEIGHT), build)


def table_picture(state: TableState) -> Image.Image:
    """The whole table, WIDTH x HEIGHT, RGB; seats beyond MAX_SEATS are not drawn."""
    image = _felt().copy()
    _piles(image, state)
    seats = state.seats[:MAX_SEATS]
    height = _row_height(len(seats))
    top = (HEIGHT - height * len(seats)) // 2
    for index, seat in enumerate(seats):
        _seat(image, seat, index, top + index * height, height)
    return image.convert("RGB")
