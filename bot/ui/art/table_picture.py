"""The table picture, made to be read on a phone: the top card, the active colour, the direction
of play and every seat's name and card count, the current seat highlighted and each seat's UNO
state (called, or at risk of being caught).

Discord shows an embed's picture at most 400 px wide on a desktop and about 300 px on a phone,
so the picture is WIDTH = 400 px wide (1:1 on a desktop) and its text is sized for the phone:
a name is NAME_SIZE px (the font's em) in the picture, NAME_SIZE * 300 / 400 px on a 300-px
phone, and never smaller than 12 px there. Few, large things: no seat numbers and no fans of
card backs (the count says it). The height follows the number of seats (HEIGHT for 4 or
fewer, up to MAX_HEIGHT for 10), so a small table takes less of a phone's screen.

UNO Flip's table (`TableState.dark` not None) shows more, as a real table does: each seat's
fan of chips, the other side of its cards, which everybody sees (faces.py `chip`); the draw
pile's top card's other side; the side in play as a sun or a moon on the top card and a felt of
its own (night felt for the dark side). Discord shows an embed's picture at most about 300 px
high (taller ones shrink, whole), so its picture stays within FLIP_MAX_HEIGHT: up to 3 seats
each fan sits under its seat's name, big; more seats share the height, and from
FLIP_TWO_LINES down a fan sits beside the name, its chips as tall as the row allows. Rows too
thin for a chip's index to be read on a phone (8 seats or more) show a tally per colour instead,
the count big beside the colour's shape (faces.py `tally`): the ranks are in each player's hand
message, in words.

The input is a small immutable value (`TableState`), so pictures are cached by what they show.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.engine import COLORS, Card, Color
from bot.engine.cards import DARK_COLORS
from bot.ui.art.faces import (
    back,
    chip,
    chip_size,
    face,
    face_size,
    is_dark,
    memo,
    swatch,
    tally,
    tally_size,
)
from bot.ui.art.palette import (
    FELT,
    FELT_LIGHT,
    HIGHLIGHT,
    INK,
    NIGHT_FELT,
    NIGHT_FELT_LIGHT,
    PAPER,
    RGB,
    font,
)
from bot.ui.art.table_icons import (
    direction_icon,
    knocked_out_cross,
    robot_icon,
    side_icon,
    uno_badge,
)
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

#: UNO Flip: a seat's row at most (its name's line and the fan of chips under it), the name's
#: line, the tallest chip (a phone shows it at three quarters: its index about 12 px tall).
FLIP_NAME_ROW: Final = 28
FLIP_CHIP: Final = 46
FLIP_ROW: Final = FLIP_NAME_ROW + FLIP_CHIP + 6
#: Rows lower than this put the fan beside the name (the name's width: FLIP_NAME_W).
FLIP_TWO_LINES: Final = 64
FLIP_NAME_W: Final = 76
#: Chips lower than this (8 seats or more) have indexes a phone cannot read (about 9 px there):
#: the seat's row shows a tally per colour instead (faces.py `tally`), its ranks in the hands.
FLIP_READABLE_CHIP: Final = 36
#: The name's width beside tallies, and their height at most: a seat's five (four colours and
#: the wilds) fit beside it, barely overlapping.
FLIP_TALLY_NAME_W: Final = 62
FLIP_TALLY: Final = 24
#: The tallest UNO Flip picture (Discord shrinks a taller one to about 300 px high).
FLIP_MAX_HEIGHT: Final = 300
#: The draw pile's chip in the panel.
_PILE_CHIP: Final = 40

NAME_TONE: Final = (232, 238, 234)
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
    shows: tuple[Card, ...] = ()  # UNO Flip: the other side of its cards, which all see


@dataclass(frozen=True, slots=True)
class TableState:
    """What the table picture shows. `color` is the colour in force (for a wild on top: the
    colour chosen, None while it is being chosen). UNO Flip's: `dark`, the side in play (None:
    not UNO Flip), and `pile_top`, the other side of the draw pile's top card."""

    top: Card
    color: Color | None
    clockwise: bool
    seats: tuple[SeatState, ...]
    draw_pile: int
    dark: bool | None = None
    pile_top: Card | None = None

    @property
    def flip(self) -> bool:
        return self.dark is not None

    @property
    def current(self) -> SeatState | None:
        return next((s for s in self.seats if s.current), None)


def picture_size(seats: int, flip: bool = False) -> tuple[int, int]:
    """The picture's size for a table of `seats` seats (`flip`: UNO Flip's, with its fans)."""
    seats = max(1, min(seats, MAX_SEATS))
    if flip:
        return WIDTH, max(HEIGHT, min(FLIP_MAX_HEIGHT, 2 * _PAD + seats * FLIP_ROW))
    return WIDTH, max(HEIGHT, 2 * _PAD + seats * ROW_MIN)


def seat_right() -> int:
    """The right edge of the names' column (the count's column begins after it)."""
    return _RIGHT - _COUNT_W - 4


def row_height(seats: int, flip: bool = False) -> int:
    if flip:
        room = picture_size(seats, flip=True)[1] - 2 * _PAD
        return min(FLIP_ROW, room // max(1, min(seats, MAX_SEATS)))
    height = picture_size(seats)[1]
    return min(ROW_MAX, (height - 2 * _PAD) // max(1, min(seats, MAX_SEATS)))


def name_size(seats: int, flip: bool = False) -> int:
    """The names' font size for `seats` seats (ten: NAME_SIZE)."""
    if flip:
        return min(NAME_SIZE, row_height(seats, flip=True) - 6)
    return min(NAME_MAX, max(NAME_SIZE, row_height(seats) - 8))


def felt_tones(dark: bool | None) -> tuple[RGB, RGB]:
    """The felt and the panel's tone: night felt while UNO Flip's dark side is in play."""
    return (NIGHT_FELT, NIGHT_FELT_LIGHT) if dark else (FELT, FELT_LIGHT)


@lru_cache(maxsize=1024)
def _number_image(value: int | str, size: int, fill: tuple[int, int, int]) -> Image.Image:
    """A count ("+3": that many more), bold and outlined so it reads on any background; cached
    (counts recur)."""
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
    value: int | str,
    size: int,
    fill: tuple[int, int, int] = PAPER,
) -> None:
    """`value` centred on `xy`."""
    number = _number_image(value, size, fill)
    x, y = round(xy[0] - number.width / 2), round(xy[1] - number.height / 2)
    _put(image, number, (x, y))


#: The left panel's two bands: the top card above this line, the colour, direction and draw
#: pile below it (indexed.py caches each band by what it shows).
PANEL_SPLIT: Final = 10 + face_size(_CARD_W)[1] + 2


def draw_panel_card(image: Image.Image, state: TableState) -> None:
    """The left panel's upper band: the top card (a wild in the colour chosen); in UNO Flip
    the side in play, a sun or a moon, on its upper right corner."""
    chosen = state.color if state.top.is_wild else None
    x = (SEATS_X - 4 - _CARD_W) // 2
    _put(image, face(state.top, _CARD_W, chosen), (x, 10))
    if state.flip:
        badge = side_icon(bool(state.dark), 34)
        _put(image, badge, (x + _CARD_W - badge.width + 12, 0))


def draw_panel_icons(image: Image.Image, state: TableState) -> None:
    """The left panel's lower band: the active colour, the direction of play and the draw
    pile (a card back with its count; in UNO Flip the side in play, then the other side of
    the pile's top card, which everybody sees, with the count beside it)."""
    y = PANEL_SPLIT + 6
    x = 10
    if state.color is not None:
        _put(image, swatch(state.color, _ICON), (x, y))
    _put(image, direction_icon(state.clockwise, _ICON), (x + _ICON + 2, y))
    if state.flip:  # the pile's top card's other side, its count over its lower half
        if state.pile_top is not None:
            pile = chip(state.pile_top, _PILE_CHIP)
            px = x + 2 * _ICON + 8
            _put(image, pile, (px, y + (_ICON - pile.height) // 2))
            _number(image, (px + pile.width / 2, y + _ICON * 0.72), state.draw_pile, 15)
        return
    pile = back(_PILE_W)
    px = x + 2 * _ICON + 6
    _put(image, pile, (px, y + (_ICON - pile.height) // 2))
    _number(image, (px + pile.width / 2, y + _ICON / 2), state.draw_pile, 16)


def draw_seat(
    image: Image.Image, seat: SeatState, top: int, height: int, size: int, flip: bool = False
) -> None:
    """One seat: the turn marker, the name, the UNO badge and the count; in UNO Flip (`flip`)
    the fan of the other side of its cards under them."""
    draw = ImageDraw.Draw(image)
    left, right = SEATS_X, _RIGHT
    if seat.current:
        draw.rounded_rectangle(
            (left, top + 1, right + 4, top + height - 1),
            8,
            fill=None if flip else FELT_LIGHT,  # (UNO Flip's felt is the side's)
            outline=HIGHLIGHT,
            width=2,
        )
    row = height
    beside = flip and height < FLIP_TWO_LINES  # the fan beside the name, not under it
    if flip and not beside:
        chips = height - FLIP_NAME_ROW - 4
        _fan(image, seat.shows, top + FLIP_NAME_ROW, left + 8, right - 2, chips)
        height = FLIP_NAME_ROW
    middle = top + height / 2
    if seat.current:
        h = min(size * 0.7, height * 0.5)
        draw.polygon(
            [(left + 6, middle - h / 2), (left + 6, middle + h / 2), (left + 6 + h * 0.8, middle)],
            fill=HIGHLIGHT,
        )
    badge = seat.at_risk or seat.uno
    name_w = seat_right() - NAME_X - (_BADGE_W + 2 if badge else 0)
    tallied = beside and row - 4 < FLIP_READABLE_CHIP
    if beside:
        name_w = FLIP_TALLY_NAME_W if tallied else FLIP_NAME_W
    tone = HIGHLIGHT if seat.current else (OUT_TONE if seat.knocked_out else NAME_TONE)
    name_x = NAME_X
    if seat.computer:
        icon = robot_icon(round(size * 0.95), tone)
        _put(image, icon, (NAME_X, round(middle - icon.height / 2)))
        name_x += icon.width + 4
        name_w -= icon.width + 4
    _put(image, name_label(seat.name, name_w, height, tone, size), (name_x, top))
    badge_x = right - _COUNT_W - _BADGE_W - 2
    if beside:  # the fan from the name's end; an UNO badge after it (one card: room enough)
        fan_left = name_x + name_w + 4  # (the name's end, after a robot icon too)
        fan_right = right - _COUNT_W - 2
        if tallied:
            tall = min(row - 4, FLIP_TALLY)
            at = top + (row - tall) // 2
            end = _tallies(image, seat.shows, at, fan_left, fan_right, tall)
        else:
            end = _fan(image, seat.shows, top + 2, fan_left, fan_right, row - 4)
        badge_x = max(end + 4, badge_x) if badge else badge_x
    if badge:
        tag = uno_badge(seat.at_risk, _BADGE_W, min(height - 4, 30))
        _put(image, tag, (badge_x, round(middle - tag.height / 2)))
    if seat.knocked_out:  # no hand to count: a red cross where the count would be
        knocked_out_cross(draw, (right - _COUNT_W / 2, middle), size * 0.32)
        return
    fill = HIGHLIGHT if seat.current else PAPER
    _number(image, (right - _COUNT_W / 2, middle), seat.cards, size, fill)


def _fan(
    image: Image.Image, cards: tuple[Card, ...], top: int, left: int, right: int, height: int
) -> int:
    """A fan of chips `height` px tall from `left`, each overlapping the one before it no
    closer than its index (about a third of its height); cards beyond what fits are counted
    ("+3") at the end. Returns where the fan ends."""
    if not cards:
        return left
    width = chip_size(height)[0]
    closest = max(8, round(height * 0.36))
    room = right - left
    step = width + 2
    shown = len(cards)
    if shown > 1 and (shown - 1) * step + width > room:
        step = max(closest, (room - width) // (shown - 1))
    if (shown - 1) * step + width > room:  # even at the closest: count the rest
        shown = max(1, (room - width - 30) // step + 1)
    for index, card in enumerate(cards[:shown]):
        _put(image, chip(card, height), (left + index * step, top))
    end = left + (shown - 1) * step + width
    if shown < len(cards):
        size = min(18, max(12, height // 2))
        _number(image, (end + 15, top + height / 2), f"+{len(cards) - shown}", size)
        end += 30
    return end


def _tallies(
    image: Image.Image, cards: tuple[Card, ...], top: int, left: int, right: int, height: int
) -> int:
    """`cards` counted by colour, the wilds last, a tile each `height` px tall from `left`
    (closer together when they would pass `right`). Returns where they end."""
    if not cards:
        return left
    dark = is_dark(cards[0])
    groups = tally_groups(cards)
    width = tally_size(height)[0]
    step = width + 2
    if len(groups) > 1 and (len(groups) - 1) * step + width > right - left:
        step = max(width * 2 // 3, (right - left - width) // (len(groups) - 1))
    for index, (color, count) in enumerate(groups):
        _put(image, tally(color, dark, count, height), (left + index * step, top))
    return left + (len(groups) - 1) * step + width


def tally_groups(cards: tuple[Card, ...]) -> list[tuple[Color | None, int]]:
    """How many of `cards` (one side's) each colour has, in the side's order of colours, then
    the wilds (None): what a crowded UNO Flip table shows of a seat's other sides."""
    counts: dict[Color | None, int] = {}
    for card in cards:
        counts[card.color] = counts.get(card.color, 0) + 1
    side = DARK_COLORS if cards and is_dark(cards[0]) else COLORS
    return [(c, counts[c]) for c in (*side, None) if c in counts]


def felt(size: tuple[int, int], dark: bool | None = None) -> Image.Image:
    """The empty table: the felt and the panel of the piles (`dark`: UNO Flip's dark side's)."""
    cloth, panel = felt_tones(dark)

    def build() -> Image.Image:
        # Opaque (RGB): what is drawn on it is pasted through its own alpha (`_put`).
        image = Image.new("RGB", size, cloth)
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle((4, 4, SEATS_X - 8, size[1] - 5), 14, fill=panel)
        return image

    return memo(("felt", size, bool(dark)), build)


def table_picture(state: TableState) -> Image.Image:
    """The whole table, `picture_size(seats)`, RGB; seats beyond MAX_SEATS are not drawn."""
    seats = state.seats[:MAX_SEATS]
    size = picture_size(len(seats), state.flip)
    image = felt(size, state.dark).copy()
    draw_panel_card(image, state)
    draw_panel_icons(image, state)
    height = row_height(len(seats), state.flip)
    text = name_size(len(seats), state.flip)
    top = (size[1] - height * len(seats)) // 2
    for index, seat in enumerate(seats):
        draw_seat(image, seat, top + index * height, height, text, state.flip)
    return image


def _put(image: Image.Image, sprite: Image.Image, at: tuple[int, int]) -> None:
    """Paste an RGBA sprite onto the opaque table through its own alpha: the same pixels as
    alpha-compositing it, at half the cost."""
    image.paste(sprite, at, sprite)
