"""Card art speed and size: render every face once, then compose + encode the pictures the bot
sends (PNG as shipped: on the table's or the hand's own palette; on the shared 256-colour
palette, full colour, lossless and lossy WebP for comparison), p50/p99 and bytes.

    .venv/bin/python benchmarks/card_art.py [--runs 50]
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable

from PIL import Image

from bot.engine import ALL_CARDS, COLORS, Card, Color, build_deck
from bot.engine.cards import flip_side_deck
from bot.ui.art import SeatState, TableState, back, encode, face, hand_picture, table_picture
from bot.ui.art import faces as faces_module
from bot.ui.art.encode import (
    flip_hand_palette,
    flip_table_palette,
    hand_palette,
    table_palette,
    use_shared_palette,
)


def _webp(lossless: bool) -> Callable[[Image.Image], bytes]:
    def run(image: Image.Image) -> bytes:
        buffer = io.BytesIO()
        if lossless:
            image.save(buffer, format="WEBP", lossless=True, method=0, quality=0)
        else:
            image.save(buffer, format="WEBP", quality=85, method=2)
        return buffer.getvalue()

    return run


def _png_full(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def _encoders(own_palette: Callable[[], Image.Image]) -> dict[str, Callable[[Image.Image], bytes]]:
    return {
        # As table_file and hand_file do: onto the picture's own palette.
        "png own (shipped)": lambda image: encode(image, own_palette()),
        "png256 shared": encode,  # onto the shared palette, as pictures without their own
        "png rgb": _png_full,
        "webp lossless": _webp(True),
        "webp q85": _webp(False),
    }


def _table(seats: int) -> TableState:
    names = ["Ann", "Benedikt", "Zoë", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    return TableState(
        Card.of("W4"),
        Color.BLUE,
        True,
        tuple(SeatState(names[i], 3 + 2 * i, i == 1) for i in range(seats)),
        42,
    )


def _flip_table(seats: int) -> TableState:
    """UNO Flip on its dark side: every seat's fan of 7-16 light faces (their other side)."""
    names = ["Ann", "Benedikt", "Zoë", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    light = sorted(flip_side_deck(dark=False))
    rng = random.Random(2)
    return TableState(
        Card.of("PD5"),
        Color.PINK,
        True,
        tuple(
            SeatState(names[i], 7 + i, i == 1, shows=tuple(sorted(rng.sample(light, 7 + i))))
            for i in range(seats)
        ),
        42,
        dark=True,
        pile_top=Card.of("G7"),
    )


def _quantiles(samples: list[float]) -> tuple[float, float]:
    samples = sorted(samples)
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()

    faces_module._cache.clear()
    start = time.perf_counter()
    for c in ALL_CARDS:
        face(c)
        if c.is_wild:
            for color in COLORS:
                face(c, chosen=color)
    back()
    print(f"render every face once (base 120x180): {(time.perf_counter() - start) * 1000:.0f} ms")
    start = time.perf_counter()
    use_shared_palette()
    print(f"compute the shared palette once: {(time.perf_counter() - start) * 1000:.0f} ms")

    deck = build_deck("classic108")
    random.Random(1).shuffle(deck)
    cases: dict[str, tuple[Callable[[], Image.Image], Callable[[], Image.Image]]] = {
        "table 4 seats": (lambda: table_picture(_table(4)), table_palette),
        "table 10 seats": (lambda: table_picture(_table(10)), table_palette),
        "hand 7 cards": (lambda: hand_picture(deck[:7]), hand_palette),
        "hand 27 cards": (lambda: hand_picture(deck[:27]), hand_palette),
        "flip table 4 seats": (lambda: table_picture(_flip_table(4)), flip_table_palette),
        "flip table 10 seats": (lambda: table_picture(_flip_table(10)), flip_table_palette),
        "flip dark hand 7": (
            lambda: hand_picture(sorted(flip_side_deck(dark=True))[::15]),
            flip_hand_palette,
        ),
    }
    table_palette(), hand_palette()  # computed once per process, as in the bot's workers
    flip_table_palette(), flip_hand_palette()
    for name, (compose, own_palette) in cases.items():
        compose()  # warm the scaled-face caches, as a running bot has them
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            compose()
            times.append((time.perf_counter() - t) * 1000)
        p50, p99 = _quantiles(times)
        print(f"{name}: compose p50 {p50:.1f} ms p99 {p99:.1f} ms")
        image = compose()
        for label, encoder in _encoders(own_palette).items():
            times = []
            data = b""
            for _ in range(args.runs):
                t = time.perf_counter()
                data = encoder(image)
                times.append((time.perf_counter() - t) * 1000)
            p50, p99 = _quantiles(times)
            print(
                f"  {label:17} encode p50 {p50:6.1f} ms p99 {p99:6.1f} ms"
                f" {len(data) / 1024:6.1f} KB"
            )


if __name__ == "__main__":
    main()
