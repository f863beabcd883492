"""Colours, per-colour shapes and the font of the art's own marks, in one place so every
picture agrees.

Each card colour has its own shape (red circle, yellow triangle, green square, blue diamond) that
appears wherever the colour does, so no card is ever told apart by colour alone. UNO Flip's dark
side has four more colours with four more shapes (pink heart, teal hexagon, orange star, purple
triangle pointing down): both sides are on the table at once (everyone sees the other side of
the others' cards), so no two of the eight colours share a shape.
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
    # UNO Flip's dark side
    HEART = "heart"
    HEXAGON = "hexagon"
    STAR = "star"
    DOWN_TRIANGLE = "down_triangle"


# Chosen for distinct hue *and* lightness (yellow light, green middle, red and blue darker), then
# the shape tells red from blue in greyscale.
FILL: Final[dict[Color, RGB]] = {
    Color.RED: (219, 45, 59),
    Color.YELLOW: (247, 190, 22),
    Color.GREEN: (34, 160, 84),
    Color.BLUE: (30, 100, 214),
    # UNO Flip's dark side, on dark card bodies: bright enough to read against black (purple
    # lighter than blue, orange lighter than red), apart in hue from the light four
    Color.PINK: (236, 72, 160),
    Color.TEAL: (18, 178, 170),
    Color.ORANGE: (246, 130, 22),
    Color.PURPLE: (150, 92, 226),
}
# A darker shade of each colour: shadows and frames.
SHADE: Final[dict[Color, RGB]] = {
    Color.RED: (150, 22, 34),
    Color.YELLOW: (184, 128, 0),
    Color.GREEN: (16, 102, 50),
    Color.BLUE: (14, 58, 140),
    Color.PINK: (150, 28, 98),
    Color.TEAL: (6, 104, 100),
    Color.ORANGE: (168, 80, 4),
    Color.PURPLE: (84, 44, 146),
}
SHAPE: Final[dict[Color, Shape]] = {
    Color.RED: Shape.CIRCLE,
    Color.YELLOW: Shape.TRIANGLE,
    Color.GREEN: Shape.SQUARE,
    Color.BLUE: Shape.DIAMOND,
    Color.PINK: Shape.HEART,
    Color.TEAL: Shape.HEXAGON,
    Color.ORANGE: Shape.STAR,
    Color.PURPLE: Shape.DOWN_TRIANGLE,
}

INK: Final[RGB] = (27, 27, 33)  # outlines and dark text
PAPER: Final[RGB] = (250, 248, 243)  # card borders and emblems
WILD_FILL: Final[RGB] = (36, 36, 44)
BACK_FILL: Final[RGB] = (44, 38, 74)
#: UNO Flip's dark side: its cards' dark body (border, emblem) and its wilds' field.
DARK_BODY: Final[RGB] = (22, 18, 30)
DARK_WILD_FILL: Final[RGB] = (12, 10, 18)
FELT: Final[RGB] = (26, 74, 56)  # the table
FELT_LIGHT: Final[RGB] = (38, 98, 74)
HIGHLIGHT: Final[RGB] = (255, 214, 64)
MUTED: Final[RGB] = (170, 190, 180)
#: The table while UNO Flip's dark side is in play: night felt, so the side shows at a glance.
NIGHT_FELT: Final[RGB] = (30, 22, 48)
NIGHT_FELT_LIGHT: Final[RGB] = (48, 36, 72)


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's built-in scalable font (Aileron, Pillow >= 10.1), for the marks and numbers of
    the art itself (ASCII); players' names have a font of their own (lettering.py)."""
    return ImageFont.load_default(size=size)
