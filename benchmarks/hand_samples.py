"""Render sample private-hand pictures as the bot sends them, to look at and to weigh.

    .venv/bin/python benchmarks/hand_samples.py OUT_DIR

Each sample is a hand message's picture (`render_hand(..., pictures=True)`), encoded as the
bot's picture workers do (shared palette), written full size and scaled to 300 px wide (a
phone's embed). Prints each file's size and the contrast of a faded yellow card's number and of
a faded Wild against the card around it.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

from bot.engine import Card, Color, Decision, Game, RuleSet, parse_cards
from bot.ui.art.encode import use_shared_palette
from bot.ui.art.faces import dimmed, face
from bot.ui.hand_message import render_hand

NAMES = {1: "Ann", 2: "Ben", 3: "Cat"}
HAND7 = "Y3 Y7 R5 G2 B9 W W4"
HAND18 = "R1 R5 RS Y0 Y3 Y7 YD G2 G4 GR B1 B9 BS W W W4 Y7 G2"


def _game(cards: str, top: str, color: Color | None, my_turn: bool) -> Game:
    game = Game.new([1, 2, 3], RuleSet(), seed=3, dealer=3)
    game.hands[1] = parse_cards(cards)
    game.discard = [Card.of(top)]
    game.color = color or game.discard[-1].color
    game.turn = game.seats.index(1 if my_turn else 2)
    game.decision = Decision.PLAY
    return game


SAMPLES = {
    "hand7_waiting": (HAND7, "Y5", None, False),
    "hand7_turn": (HAND7, "Y5", None, True),
    "hand7_turn_wild_top": (HAND7, "W4", Color.GREEN, True),
    "hand18_turn": (HAND18, "B5", None, True),
    "hand18_waiting": (HAND18, "W", Color.YELLOW, False),
}


def luminance(rgb: tuple[int, ...]) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def extremes(image: Image.Image) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The darkest and lightest opaque colours of a card face (its ink and its paper)."""
    rgb = [p for p in image.get_flattened_data() if isinstance(p, tuple) and p[3] == 255]
    return min(rgb, key=luminance), max(rgb, key=luminance)


def face_contrast(card: str, fade: int | None) -> float:
    image = face(Card.of(card), 72) if fade is None else dimmed(Card.of(card), 72, fade)
    dark, light = extremes(image)
    return contrast(dark, light)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    use_shared_palette()
    for name, (cards, top, color, my_turn) in SAMPLES.items():
        picture = render_hand(_game(cards, top, color, my_turn), 9, 1, NAMES, pictures=True)
        data = picture["picture"].render()
        (out / f"{name}.png").write_bytes(data)
        image = Image.open(io.BytesIO(data)).convert("RGB")
        size = (300, round(image.height * 300 / image.width))
        small = image.resize(size, Image.Resampling.LANCZOS)
        small.save(out / f"{name}_300.png")
        print(f"{out / name}.png  {image.width}x{image.height}  {len(data)} bytes")
    for card in ("Y7", "W", "W4", "B9"):
        measured = ", ".join(
            f"{face_contrast(card, fade):.1f} at fade {fade}" for fade in (None, 75, 120, 165)
        )
        print(f"{card}: ink against paper {measured}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
