"""The table picture's small drawings: the direction of play, the UNO badge, UNO Flip's side
in play (a sun or a moon), a computer player's robot and a knocked-out seat's cross. Each is
drawn large and scaled down, and cached by what it shows (faces.py `memo`); our own art, not
emoji (the pictures have no emoji font)."""

from __future__ import annotations

import math
from typing import Final

from PIL import Image, ImageDraw, ImageOps

from bot.engine import Color
from bot.ui.art.faces import memo
from bot.ui.art.lettering import name_font
from bot.ui.art.palette import FILL, INK, PAPER

#: The badge of a player at risk of being caught (one card, UNO not called).
AT_RISK: Final = FILL[Color.RED]


def direction_icon(clockwise: bool, size: int) -> Image.Image:
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


def uno_badge(at_risk: bool, width: int, height: int) -> Image.Image:
    """An UNO badge: "UNO!" on paper when called; "UNO?" in red, framed, when not called."""

    def build() -> Image.Image:
        k = 4
        w, h = width * k, height * k
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

    return memo(("uno badge", at_risk, width, height), build)


def side_icon(dark: bool, size: int) -> Image.Image:
    """UNO Flip's side in play: a sun (light) or a moon (dark), drawn large, scaled down."""

    def build() -> Image.Image:
        s = size * 4
        image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        c = s / 2
        if dark:
            r = s * 0.36
            draw.ellipse((c - r, c - r, c + r, c + r), fill=(236, 228, 196))
            cut = (c - r * 0.35, c - r * 1.25, c + r * 1.45, c + r * 0.55)
            draw.ellipse(cut, fill=(0, 0, 0, 0))
        else:
            sun = (255, 200, 40)
            for k in range(8):
                a = math.radians(k * 45)
                inner, outer = s * 0.3, s * 0.46
                draw.line(
                    (
                        c + math.cos(a) * inner,
                        c + math.sin(a) * inner,
                        c + math.cos(a) * outer,
                        c + math.sin(a) * outer,
                    ),
                    fill=sun,
                    width=round(s * 0.07),
                )
            r = s * 0.24
            draw.ellipse((c - r, c - r, c + r, c + r), fill=sun)
        return image.resize((size, size), Image.Resampling.LANCZOS)

    return memo(("side", dark, size), build)


def knocked_out_cross(draw: ImageDraw.ImageDraw, center: tuple[float, float], half: float) -> None:
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
