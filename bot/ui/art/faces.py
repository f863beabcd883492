"""Every card face, the card back and the colour swatches, drawn once from code and cached.

A face is drawn at SUPERSAMPLE times the base size and scaled down once (smooth edges), then
each requested width is scaled from the base once and kept. UNO Flip's dark side has a look of
its own: a dark card body (border, emblem) around its bright colours, and a dark wild. A chip
(`chip`) is a card made small for the table's fans of UNO Flip's other sides: its index alone,
big, as a fan of real cards shows it. Cached images are shared between
threads: callers may read and paste them but must never draw on them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Final

from PIL import Image, ImageChops, ImageDraw

from bot.engine import COLORS, Card, Color, Rank
from bot.ui.art import glyphs
from bot.ui.art.palette import (
    BACK_FILL,
    DARK_BODY,
    DARK_WILD_FILL,
    FILL,
    INK,
    PAPER,
    RGB,
    SHADE,
    SHAPE,
    WILD_FILL,
    Shape,
)

BASE_WIDTH: Final = 120
BASE_HEIGHT: Final = 180
SUPERSAMPLE: Final = 4
SWATCH_SIZE: Final = 128

Symbol = Callable[[ImageDraw.ImageDraw, glyphs.Box, RGB, float], None]
_SYMBOLS: Final[dict[Rank, Symbol]] = {
    Rank.SKIP: glyphs.skip,
    Rank.REVERSE: glyphs.reverse,
    Rank.SWAP_HANDS: glyphs.swap,
    Rank.SHUFFLE_HANDS: glyphs.shuffle,
    Rank.CUSTOMIZABLE: glyphs.pencil,
    Rank.SKIP_EVERYONE: glyphs.skip_everyone,
    Rank.DISCARD_ALL: glyphs.discard_all,
    Rank.WILD_COLOR_ROULETTE: glyphs.roulette,
    Rank.FLIP: glyphs.flip,
    Rank.WILD_DRAW_COLOR: glyphs.draw_color,
}
_TEXTS: Final = {
    Rank.DRAW_TWO: "+2",
    Rank.WILD_DRAW_FOUR: "+4",
    # Show 'Em No Mercy's draw cards, as the classic ones: the count they make you draw.
    Rank.DRAW_FOUR: "+4",
    Rank.WILD_DRAW_SIX: "+6",
    Rank.WILD_DRAW_TEN: "+10",
    # UNO Flip's Wild Draw Two, as the Wild Draw Four
    Rank.WILD_DRAW_TWO: "+2",
}
#: UNO Flip's coloured draw cards: the count over the cards it makes you draw.
_DRAW_CARDS: Final = {Rank.DRAW_ONE: ("+1", 1), Rank.DRAW_FIVE: ("+5", 3)}
#: The wilds drawn as the wheel alone (the light side's and UNO Flip's dark side's Wild).
_PLAIN_WILDS: Final = (Rank.WILD, Rank.DARK_WILD)
#: Labels too wide for the mark's height: drawn narrower so they stay inside the hub.
_NARROW: Final = {"+10": 0.68}
#: UNO Flip's dark side's wild ranks (its coloured cards have dark colours).
_DARK_WILDS: Final = (Rank.DARK_WILD, Rank.WILD_DRAW_COLOR)


def is_dark(card: Card) -> bool:
    """A face of UNO Flip's dark side: drawn with the dark look."""
    return card.color.is_dark if card.color is not None else card.rank in _DARK_WILDS


_CORNER: Final = (44, 62)  # the corner index's box, in base units


def _u(value: float) -> int:
    """Base-size units to pixels of the supersampled canvas."""
    return round(value * SUPERSAMPLE)


def _canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (_u(BASE_WIDTH), _u(BASE_HEIGHT)), (0, 0, 0, 0))
    return image, ImageDraw.Draw(image)


def _finish(image: Image.Image) -> Image.Image:
    """Back to base size by averaging each SUPERSAMPLE-square block: exact anti-aliasing, and
    about ten times faster than a Lanczos resize."""
    return image.reduce(SUPERSAMPLE)


def _body(draw: ImageDraw.ImageDraw, inner: RGB, frame: RGB, edge: RGB = PAPER) -> None:
    """The card: a paper border (the dark side's: a dark one) around a coloured field with a
    thin frame line."""
    w, h = _u(BASE_WIDTH), _u(BASE_HEIGHT)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), _u(11), fill=edge, outline=INK, width=_u(1))
    draw.rounded_rectangle((_u(5), _u(5), w - _u(5), h - _u(5)), _u(8), fill=inner)
    draw.rounded_rectangle(
        (_u(9), _u(9), w - _u(9), h - _u(9)), _u(6), outline=frame, width=_u(1.5)
    )


def _rank_mark(
    draw: ImageDraw.ImageDraw,
    rank: Rank,
    center: tuple[float, float],
    size: float,
    fill: RGB,
    dark: bool = False,
    small: bool = False,
) -> None:
    """The rank's symbol or number centred at `center`, about `size` tall (`dark`: of UNO
    Flip's dark side, whose wheel has its own colours; `small`: for a chip, where a draw
    card's count alone reads better than the count over its fan of cards)."""
    edge = size * 0.06
    cx, cy = center
    if rank.is_number:
        label = rank.value
        glyphs.text(draw, center, label, size, fill, edge)
        if label in "69":  # underline: a 6 and a 9 look alike upside down
            y = cy + size * 0.66
            half = size * 0.25
            glyphs.outlined_line(draw, [(cx - half, y), (cx + half, y)], fill, size * 0.06, edge)
    elif rank in _TEXTS:
        label = _TEXTS[rank]
        glyphs.text(draw, center, label, size * _NARROW.get(label, 0.85), fill, edge)
    elif rank in _DRAW_CARDS and small:
        glyphs.text(draw, center, _DRAW_CARDS[rank][0], size * 0.85, fill, edge)
    elif rank in _DRAW_CARDS:
        label, cards = _DRAW_CARDS[rank]
        r = size * 0.62
        glyphs.draw_cards(draw, (cx - r, cy - r, cx + r, cy + r), label, cards, fill, edge)
    elif rank is Rank.WILD_REVERSE_DRAW_FOUR:
        r = size * 0.6
        glyphs.reverse_draw(draw, (cx - r, cy - r, cx + r, cy + r), "+4", fill, edge)
    elif rank in _PLAIN_WILDS:
        r = size * 0.55
        glyphs.wheel(draw, (cx - r, cy - r, cx + r, cy + r), edge, marks=False, dark=dark)
    else:
        r = size * 0.6
        _SYMBOLS[rank](draw, (cx - r, cy - r, cx + r, cy + r), fill, edge)


def _corners(image: Image.Image, rank: Rank, color: Color | None, dark: bool = False) -> None:
    """The index in two opposite corners: rank, and the colour's shape under it (on the dark
    side: dark, as its emblem)."""
    layer = Image.new("RGBA", (_u(_CORNER[0]), _u(_CORNER[1])), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    _rank_mark(draw, rank, (_u(22), _u(24)), _u(19), PAPER, dark)
    if color is not None:
        g = _u(12)
        box = (_u(22) - g / 2, _u(39), _u(22) + g / 2, _u(39) + g)
        fill, outline = (DARK_BODY, PAPER) if dark else (PAPER, INK)
        glyphs.draw_shape(draw, SHAPE[color], box, fill, outline, _u(1.2))
    image.alpha_composite(layer)
    far = (image.width - layer.width, image.height - layer.height)
    image.alpha_composite(layer.transpose(Image.Transpose.ROTATE_180), far)


#: The emblem's half size and the rank's size inside it, by shape (base units).
_EMBLEM_HALF: Final = {
    Shape.CIRCLE: 42,
    Shape.SQUARE: 36,
    Shape.TRIANGLE: 49,
    Shape.DIAMOND: 50,
    Shape.HEART: 46,
    Shape.HEXAGON: 46,
    Shape.STAR: 52,
    Shape.DOWN_TRIANGLE: 49,
}
_EMBLEM_RANK: Final = {
    Shape.TRIANGLE: 33,
    Shape.DIAMOND: 34,
    Shape.HEART: 38,
    Shape.HEXAGON: 42,
    Shape.STAR: 30,
    Shape.DOWN_TRIANGLE: 33,
}


def _emblem(draw: ImageDraw.ImageDraw, color: Color, rank: Rank, dark: bool = False) -> None:
    """The big colour shape in the middle with the rank inside it: paper on the light side,
    the dark body's colour (with a paper edge) on UNO Flip's dark side."""
    shape = SHAPE[color]
    cx, cy = _u(BASE_WIDTH / 2), _u(BASE_HEIGHT / 2)
    half = _u(_EMBLEM_HALF[shape])
    # a triangle sits off the middle, clear of the corner index it points at
    lift = {Shape.TRIANGLE: -20, Shape.DOWN_TRIANGLE: 20}.get(shape, 0)
    top = cy - half + _u(lift)
    box = (cx - half, top, cx + half, top + 2 * half)
    d = _u(3)
    shadow = (box[0] + d, box[1] + d, box[2] + d, box[3] + d)
    glyphs.draw_shape(draw, shape, shadow, SHADE[color], None, 0)
    fill, outline = (DARK_BODY, PAPER) if dark else (PAPER, INK)
    glyphs.draw_shape(draw, shape, box, fill, outline, _u(1.5))
    size = _u(_EMBLEM_RANK.get(shape, 44))
    _rank_mark(draw, rank, glyphs.shape_center(shape, box), size, FILL[color], dark)


def _draw_colored(card: Card) -> Image.Image:
    assert card.color is not None
    dark = is_dark(card)
    image, draw = _canvas()
    _body(draw, FILL[card.color], SHADE[card.color], DARK_BODY if dark else PAPER)
    _emblem(draw, card.color, card.rank, dark)
    _corners(image, card.rank, card.color, dark)
    return _finish(image)


def _draw_wild(card: Card, chosen: Color | None) -> Image.Image:
    """A wild: the four-colour wheel; once a colour is chosen, the field takes that colour and
    only its quarter of the wheel stays lit."""
    image, draw = _canvas()
    dark = is_dark(card)
    field = FILL[chosen] if chosen else (DARK_WILD_FILL if dark else WILD_FILL)
    frame = SHADE[chosen] if chosen else ((150, 92, 226) if dark else (90, 90, 104))
    _body(draw, field, frame, DARK_BODY if dark else PAPER)
    cx, cy = _u(BASE_WIDTH / 2), _u(BASE_HEIGHT / 2)
    r = _u(46)
    glyphs.wheel(draw, (cx - r, cy - r, cx + r, cy + r), _u(2), lit=chosen, dark=dark)
    plain = card.rank in _PLAIN_WILDS
    if not plain:
        hub = _u(33)
        draw.ellipse((cx - hub, cy - hub, cx + hub, cy + hub), fill=INK, outline=PAPER, width=_u(2))
        _rank_mark(draw, card.rank, (cx, cy), _u(38), PAPER if chosen is None else field, dark)
    if chosen is not None and not plain:  # the chosen shape on its quarter
        gx, gy = glyphs.quarter_point(chosen, (cx, cy), _u(38))
        g = _u(11)
        badge = (gx - g, gy - g, gx + g, gy + g)
        glyphs.draw_shape(draw, SHAPE[chosen], badge, PAPER, INK, _u(1.5))
    _corners(image, card.rank, chosen, dark)
    return _finish(image)


def _draw_back() -> Image.Image:
    """The back: our own motif, the four colour shapes around a ring; no words, no logo."""
    image, draw = _canvas()
    _body(draw, BACK_FILL, (120, 108, 180))
    w, h = _u(BASE_WIDTH), _u(BASE_HEIGHT)
    stripes = Image.new("RGBA", image.size, (0, 0, 0, 0))
    lines = ImageDraw.Draw(stripes)
    for k in range(-16, 12):
        left = k * _u(12)
        lines.line([(left, 0), (left + h, h)], fill=(54, 47, 90), width=_u(3))
    field = Image.new("L", image.size, 0)
    ImageDraw.Draw(field).rounded_rectangle((_u(5), _u(5), w - _u(5), h - _u(5)), _u(8), fill=255)
    image.paste(stripes, (0, 0), ImageChops.multiply(stripes.getchannel("A"), field))
    draw.rounded_rectangle(
        (_u(9), _u(9), w - _u(9), h - _u(9)), _u(6), outline=(120, 108, 180), width=_u(1.5)
    )
    cx, cy = w / 2, h / 2
    r = _u(40)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(30, 26, 54), outline=PAPER, width=_u(3))
    g = _u(24)
    spots = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    for color, (dx, dy) in zip(COLORS, spots, strict=True):
        x, y = cx + dx * _u(15), cy + dy * _u(15)
        box = (x - g / 2, y - g / 2, x + g / 2, y + g / 2)
        glyphs.draw_shape(draw, SHAPE[color], box, FILL[color], INK, _u(1.5))
    return _finish(image)


def _draw_swatch(color: Color) -> Image.Image:
    """A colour-choice button picture: the colour, its shape and its letter."""
    s = SWATCH_SIZE * SUPERSAMPLE
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, s - 1, s - 1), s * 0.2, fill=FILL[color], outline=INK, width=s // 40
    )
    m = s * 0.16
    shape = SHAPE[color]
    box = (m, m * (0.7 if shape is Shape.TRIANGLE else 1), s - m, s - m)
    glyphs.draw_shape(draw, shape, box, PAPER, INK, s // 40)
    center = glyphs.shape_center(shape, box)
    glyphs.text(draw, center, color.value, s * 0.26, FILL[color], s * 0.02)
    return image.reduce(SUPERSAMPLE)


#: A chip's size in base units (2:2.8, a little squatter than a card: the index is all of it).
CHIP_BASE: Final = (50, 70)


def _draw_chip(card: Card) -> Image.Image:
    """A card made small: its body and a big index (rank over the colour's shape) in its
    upper left, which a fan of chips leaves showing, as a fan of real cards does."""
    w, h = _u(CHIP_BASE[0]), _u(CHIP_BASE[1])
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    dark = is_dark(card)
    wild_field = DARK_WILD_FILL if dark else WILD_FILL
    field = FILL[card.color] if card.color is not None else wild_field
    edge = DARK_BODY if dark else PAPER
    draw.rounded_rectangle((0, 0, w - 1, h - 1), _u(7), fill=edge, outline=INK, width=_u(1.5))
    draw.rounded_rectangle((_u(4), _u(4), w - _u(4), h - _u(4)), _u(5), fill=field)
    cx = _u(17)
    if card.is_wild and card.rank in _PLAIN_WILDS:
        r = _u(13)
        glyphs.wheel(
            draw, (cx - r, _u(22) - r, cx + r, _u(22) + r), _u(1.5), marks=False, dark=dark
        )
    else:
        size = _u(21 if card.rank.is_number else 18)
        _rank_mark(draw, card.rank, (cx, _u(22)), size, PAPER, dark, small=True)
    if card.color is not None:
        g = _u(17)
        box = (cx - g / 2, _u(41), cx + g / 2, _u(41) + g)
        fill, outline = (DARK_BODY, PAPER) if dark else (PAPER, INK)
        glyphs.draw_shape(draw, SHAPE[card.color], box, fill, outline, _u(1.3))
    return image.reduce(SUPERSAMPLE)


def chip_size(height: int) -> tuple[int, int]:
    return round(height * CHIP_BASE[0] / CHIP_BASE[1]), height


def chip(card: Card, height: int) -> Image.Image:
    """`card` as a chip `height` px tall (the table's fans); shared: never draw on it."""
    base = memo(("chip", card.code), lambda: _draw_chip(card))
    if height == CHIP_BASE[1]:
        return base
    return memo(
        ("chip", card.code, height),
        lambda: base.resize(chip_size(height), Image.Resampling.LANCZOS, reducing_gap=3.0),
    )


#: A tally's size in base units (squarer than a chip: a shape beside a count).
TALLY_BASE: Final = (72, 64)


def _draw_tally(color: Color | None, dark: bool, count: int) -> Image.Image:
    """`count` cards of `color` (None: wilds, of the `dark` side or not) as one tile: the
    colour's field, its shape (the wheel for wilds) on the left and the count, big, on the right.
    A crowded UNO Flip table shows these instead of a fan, whose indexes a phone could not read
    in its thin rows (table_picture.py)."""
    w, h = _u(TALLY_BASE[0]), _u(TALLY_BASE[1])
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    field = FILL[color] if color is not None else (DARK_WILD_FILL if dark else WILD_FILL)
    edge = DARK_BODY if dark else PAPER
    draw.rounded_rectangle((0, 0, w - 1, h - 1), _u(9), fill=edge, outline=INK, width=_u(1.5))
    draw.rounded_rectangle((_u(4), _u(4), w - _u(4), h - _u(4)), _u(7), fill=field)
    cx, cy, g = _u(18), h / 2, _u(23)
    box = (cx - g / 2, cy - g / 2, cx + g / 2, cy + g / 2)
    if color is None:
        glyphs.wheel(draw, box, _u(1.5), marks=False, dark=dark)
    else:
        fill, outline = (DARK_BODY, PAPER) if dark else (PAPER, INK)
        glyphs.draw_shape(draw, SHAPE[color], box, fill, outline, _u(1.3))
    label = str(count) if count < 100 else "99"
    glyphs.text(draw, (_u(51), cy), label, _u(38 if len(label) == 1 else 26), PAPER, _u(1.2))
    return image.reduce(SUPERSAMPLE)


def tally_size(height: int) -> tuple[int, int]:
    return round(height * TALLY_BASE[0] / TALLY_BASE[1]), height


def tally(color: Color | None, dark: bool, count: int, height: int) -> Image.Image:
    """`count` cards of `color` (None: the `dark` side's wilds or the light one's) as a tile
    `height` px tall (faces drawn once, then cached); shared: never draw on it."""
    base = memo(("tally", color, dark, count), lambda: _draw_tally(color, dark, count))
    if height == TALLY_BASE[1]:
        return base
    return memo(
        ("tally", color, dark, count, height),
        lambda: base.resize(tally_size(height), Image.Resampling.LANCZOS, reducing_gap=3.0),
    )


# ----------------------------------------------------------------------------- caches

_cache: dict[Hashable, Image.Image] = {}
_lock = threading.RLock()  # re-entrant: a build may need another cached image


def memo(key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
    """The image cached under `key`, built once. Reads take no lock (a dict read is atomic);
    builds are serialised so two threads never draw the same thing twice."""
    found = _cache.get(key)
    if found is not None:
        return found
    with _lock:
        found = _cache.get(key)
        if found is None:
            found = _cache[key] = build()
        return found


def _draw(code: str, chosen: Color | None) -> Image.Image:
    if code == "back":
        return _draw_back()
    card = Card.of(code)
    return _draw_wild(card, chosen) if card.is_wild else _draw_colored(card)


def face_size(width: int) -> tuple[int, int]:
    """A card's size at this width (the cards are 2:3)."""
    return width, round(width * BASE_HEIGHT / BASE_WIDTH)


def face(card: Card | None, width: int = BASE_WIDTH, chosen: Color | None = None) -> Image.Image:
    """The face of `card` (None: the back) `width` pixels wide; for a wild, `chosen` shows the
    colour named for it. Shared between threads: never draw on the result."""
    code = "back" if card is None else card.code
    chosen = chosen if card is not None and card.is_wild else None
    base = memo(("base", code, chosen), lambda: _draw(code, chosen))
    if width == BASE_WIDTH:
        return base
    return memo(
        ("face", code, chosen, width),
        lambda: base.resize(face_size(width), Image.Resampling.LANCZOS, reducing_gap=3.0),
    )


def back(width: int = BASE_WIDTH) -> Image.Image:
    return face(None, width)


def swatch(color: Color, size: int = SWATCH_SIZE) -> Image.Image:
    """The picture of a colour choice, e.g. for a colour button's application emoji."""
    full = memo(("swatch", color), lambda: _draw_swatch(color))
    if size == SWATCH_SIZE:
        return full
    return memo(
        ("swatch", color, size),
        lambda: full.resize((size, size), Image.Resampling.LANCZOS, reducing_gap=3.0),
    )
