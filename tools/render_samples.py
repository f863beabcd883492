"""Render sample pictures of the card art to a directory, to look at them.

    .venv/bin/python tools/render_samples.py OUT_DIR

Writes table.png (4 seats), table10.png (10 seats, awkward names), table_scripts.png (10 seats,
names in our players' alphabets: Norwegian, German, Polish, Cyrillic, Greek, CJK), table_world.png
(computer players, Arabic, CJK, Korean and emoji names: what no font of ours has), hand7.png,
hand27.png, deck_classic108.png, deck_swap112.png, deck_shuffle112.png, faces48.png and
faces120.png (every face 48 and 120 px wide, the back, the chosen-colour wilds and the swatches),
UNO Flip's table_flip_light.png and table_flip_dark.png (each seat's fan of its other sides),
table_flip10.png (10 seats: a tally per colour) and hand_flip_dark.png, and a greyscale copy
of each. Its table.png is the README's picture, docs/table.png.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from PIL import Image

from bot.engine import ALL_CARDS, COLORS, Card, Color, build_deck, parse_cards
from bot.engine.cards import DARK_COLORS, flip_side_deck
from bot.ui.art import (
    SeatState,
    TableState,
    back,
    deck_sheet,
    encode,
    face,
    hand_picture,
    swatch,
    table_picture,
)
from bot.ui.art.encode import flip_hand_palette, flip_table_palette, use_shared_palette
from bot.ui.art.faces import is_dark
from bot.ui.art.palette import FELT

NAMES = (
    "Ann",
    "Benedikt the Magnificent",
    "Zoë",
    "名前",
    "𝓐𝓷𝓷𝓪",
    "Zalgơ̴̢̛",
    "😀 Emo",
    "Dan",
    "Eve",
    "Fay",
)

SCRIPT_NAMES = (
    "Bjørn Ødegård",
    "Jürgen Weiß",
    "Алёна",
    "Σοφία",
    "山田太郎",
    "Zofia Łąckaś-Żółtowska",
    "Søren Ærø",
    "François Gonçalves",
    "Ægir Åsmund Øvrebø-Wißmann",
    "ШШШШШШШШШШШШШШШШ",
)

WORLD_NAMES = (
    "🤖 Bot Ada (normal)",
    "محمد علي",
    "山田太郎",
    "김민준",
    "😀😀",
    "Sam 🎲🔥",
    "🤖 Bot Lin (expert)",
)


def sample_table(seats: int, names: tuple[str, ...] = NAMES) -> TableState:
    counts = (7, 3, 1, 12, 25, 5, 2, 9, 4, 6)
    return TableState(
        top=Card.of("W4") if seats > 4 else Card.of("G7"),
        color=Color.BLUE if seats > 4 else Color.GREEN,
        clockwise=seats > 4,
        seats=tuple(
            SeatState(name, counts[i], i == 1, computer=name.startswith("🤖"))
            for i, name in enumerate(names[:seats] if seats > 4 else ("Ann", "Ben", "Cat", "Dan"))
        ),
        draw_pile=42,
    )


def flip_table(dark: bool, seats: int = 5) -> TableState:
    """UNO Flip on a side: each of `seats` seats' fan of the other side of its cards (from 8
    seats on, its tally by colour)."""
    rng = random.Random(5)
    other = sorted(set(flip_side_deck(dark=not dark)))
    counts = (7, 4, 1, 12, 18, 3, 9, 2, 6, 5)
    return TableState(
        top=Card.of("TD5" if dark else "RD1"),
        color=Color.TEAL if dark else Color.RED,
        clockwise=True,
        seats=tuple(
            SeatState(name, counts[i], i == 1, shows=tuple(sorted(rng.choices(other, k=counts[i]))))
            for i, name in enumerate(NAMES[:seats])
        ),
        draw_pile=51,
        dark=dark,
        pile_top=other[9],
    )


def faces_sheet(width: int) -> Image.Image:
    """Every face at `width`, then the back, the chosen-colour wilds and the swatches."""
    wilds = [c for c in ALL_CARDS if c.is_wild]
    items = [face(c, width) for c in ALL_CARDS] + [back(width)]
    items += [
        face(c, width, chosen) for c in wilds for chosen in (DARK_COLORS if is_dark(c) else COLORS)
    ]
    items += [swatch(c, width) for c in (*COLORS, *DARK_COLORS)]
    cols = 13
    cell_h = round(width * 1.5) + 6
    rows = -(-len(items) // cols)
    sheet = Image.new("RGB", (cols * (width + 6) + 6, rows * cell_h + 6), FELT)
    for i, im in enumerate(items):
        sheet.paste(im, (6 + (i % cols) * (width + 6), 6 + (i // cols) * cell_h), im)
    return sheet


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    use_shared_palette()  # as the bot's picture workers encode
    deck = build_deck("classic108")
    random.Random(7).shuffle(deck)
    hand7 = sorted(parse_cards("R7 Y3 GS BD W4 R0 B9"))
    hand27 = sorted(deck[:27])
    pictures = {
        "table": table_picture(sample_table(4)),
        "table10": table_picture(sample_table(10)),
        "table_scripts": table_picture(sample_table(10, SCRIPT_NAMES)),
        "table_world": table_picture(sample_table(len(WORLD_NAMES), WORLD_NAMES)),
        "hand7": hand_picture(hand7),
        "hand27": hand_picture(hand27),
        "deck_classic108": deck_sheet("classic108"),
        "deck_swap112": deck_sheet("swap112"),
        "deck_shuffle112": deck_sheet("shuffle112"),
        "table_flip_light": table_picture(flip_table(dark=False)),
        "table_flip_dark": table_picture(flip_table(dark=True)),
        "table_flip10": table_picture(flip_table(dark=False, seats=10)),
        "hand_flip_dark": hand_picture(sorted(parse_cards("P3 P7 TD5 TSE O2 OF V9 VR WK WDC"))),
        "faces48": faces_sheet(48),
        "faces120": faces_sheet(120),
    }
    own = {  # UNO Flip's pictures on their own palettes, as the bot sends them
        "table_flip_light": flip_table_palette(),
        "table_flip_dark": flip_table_palette(),
        "table_flip10": flip_table_palette(),
        "hand_flip_dark": flip_hand_palette(),
    }
    for name, picture in pictures.items():
        (out / f"{name}.png").write_bytes(encode(picture, own.get(name)))
        picture.convert("L").save(out / f"{name}_grey.png")
        print(f"{out / name}.png  {picture.width}x{picture.height}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
