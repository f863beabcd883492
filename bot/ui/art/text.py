"""Player names and numbers as pictures: any Unicode in, never a crash or a broken layout out.

Names are drawn in their own font, letter for letter in Latin, Greek and Cyrillic, with a box for
each character the font lacks (lettering.py); shortened with an ellipsis to fit, and drawn into a
fixed box that clips anything taller (stacked combining marks).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.ui.art import lettering
from bot.ui.art.palette import INK, RGB, font

ELLIPSIS = "..."


def fit(text: str, width: int, measure: Callable[[str], float]) -> str:
    """`text` cut with an ellipsis so that `measure` finds it at most `width` px wide."""
    if measure(text) <= width:
        return text

    def fits(k: int) -> bool:
        return measure(text[:k].rstrip() + ELLIPSIS) <= width

    low, high = 0, len(text)  # fits(low) or low == 0; not fits(high)
    while high - low > 1:  # a longer prefix is never narrower: the longest that fits
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return text[:low].rstrip() + ELLIPSIS if low and fits(low) else ""


@lru_cache(maxsize=512)
def label(
    text: str, width: int, height: int, fill: RGB, size: int, bold: bool = False
) -> Image.Image:
    """Our own short `text` (a seat's number; ASCII) left-aligned and vertically centred in a
    transparent `width` x `height` box, in the art's font.

    Cached by content; shared between threads: never draw on the result.
    """
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    f = font(size)
    shown = fit(text, width - 2, f.getlength)
    if shown:
        draw = ImageDraw.Draw(image)
        stroke = max(1, size // 14) if bold else 0
        draw.text(
            (1 + stroke, height / 2),
            shown,
            font=f,
            fill=fill,
            anchor="lm",
            stroke_width=stroke,
            stroke_fill=fill if bold else INK,
        )
    return image


@lru_cache(maxsize=512)
def name_label(name: str, width: int, height: int, fill: RGB, size: int) -> Image.Image:
    """A player's `name` left-aligned and vertically centred in a transparent `width` x `height`
    box: every letter it has, a box for each character the font lacks, an ellipsis if too long.

    Cached by content; shared between threads: never draw on the result.
    """
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    shown = fit(lettering.drawable(name), width - 2, lambda s: lettering.text_width(s, size))
    if shown:
        lettering.draw_name(ImageDraw.Draw(image), (1, height / 2), shown, size, fill)
    return image
