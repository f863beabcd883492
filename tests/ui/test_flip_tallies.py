"""A crowded UNO Flip table (8 seats or more) counts each seat's other sides by colour on the
picture, big enough to read on a phone, instead of a fan whose indexes a phone cannot read
(bot/ui/art/table_picture.py); fewer seats keep the fan, ranks and all."""

from __future__ import annotations

import itertools
import random

import pytest
from PIL import Image, ImageChops

from bot.engine import COLORS, Card, Color
from bot.engine.cards import DARK_COLORS, flip_side_deck
from bot.ui.art import SeatState, TableState, table_picture
from bot.ui.art.faces import tally
from bot.ui.art.table_picture import FLIP_TALLY, WIDTH, tally_groups
from tests.ui.test_art import SHAPE_DIFFERENCE, _mask_difference

#: How wide a phone shows the picture (docs/table.md: about 300 px of its 400).
PHONE = 300 / WIDTH


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(Card.of(code) for code in codes.split())


def _table(seats: int, first_shows: tuple[Card, ...]) -> TableState:
    """A light-side table of `seats` seats, the first showing `first_shows` (the others a
    seeded hand of dark cards)."""
    rng = random.Random(3)
    dark_cards = sorted(set(flip_side_deck(dark=True)))
    shows = [first_shows] + [
        tuple(sorted(rng.choices(dark_cards, k=n))) for n in (4, 1, 9, 12, 3, 6, 2, 5, 7)
    ]
    return TableState(
        top=Card.of("RD1"),
        color=Color.RED,
        clockwise=True,
        seats=tuple(
            SeatState(f"P{i}", len(shows[i]), i == 1, shows=shows[i]) for i in range(seats)
        ),
        draw_pile=40,
        dark=False,
        pile_top=dark_cards[5],
    )


def test_a_seat_s_other_sides_are_counted_by_colour_in_the_side_s_order_wilds_last() -> None:
    shows = _cards("V3 P1 WK P7 VR T2 WDC P9")  # dark: violet, pink, teal, two wilds
    assert tally_groups(shows) == [(Color.PINK, 3), (Color.TEAL, 1), (Color.PURPLE, 2), (None, 2)]
    assert tally_groups(_cards("B1 W R2 R5")) == [(Color.RED, 2), (Color.BLUE, 1), (None, 1)]
    assert tally_groups(()) == []


@pytest.mark.parametrize("seats", [8, 10])
def test_a_crowded_table_shows_the_counts_not_the_ranks(seats: int) -> None:
    """Two hands of the same colours in the same numbers but other ranks: one picture; another
    count of a colour: another picture."""
    one = table_picture(_table(seats, _cards("P1 P2 T5 WK")))
    same_counts = table_picture(_table(seats, _cards("P7 PSE TR WDC")))
    other_count = table_picture(_table(seats, _cards("P1 T2 T5 WK")))
    assert ImageChops.difference(one, same_counts).getbbox() is None
    assert ImageChops.difference(one, other_count).getbbox() is not None


def test_up_to_seven_seats_the_fan_shows_every_card() -> None:
    one = table_picture(_table(7, _cards("P1 P2 T5 WK")))
    other_ranks = table_picture(_table(7, _cards("P7 PSE TR WDC")))
    assert ImageChops.difference(one, other_ranks).getbbox() is not None


def _digit_rows(tile: Image.Image) -> int:
    """How many pixel rows the count's white digits span (the tile's right half, inside its
    edge)."""
    rgb = tile.convert("RGB")
    w, h = rgb.size
    pixels = rgb.tobytes()  # (three bytes a pixel, row after row)

    def white(x: int, y: int) -> bool:
        return min(pixels[3 * (y * w + x) : 3 * (y * w + x) + 3]) > 220

    rows = [y for y in range(3, h - 3) if any(white(x, y) for x in range(w // 2, w - 3))]
    return max(rows) - min(rows) + 1


@pytest.mark.parametrize("color", [*COLORS, *DARK_COLORS, None], ids=str)
def test_a_tally_s_count_reads_on_a_phone(color: Color | None) -> None:
    """A one-digit count is at least 10 px tall on a 300-px phone (a chip's index at ten seats
    was 6 px): as tall as the names' lower-case letters there."""
    tile = tally(color, color in DARK_COLORS, 8, FLIP_TALLY)
    assert _digit_rows(tile) * PHONE >= 10


def test_tallies_of_the_eight_colours_differ_by_shape_in_greyscale() -> None:
    """A colour-blind player tells the tiles apart by their shapes, as on the cards."""
    for a, b in itertools.combinations((*COLORS, *DARK_COLORS), 2):
        first = tally(a, a in DARK_COLORS, 3, FLIP_TALLY)
        second = tally(b, b in DARK_COLORS, 3, FLIP_TALLY)
        share = _mask_difference(first, second)
        assert share >= SHAPE_DIFFERENCE, (a, b, share)
