"""The table picture, made to be read on a phone: the top card, the active colour, the direction
of play and every seat's name and card count, the current seat highlighted and each seat's UNO
state (called, or at risk of being caught).

Discord shows an embed's picture at most 400 px wide on a desktop and about 300 px on a phone,
so the picture is WIDTH = 400 px wide (1:1 on a desktop) and its text is sized for the phone:
a name is NAME_SIZE px (the font's em) in the picture, NAME_SIZE * 300 / 400 px on a 300-px
phone, and never smaller than 12 px there. Few, large things: no seat numbers and no fans of
card backs (the count says it). The height follows the number of seats (HEIGHT for 4 or
fewer, up to MAX_HEIGHT for 10), so a small table takes less of a phone's screen.

The input is a small immutable value (`TableState`), so pictures are cached by what they show.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw, ImageOps

from bot.engine import Card, Color
from bot.ui.art.faces import back, face, face_size, memo, swatch
from bot.ui.art.lettering import name_font
from bot.ui.art.palette import FELT, FELT_LIGHT, FILL, HIGHLIGHT, INK, PAPER, font
from bot.ui.art.text import name_label

WIDTH: Final = 400
MAX_SEATS: Final = 10
#: Rows of the seat list: at most ROW_MAX px each, at least ROW_MIN (ten seats).
ROW_MAX: Final = 48
ROW_MIN: Final = 26
_PAD: Final = 8
#: The picture's height with up to 4 seats (the left panel's own), and with 10.
HEIGHT: Final = 218
MAX_HEIGHT: Final = 2 * _PAD + MAX_SEATS * ROW_MIN
#: Names' and counts' size (the font's em) in the picture, with ten seats; fewer get NAME_MAX.
NAME_SIZE: Final = 22
NAME_MAX: Final = 26
#: The seat list: its left edge, the names' left edge and the picture's right margin.
SEATS_X: Final = 138
NAME_X: Final = SEATS_X + 22
_RIGHT: Final = WIDTH - 6
_COUNT_W: Final = 36  # the count's column, right-aligned
_BADGE_W: Final = 60  # an UNO badge's width
_CARD_W: Final = 100  # the top card's width in the left panel
_ICON: Final = 40  # the colour swatch and the direction arrow
_PILE_W: Final = 30  # the draw pile's card back

NAME_TONE: Final = (232, 238, 234)
AT_RISK: Final = FILL[Color.RED]
#: A knocked-out seat's name: dimmed, out of the round.
OUT_TONE: Final = (128, 140, 134)


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat in the round: `uno` when it called UNO on its last card, `at_risk` when it holds
    one card without having called it (anyone may catch it); `computer` for a computer player
    (drawn with the robot icon before its name)."""

    name: str
    cards: int
    current: bool = False
    uno: bool = False
    at_risk: bool = False
    computer: bool = False
    knocked_out: bool = False  # out of the round by the mercy rule: a cross, not a count


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


def picture_size(seats: int) -> tuple[int, int]:
    """The picture's size for a table of `seats` seats."""
    seats = max(1, min(seats, MAX_SEATS))
    return WIDTH, max(HEIGHT, 2 * _PAD + seats * ROW_MIN)


def seat_right() -> int:
    """The right edge of the names' column (the count's column begins after it)."""
    return _RIGHT - _COUNT_W - 4


def row_height(seats: int) -> int:
    height = picture_size(seats)[1]
    return min(ROW_MAX, (height - 2 * _PAD) // max(1, min(seats, MAX_SEATS)))


def name_size(seats: int) -> int:
    """The names' font size for `seats` seats (ten: NAME_SIZE)."""
    return min(NAME_MAX, max(NAME_SIZE, row_height(seats) - 8))


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


@lru_cache(maxsize=1024)
def _number_image(value: int, size: int, fill: tuple[int, int, int]) -> Image.Image:
    """A count, bold and outlined so it reads on any background; cached (counts recur)."""
    box = size * 4
    image = Image.new("RGBA", (box, size * 2), (0, 0, 0, 0))
    ImageDraw.Draw(image).text(
        (box / 2, size),
        str(value),
        font=font(size),
        fill=fill,
        anchor="mm",
        stroke_width=2,
        stroke_fill=INK,
    )
    return image


def _number(
    image: Image.Image,
    xy: tuple[float, float],
    value: int,
    size: int,
    fill: tuple[int, int, int] = PAPER,
) -> None:
    """`value` centred on `xy`."""
    number = _number_image(value, size, fill)
    x, y = round(xy[0] - number.width / 2), round(xy[1] - number.height / 2)
    _put(image, number, (x, y))


def _badge(at_risk: bool, height: int) -> Image.Image:
    """An UNO badge: "UNO!" on paper when called; "UNO?" in red, framed, when not called."""

    def build() -> Image.Image:
        k = 4
        w, h = _BADGE_W * k, height * k
        image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        fill, ink = (AT_RISK, PAPER) if at_risk else (PAPER, INK)
        draw.rounded_rectangle((0, 0, w - 1, h - 1), h // 2, fill=fill, outline=PAPER, width=2 * k)
        draw.text(
            (w / 2, h / 2),
            "UNO?" if at_risk else "UNO!",
            font=name_font(round(h * 0.6)),
            fill=ink,
            anchor="mm",
            stroke_width=k // 2,
            stroke_fill=ink,
        )
        return image.reduce(k)

    return memo(("uno badge", at_risk, height), build)


#: The left panel's two bands: the top card above this line, the colour, direction and draw
#: pile below it (indexed.py caches each band by what it shows).
PANEL_SPLIT: Final = 10 + face_size(_CARD_W)[1] + 2


def draw_panel_card(image: Image.Image, state: TableState) -> None:
    """The left panel's upper band: the top card (a wild in the colour chosen)."""
    chosen = state.color if state.top.is_wild else None
    _put(image, face(state.top, _CARD_W, chosen), ((SEATS_X - 4 - _CARD_W) // 2, 10))


def draw_panel_icons(image: Image.Image, state: TableState) -> None:
    """The left panel's lower band: the active colour, the direction of play and the draw
    pile (a card back with its count)."""
    y = PANEL_SPLIT + 6
    x = 10
    if state.color is not None:
        _put(image, swatch(state.color, _ICON), (x, y))
    _put(image, _direction_icon(state.clockwise, _ICON), (x + _ICON + 2, y))
    pile = back(_PILE_W)
    px = x + 2 * _ICON + 6
    _put(image, pile, (px, y + (_ICON - pile.height) // 2))
    _number(image, (px + pile.width / 2, y + _ICON / 2), state.draw_pile, 16)


def draw_seat(image: Image.Image, seat: SeatState, top: int, height: int, size: int) -> None:
    """One seat: the turn marker, the name, the UNO badge and the count."""
    draw = ImageDraw.Draw(image)
    left, right = SEATS_X, _RIGHT
    middle = top + height / 2
    if seat.current:
        draw.rounded_rectangle(
            (left, top + 1, right + 4, top + height - 1),
            8,
            fill=FELT_LIGHT,
            outline=HIGHLIGHT,
            width=2,
        )
        h = min(size * 0.7, height * 0.5)
        draw.polygon(
            [(left + 6, middle - h / 2), (left + 6, middle + h / 2), (left + 6 + h * 0.8, middle)],
            fill=HIGHLIGHT,
        )
    badge = seat.at_risk or seat.uno
    name_w = seat_right() - NAME_X - (_BADGE_W + 2 if badge else 0)
    tone = HIGHLIGHT if seat.current else (OUT_TONE if seat.knocked_out else NAME_TONE)
    name_x = NAME_X
    if seat.computer:
        icon = robot_icon(round(size * 0.95), tone)
        _put(image, icon, (NAME_X, round(middle - icon.height / 2)))
        name_x += icon.width + 4
        name_w -= icon.width + 4
    _put(image, name_label(seat.name, name_w, height, tone, size), (name_x, top))
    if badge:
        tag = _badge(seat.at_risk, min(height - 4, 30))
        _put(image, tag, (right - _COUNT_W - _BADGE_W - 2, round(middle - tag.height / 2)))
    if seat.knocked_out:  # no hand to count: a red cross where the count would be
        _cross(draw, (right - _COUNT_W / 2, middle), size * 0.32)
        return
    fill = HIGHLIGHT if seat.current else PAPER
    _number(image, (right - _COUNT_W / 2, middle), seat.cards, size, fill)


def _cross(draw: ImageDraw.ImageDraw, center: tuple[float, float], half: float) -> None:
    """A knocked-out seat's mark: a red cross with an ink edge."""
    x, y = center
    for width, colour in ((half * 0.55, INK), (half * 0.3, FILL[Color.RED])):
        draw.line([(x - half, y - half), (x + half, y + half)], fill=colour, width=round(width))
        draw.line([(x - half, y + half), (x + half, y - half)], fill=colour, width=round(width))


def robot_icon(size: int, fill: tuple[int, int, int]) -> Image.Image:
    """A computer player's mark: a robot's head (antenna, rounded face, two eyes, a mouth),
    `size` px square, drawn at four times the size and scaled down. Our own art: an emoji
    would need a font the pictures do not have."""

    def build() -> Image.Image:
        k = 4
        s = size * k
        image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        clear = (0, 0, 0, 0)
        line = max(k, round(s * 0.08))
        draw.line((s / 2, s * 0.06, s / 2, s * 0.28), fill=fill, width=line)  # the antenna
        r = s * 0.08
        draw.ellipse((s / 2 - r, s * 0.02, s / 2 + r, s * 0.02 + 2 * r), fill=fill)
        draw.rectangle((s * 0.02, s * 0.48, s * 0.98, s * 0.66), fill=fill)  # the ears
        draw.rounded_rectangle((s * 0.12, s * 0.26, s * 0.88, s * 0.94), s * 0.16, fill=fill)
        e = s * 0.09
        for cx in (s * 0.35, s * 0.65):  # the eyes, cut out of the face
            draw.ellipse((cx - e, s * 0.5 - e, cx + e, s * 0.5 + e), fill=clear)
        draw.rounded_rectangle(  # the mouth
            (s * 0.3, s * 0.72, s * 0.7, s * 0.8), s * 0.04, fill=clear
        )
        return image.resize((size, size), Image.Resampling.LANCZOS)

    return memo(("robot", size, fill), build)


def felt(size: tuple[int, int]) -> Image.Image:
    """The empty table: the felt and the panel of the piles."""

    def build() -> Image.Image:
        # Opaque (RGB): what is drawn on it is pasted through its own alpha (`_put`).
        image = Image.new("RGB", size, FELT)
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle((4, 4, SEATS_X - 8, size[1] - 5), 14, fill=FELT_LIGHT)
        return image

    return memo(("felt", size), build)


def table_picture(state: TableState) -> Image.Image:
    """The whole table, `picture_size(seats)`, RGB; seats beyond MAX_SEATS are not drawn."""
    seats = state.seats[:MAX_SEATS]
    size = picture_size(len(seats))
    image = felt(size).copy()
    draw_panel_card(image, state)
    draw_panel_icons(image, state)
    height = row_height(len(seats))
    text = name_size(len(seats))
    top = (size[1] - height * len(seats)) // 2
    for index, seat in enumerate(seats):
        draw_seat(image, seat, top + index * height, height, text)
    return image


def _put(image: Image.Image, sprite: Image.Image, at: tuple[int, int]) -> None:
    """Paste an RGBA sprite onto the opaque table through its own alpha: the same pixels as
    alpha-compositing it, at half the cost."""
    image.paste(sprite, at, sprite)
