"""Colours, per-colour shapes and the font of the card art, in one place so every picture agrees.

Each card colour has its own shape (red circle, yellow triangle, green square, blue diamond) that
appears wherever the colour does, so no card is ever told apart by colour alone.
"""

from __future__ import annotations

import unicodedata
from enum import Enum
from functools import cache
from typing import Final

from PIL import ImageFont

from bot.engine import Color

RGB = tuple[int, int, int]


class Shape(Enum):
    CIRCLE = "circle"
    TRIANGLE = "triangle"
    SQUARE = "square"
    DIAMOND = "diamond"


# Chosen for distinct hue *and* lightness (yellow light, green middle, red and blue darker), then
# the shape tells red from blue in greyscale.
FILL: Final[dict[Color, RGB]] = {
    Color.RED: (219, 45, 59),
    Color.YELLOW: (247, 190, 22),
    Color.GREEN: (34, 160, 84),
    Color.BLUE: (30, 100, 214),
}
# A darker shade of each colour: shadows and frames.
SHADE: Final[dict[Color, RGB]] = {
    Color.RED: (150, 22, 34),
    Color.YELLOW: (184, 128, 0),
    Color.GREEN: (16, 102, 50),
    Color.BLUE: (14, 58, 140),
}
SHAPE: Final[dict[Color, Shape]] = {
    Color.RED: Shape.CIRCLE,
    Color.YELLOW: Shape.TRIANGLE,
    Color.GREEN: Shape.SQUARE,
    Color.BLUE: Shape.DIAMOND,
}

INK: Final[RGB] = (27, 27, 33)  # outlines and dark text
PAPER: Final[RGB] = (250, 248, 243)  # card borders and emblems
WILD_FILL: Final[RGB] = (36, 36, 44)
BACK_FILL: Final[RGB] = (44, 38, 74)
FELT: Final[RGB] = (26, 74, 56)  # the table
FELT_LIGHT: Final[RGB] = (38, 98, 74)
HIGHLIGHT: Final[RGB] = (255, 214, 64)
MUTED: Final[RGB] = (170, 190, 180)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font (Aileron, Pillow >= 10.1): nothing to ship or download."""
    return ImageFont.load_default(size=size)


@cache
def _notdef_mask(size: int) -> bytes:
    return bytes(font(size).getmask("\U0010fffd"))


@cache
def has_glyph(char: str, size: int = 20) -> bool:
    """Whether the built-in font draws `char` (it covers ASCII only; others render as a box)."""
    if char == " ":
        return True
    if not char.isprintable():
        return False
    return bytes(font(size).getmask(char)) != _notdef_mask(size)


def drawable(text: str) -> str:
    """`text` reduced to what the font can draw: accents and styled letters folded to ASCII
    ("Zoë" -> "Zoe", "𝓐𝓷𝓷" -> "Ann"), other characters dropped, runs of spaces collapsed."""
    folded = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in folded if not unicodedata.combining(c) and has_glyph(c))
    return " ".join(kept.split())
