"""Vector drawing of every symbol on the cards (shapes, Skip, Reverse, wheel, Swap, Shuffle, ...).

Each function draws into a box given in pixels, so the same symbol serves the big emblem, the
corner index and the table's badges; the callers draw at a large size and scale down, which gives
smooth edges without any anti-aliasing support in ImageDraw.
"""

from __future__ import annotations

import math
from typing import Final

from PIL import ImageDraw

from bot.engine import COLORS, Color
from bot.engine.cards import DARK_COLORS
from bot.ui.art.palette import FILL, INK, PAPER, RGB, SHAPE, Shape, font

Box = tuple[float, float, float, float]


def shape_points(shape: Shape, box: Box) -> list[tuple[float, float]]:
    """The outline of a polygonal colour shape (triangles, diamond, hexagon, star) filling
    `box`."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    cy = (y0 + y1) / 2
    rx, ry = (x1 - x0) / 2, (y1 - y0) / 2
    if shape is Shape.TRIANGLE:
        return [(cx, y0), (x1, y1), (x0, y1)]
    if shape is Shape.DOWN_TRIANGLE:
        return [(x0, y0), (x1, y0), (cx, y1)]
    if shape is Shape.DIAMOND:
        return [(cx, y0), (x1, cy), (cx, y1), (x0, cy)]
    if shape is Shape.HEXAGON:  # pointed at the top and bottom
        return [
            (cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
            for a in range(-90, 270, 60)
        ]
    if shape is Shape.STAR:  # five points, fat (room for a number inside)
        points = []
        for k in range(10):
            r = 1.0 if k % 2 == 0 else 0.56
            a = math.radians(-90 + 36 * k)
            points.append((cx + rx * r * math.cos(a), cy + ry * r * math.sin(a) + ry * 0.06))
        return points
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def shape_center(shape: Shape, box: Box) -> tuple[float, float]:
    """Where a symbol sits best inside the shape: a triangle's incentre is low in its box."""
    x0, y0, x1, y1 = box
    if shape in (Shape.TRIANGLE, Shape.DOWN_TRIANGLE):
        side = x1 - x0
        height = y1 - y0
        r = side * height / (side + 2 * math.hypot(side / 2, height))
        return (x0 + x1) / 2, (y1 - r if shape is Shape.TRIANGLE else y0 + r)
    if shape is Shape.HEART:  # the lobes' middle, above the point
        return (x0 + x1) / 2, y0 + (y1 - y0) * 0.42
    return (x0 + x1) / 2, (y0 + y1) / 2


def draw_shape(
    draw: ImageDraw.ImageDraw, shape: Shape, box: Box, fill: RGB, outline: RGB | None, width: float
) -> None:
    """One colour shape; the square has rounded corners so it reads as a tile, not a hole."""
    w = round(width) if outline else 0
    if shape is Shape.HEART:
        _heart(draw, box, fill, outline, width)
    elif shape is Shape.CIRCLE:
        draw.ellipse(box, fill=fill, outline=outline, width=w)
    elif shape is Shape.SQUARE:
        radius = (box[2] - box[0]) * 0.08
        draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=w)
    else:
        draw.polygon(shape_points(shape, box), fill=fill, outline=outline, width=w)


def _heart_parts(box: Box, grow: float) -> tuple[list[Box], list[tuple[float, float]]]:
    """A heart as two round lobes and a point below them, `grow` px larger all round."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    r = w * 0.27 + grow
    lobes = []
    for lx in (x0 + w * 0.27, x1 - w * 0.27):
        ly = y0 + h * 0.3
        lobes.append((lx - r, ly - r, lx + r, ly + r))
    k = math.sqrt(0.5)
    point = [
        (x0 + w * 0.27 - w * 0.27 * k - grow, y0 + h * 0.3 + w * 0.27 * k),
        (x0 + w / 2, y1 + grow * 1.4),
        (x1 - w * 0.27 + w * 0.27 * k + grow, y0 + h * 0.3 + w * 0.27 * k),
        (x0 + w / 2, y0 + h * 0.3),
    ]
    return lobes, point


def _heart(
    draw: ImageDraw.ImageDraw, box: Box, fill: RGB, outline: RGB | None, width: float
) -> None:
    """UNO Flip's pink: a heart, its outline drawn as the same heart a line's width larger."""
    if outline is not None and width > 0:
        lobes, point = _heart_parts(box, width)
        for lobe in lobes:
            draw.ellipse(lobe, fill=outline)
        draw.polygon(point, fill=outline)
    lobes, point = _heart_parts(box, 0)
    for lobe in lobes:
        draw.ellipse(lobe, fill=fill)
    draw.polygon(point, fill=fill)


def _thick_line(
    draw: ImageDraw.ImageDraw, pts: list[tuple[float, float]], fill: RGB, width: float
) -> None:
    draw.line(pts, fill=fill, width=round(width), joint="curve")
    r = width / 2
    for x, y in (pts[0], pts[-1]):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill)


def outlined_line(
    draw: ImageDraw.ImageDraw, pts: list[tuple[float, float]], fill: RGB, width: float, edge: float
) -> None:
    """A round-capped line with an ink edge, like every other stroke on the cards."""
    _thick_line(draw, pts, INK, width + 2 * edge)
    _thick_line(draw, pts, fill, width)


def skip(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """A ring with a slash: "no entry" for the next player."""
    x0, y0, x1, y1 = box
    size = x1 - x0
    ring = size * 0.16
    draw.ellipse(box, outline=INK, width=round(ring + 2 * edge))
    draw.ellipse((x0 + edge, y0 + edge, x1 - edge, y1 - edge), outline=fill, width=round(ring))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    k = (size / 2 - ring - edge) / math.sqrt(2)
    outlined_line(draw, [(cx - k, cy + k), (cx + k, cy - k)], fill, ring, edge)
    # the slash's ink ends would cross the ring: paint the ring's fill over them again
    draw.ellipse((x0 + edge, y0 + edge, x1 - edge, y1 - edge), outline=fill, width=round(ring))


def _arrow(
    tail: tuple[float, float], head: tuple[float, float], shaft: float
) -> list[tuple[float, float]]:
    """A block arrow polygon from `tail` to `head` with a shaft `shaft` wide."""
    (ax, ay), (bx, by) = tail, head
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    px, py = -uy, ux
    head_len = min(length * 0.5, shaft * 1.7)
    wing = shaft * 1.15
    nx, ny = bx - ux * head_len, by - uy * head_len
    h = shaft / 2
    return [
        (ax + px * h, ay + py * h),
        (nx + px * h, ny + py * h),
        (nx + px * wing, ny + py * wing),
        (bx, by),
        (nx - px * wing, ny - py * wing),
        (nx - px * h, ny - py * h),
        (ax - px * h, ay - py * h),
    ]


def arrow(
    draw: ImageDraw.ImageDraw,
    tail: tuple[float, float],
    head: tuple[float, float],
    shaft: float,
    fill: RGB,
    edge: float,
) -> None:
    draw.polygon(_arrow(tail, head, shaft), fill=fill, outline=INK, width=round(edge))


def reverse(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """Two arrows in opposite directions: the order of play turns round."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    shaft = s * 0.24
    arrow(draw, (x0 + s * 0.1, y0 + s * 0.64), (x0 + s * 0.62, y0 + s * 0.12), shaft, fill, edge)
    arrow(draw, (x1 - s * 0.1, y1 - s * 0.64), (x1 - s * 0.62, y1 - s * 0.12), shaft, fill, edge)


def text(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    label: str,
    height: float,
    fill: RGB,
    edge: float,
) -> None:
    """Bold text centred on `center`: an ink outline, then the fill thickened by a stroke."""
    size = max(1, round(height * 1.38))
    f = font(size)
    bold = max(1, round(size * 0.045))
    x0, y0, x1, y1 = draw.textbbox((0, 0), label, font=f, stroke_width=bold)
    x = center[0] - (x0 + x1) / 2
    y = center[1] - (y0 + y1) / 2
    outline = round(bold + edge)
    draw.text((x, y), label, font=f, fill=INK, stroke_width=outline, stroke_fill=INK)
    draw.text((x, y), label, font=f, fill=fill, stroke_width=bold, stroke_fill=fill)


# Where each colour's quarter of the wheel starts, in degrees clockwise from 3 o'clock:
# red top left, yellow top right, green bottom right, blue bottom left.
# UNO Flip's dark colours take the quarters of the light ones they stand beside.
QUARTER_START: Final = {
    color: start
    for side in (COLORS, DARK_COLORS)
    for color, start in zip(side, (180, 270, 0, 90), strict=True)
}


def quarter_point(color: Color, center: tuple[float, float], radius: float) -> tuple[float, float]:
    """The middle of `color`'s quarter of a wheel, `radius` from its centre."""
    angle = math.radians(QUARTER_START[color] + 45)
    return center[0] + math.cos(angle) * radius, center[1] + math.sin(angle) * radius


def wheel(
    draw: ImageDraw.ImageDraw,
    box: Box,
    edge: float,
    lit: object = None,
    marks: bool = True,
    dark: bool = False,
) -> None:
    """The four-colour disc of the wild cards, each quarter with its colour's shape (`dark`:
    UNO Flip's dark side's four).

    `lit` (a Color) keeps that quarter bright and greys the others: a wild whose colour is chosen.
    """
    x0, y0, x1, y1 = box
    size = x1 - x0
    draw.ellipse(box, fill=INK)
    inner = (x0 + edge, y0 + edge, x1 - edge, y1 - edge)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    for color in DARK_COLORS if dark else COLORS:
        start = QUARTER_START[color]
        on = lit is None or lit == color
        colour = FILL[color] if on else (46, 46, 54)
        draw.pieslice(inner, start, start + 90, fill=colour, outline=INK, width=round(edge * 0.7))
        if not marks or size < 40:
            continue
        g = size * (0.26 if lit is not None and on else 0.15)
        gx, gy = quarter_point(color, (cx, cy), size * 0.3)
        mark = (gx - g / 2, gy - g / 2, gx + g / 2, gy + g / 2)
        tone = (255, 255, 255) if on else (96, 96, 106)
        draw_shape(draw, SHAPE[color], mark, tone, None, 0)


def swap(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """Two opposed arrows, one above the other: two players exchange their hands."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    shaft = s * 0.2
    arrow(draw, (x0 + s * 0.04, y0 + s * 0.3), (x1 - s * 0.02, y0 + s * 0.3), shaft, fill, edge)
    arrow(draw, (x1 - s * 0.04, y1 - s * 0.3), (x0 + s * 0.02, y1 - s * 0.3), shaft, fill, edge)


def shuffle(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """Two crossing arrows: every hand is gathered and dealt again."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    shaft = s * 0.17
    a = (x0 + s * 0.08, y0 + s * 0.28)
    b = (x1 - s * 0.06, y1 - s * 0.28)
    c = (x0 + s * 0.08, y1 - s * 0.28)
    d = (x1 - s * 0.06, y0 + s * 0.28)
    arrow(draw, a, b, shaft, fill, edge)
    arrow(draw, c, d, shaft, fill, edge)


def pencil(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """A pencil: the customizable wild is the one you write your own rule on."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    w = s * 0.22
    ax, ay = x0 + s * 0.12, y1 - s * 0.12  # tip
    bx, by = x1 - s * 0.1, y0 + s * 0.1  # end
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length
    px, py = -uy * w / 2, ux * w / 2
    tip = s * 0.24
    mx, my = ax + ux * tip, ay + uy * tip
    body = [(mx + px, my + py), (bx + px, by + py), (bx - px, by - py), (mx - px, my - py)]
    draw.polygon(body, fill=fill, outline=INK, width=round(edge))
    cone = [(ax, ay), (mx + px, my + py), (mx - px, my - py)]
    draw.polygon(cone, fill=(240, 214, 170), outline=INK, width=round(edge))
    band = s * 0.12
    ex, ey = bx - ux * band, by - uy * band
    draw.line([(ex + px, ey + py), (ex - px, ey - py)], fill=INK, width=round(edge))


# Show 'Em No Mercy's symbols: built from the classic ones (the Skip's ring, the Reverse's
# arrows, the wheel), so its cards read as part of the same deck. Thin parts are drawn ink
# first and fill over it, so an ink edge never eats into a narrow stroke.


def _arc_arrow(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    radius: float,
    start: float,
    sweep: float,
    stroke: float,
    fill: RGB,
    edge: float,
) -> None:
    """An arc (degrees clockwise from 3 o'clock) with an arrow head where it ends."""
    cx, cy = center
    ring = (cx - radius, cy - radius, cx + radius, cy + radius)
    end = math.radians(start + sweep)
    normal = (math.cos(end), math.sin(end))
    tangent = (-normal[1], normal[0])
    base = (cx + normal[0] * radius, cy + normal[1] * radius)
    head = stroke * 1.3
    tip = (base[0] + tangent[0] * head * 1.5, base[1] + tangent[1] * head * 1.5)
    wing = [
        (base[0] + normal[0] * head, base[1] + normal[1] * head),
        tip,
        (base[0] - normal[0] * head, base[1] - normal[1] * head),
    ]
    draw.arc(ring, start, start + sweep, fill=INK, width=round(stroke + 2 * edge))
    draw.polygon(wing, fill=INK)
    draw.line([*wing, wing[0]], fill=INK, width=round(2 * edge), joint="curve")
    draw.arc(ring, start, start + sweep, fill=fill, width=round(stroke))
    draw.polygon(wing, fill=fill)


def skip_everyone(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """A Skip ring inside two arrows going round: everybody else is skipped and the turn comes
    back round to you."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = s * 0.3
    skip(draw, (cx - r, cy - r, cx + r, cy + r), fill, edge)
    for start in (195, 15):  # two arcs chasing each other round the ring
        _arc_arrow(draw, (cx, cy), s * 0.45, start, 110, s * 0.09, fill, edge)


def discard_all(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """A fan of three cards going down together: every card of the colour goes at once."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = s * 0.36, s * 0.54
    below = s * 0.42  # the fan's pivot, under the middle card
    for angle in (-32, 0, 32):
        a = math.radians(angle)
        corners = []
        for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
            py = dy - s * 0.16 - below  # relative to the pivot
            x = dx * math.cos(a) - py * math.sin(a)
            y = dx * math.sin(a) + py * math.cos(a) + below
            corners.append((cx + x, cy + y))
        draw.polygon(corners, fill=fill, outline=INK, width=round(edge * 1.2))
        # a line across each card, like the top of a small card's field
        (ax, ay), (bx, by), (qx, qy), (dx2, dy2) = corners
        line = [
            (ax * 0.7 + dx2 * 0.3, ay * 0.7 + dy2 * 0.3),
            (bx * 0.7 + qx * 0.3, by * 0.7 + qy * 0.3),
        ]
        draw.line(line, fill=INK, width=max(1, round(edge * 0.8)))


def reverse_draw(draw: ImageDraw.ImageDraw, box: Box, label: str, fill: RGB, edge: float) -> None:
    """The Reverse's arrows above a draw count: the direction turns, then the draw."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx = (x0 + x1) / 2
    r = s * 0.36
    top = y0 - s * 0.1
    reverse(draw, (cx - r, top, cx + r, top + 2 * r), fill, edge)
    text(draw, (cx, y1 - s * 0.2), label, s * 0.32, fill, edge)


def roulette(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """A spinner's needle with an arc of motion round it: the wheel spins, and which colour
    comes nobody knows."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    _arc_arrow(draw, (cx, cy), s * 0.42, 140, 150, s * 0.09, fill, edge)
    # the needle, from behind the hub to up and to the right, over an ink silhouette
    k = math.sqrt(0.5)
    tail = (cx - s * 0.16 * k, cy + s * 0.16 * k)
    base = (cx + s * 0.12 * k, cy - s * 0.12 * k)
    tip = (cx + s * 0.36 * k, cy - s * 0.36 * k)
    w = s * 0.11
    head = [(base[0] + w * k, base[1] + w * k), tip, (base[0] - w * k, base[1] - w * k)]
    shaft = s * 0.09
    _thick_line(draw, [tail, base], INK, shaft + 2 * edge)
    draw.polygon(head, fill=INK)
    draw.line([*head, head[0]], fill=INK, width=round(2 * edge), joint="curve")
    _thick_line(draw, [tail, base], fill, shaft)
    draw.polygon(head, fill=fill)
    hub = s * 0.08
    draw.ellipse((cx - hub - edge, cy - hub - edge, cx + hub + edge, cy + hub + edge), fill=INK)
    draw.ellipse((cx - hub, cy - hub, cx + hub, cy + hub), fill=fill)


# UNO Flip's symbols, built like the others from the classic ones' parts.


def _small_card(
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    size: tuple[float, float],
    angle: float,
    fill: RGB,
    edge: float,
) -> None:
    """A small card (a rounded-off rectangle turned by `angle` degrees) with an ink edge."""
    cx, cy = center
    w, h = size
    a = math.radians(angle)
    corners = []
    for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        corners.append(
            (cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a))
        )
    draw.polygon(corners, fill=fill, outline=INK, width=max(1, round(edge * 1.2)))


def draw_cards(
    draw: ImageDraw.ImageDraw, box: Box, label: str, cards: int, fill: RGB, edge: float
) -> None:
    """A draw card's count ("+1", "+5") over the cards it makes you take, fanned behind it
    (one card for a Draw One, three for a Draw Five): the count says how many, the fan that
    they are drawn."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    angles = (12,) if cards == 1 else (-22, 0, 22)
    for angle in angles:
        _small_card(draw, (cx + s * 0.2, cy - s * 0.12), (s * 0.34, s * 0.5), angle, fill, edge)
    text(draw, (cx - s * 0.08, cy + s * 0.12), label, s * 0.5, fill, edge)


def flip(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """A card half light, half dark, with an arrow going round it: every card on the table
    turns over to its other side."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    _arc_arrow(draw, (cx, cy), s * 0.45, 300, 250, s * 0.1, fill, edge)
    w, h = s * 0.19, s * 0.28
    corners = [(cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)]
    draw.polygon(corners, fill=PAPER, outline=INK, width=max(1, round(edge * 1.2)))
    dark_half = [(cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h)]
    draw.polygon(dark_half, fill=INK)
    inner = s * 0.05
    draw.polygon(
        [
            (cx + w - inner, cy - h + inner * 2.2),
            (cx + w - inner, cy + h - inner),
            (cx - w + inner * 2.2, cy + h - inner),
        ],
        fill=fill,
    )


def draw_color(draw: ImageDraw.ImageDraw, box: Box, fill: RGB, edge: float) -> None:
    """UNO Flip's Wild Draw Colour: a plus before a small wheel of the dark side's colours;
    you draw until the colour named comes."""
    x0, y0, x1, y1 = box
    s = x1 - x0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    text(draw, (cx - s * 0.24, cy), "+", s * 0.56, fill, edge)
    r = s * 0.24
    wx = cx + s * 0.2
    wheel(draw, (wx - r, cy - r, wx + r, cy + r), edge, marks=False, dark=True)
