"""Colours, per-colour shapes and the font of the art's own marks, in one place so every
picture agrees.

Each card colour has its own shape (red circle, yellow triangle, green square, blue diamond) that
appears wherever the colour does, so no card is ever told apart by colour alone.
"""

from __future__ import annotations

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
    # UNO Flip's dark side (placeholders until the Flip table's art)
    Color.PINK: (224, 64, 154),
    Color.TEAL: (17, 163, 163),
    Color.ORANGE: (240, 122, 18),
    Color.PURPLE: (122, 61, 194),
}
# A darker shade of each colour: shadows and frames.
SHADE: Final[dict[Color, RGB]] = {
    Color.RED: (150, 22, 34),
    Color.YELLOW: (184, 128, 0),
    Color.GREEN: (16, 102, 50),
    Color.BLUE: (14, 58, 140),
    Color.PINK: (150, 30, 100),
    Color.TEAL: (8, 104, 104),
    Color.ORANGE: (168, 78, 4),
    Color.PURPLE: (74, 30, 128),
}
SHAPE: Final[dict[Color, Shape]] = {
    Color.RED: Shape.CIRCLE,
    Color.YELLOW: Shape.TRIANGLE,
    Color.GREEN: Shape.SQUARE,
    Color.BLUE: Shape.DIAMOND,
    # each dark colour has the shape of the light colour it stands beside (faces.py)
    Color.PINK: Shape.CIRCLE,
    Color.TEAL: Shape.TRIANGLE,
    Color.ORANGE: Shape.SQUARE,
    Color.PURPLE: Shape.DIAMOND,
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
    """Pillow's built-in scalable font (Aileron, Pillow >= 10.1), for the marks and numbers of
    the art itself (ASCII); players' names have a font of their own (lettering.py)."""
    return ImageFont.load_default(size=size)
