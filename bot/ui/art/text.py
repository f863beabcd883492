"""Player names and numbers as pictures: any Unicode in, never a crash or a broken layout out.

The built-in font covers ASCII only, so names are folded to what it can draw, shortened with an
ellipsis to fit, and drawn into a fixed box that clips anything taller (combining marks).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.ui.art.palette import INK, RGB, drawable, font

ELLIPSIS = "..."


def fit(text: str, width: int, size: int) -> str:
    """`text` (already drawable) cut with an ellipsis so that it is at most `width` px wide."""
    f = font(size)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text.rstrip() + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS if text else ""


@lru_cache(maxsize=512)
def label(
    text: str, width: int, height: int, fill: RGB, size: int, bold: bool = False
) -> Image.Image:
    """`text` left-aligned and vertically centred in a transparent `width` x `height` box.

    Cached by content; shared between threads: never draw on the result.
    """
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    shown = fit(drawable(text), width - 2, size)
    if shown:
        draw = ImageDraw.Draw(image)
        stroke = max(1, size // 14) if bold else 0
        draw.text(
            (1 + stroke, height / 2),
            shown,
            font=font(size),
            fill=fill,
            anchor="lm",
            stroke_width=stroke,
            stroke_fill=fill if bold else INK,
        )
    return image
