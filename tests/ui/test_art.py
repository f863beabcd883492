"""The card art: every face renders, all differ (also in greyscale), pictures keep their size and
byte budget whatever the names, and the alt texts say what the pictures show."""

from __future__ import annotations

import hashlib
import io
import itertools
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.engine import ALL_CARDS, COLORS, Card, Color, build_deck, card
from bot.engine.cards import (
    COLORED_RANKS,
    DARK_COLORS,
    FLIP_DARK_COLORED_RANKS,
    NO_MERCY_COLORED_RANKS,
)
from bot.ui.art import (
    BASE_HEIGHT,
    BASE_WIDTH,
    SeatState,
    TableState,
    back,
    deck_faces,
    deck_sheet,
    describe_hand,
    describe_table,
    encode,
    face,
    hand_file,
    hand_picture,
    swatch,
    table_file,
    table_picture,
)
from bot.ui.art import faces as faces_module
from bot.ui.art.encode import hand_palette, table_palette
from bot.ui.art.lettering import drawable
from bot.ui.art.palette import FELT
from bot.ui.art.table_picture import NAME_X, WIDTH, picture_size, seat_right

DECKS = ("classic108", "swap112", "shuffle112", "no_mercy168")
WILDS = [c for c in ALL_CARDS if c.is_wild]


def _side(card: Card) -> tuple[Color, ...]:
    """The colours a wild may be given: UNO Flip's dark wilds take the dark side's."""
    return DARK_COLORS if faces_module.is_dark(card) else COLORS


ODD_NAMES = (
    "Zoë",
    "名前",
    "𝓐𝓷𝓷𝓪",
    "Z̴̢̛̛̛̛̛̛̛a̴̢̛̛̛̛̛̛l̴̢̛̛̛̛̛g̴̢̛o" * 20,
    "😀" * 40,
    "\u202e\u0000\t",
    "x" * 300,
    "Ø" * 100,
    "Ш" * 100,
    "W" * 100,
    "山" * 100,
)


def _digest(image: Image.Image) -> str:
    return hashlib.sha256(image.tobytes()).hexdigest()


def _table(seats: list[tuple[str, int]], current: int = 0) -> TableState:
    return TableState(
        top=Card.of("W4"),
        color=Color.BLUE,
        clockwise=True,
        seats=tuple(SeatState(n, c, i == current) for i, (n, c) in enumerate(seats)),
        draw_pile=42,
    )


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("width", [BASE_WIDTH, 48])
def test_every_face_of_every_deck_renders_at_its_size(deck: str, width: int) -> None:
    expected = (width, round(width * BASE_HEIGHT / BASE_WIDTH))
    for c in deck_faces(deck):
        assert face(c, width).size == expected, c
    assert back(width).size == expected
    assert swatch(Color.RED).size == (128, 128)


def test_the_deck_faces_are_each_distinct_card() -> None:
    assert len(deck_faces("classic108")) == 4 * 13 + 2
    assert len(deck_faces("swap112")) == len(deck_faces("shuffle112")) == 4 * 13 + 4
    assert len(deck_faces("no_mercy168")) == 4 * (13 + 3) + 4  # no plain Wild in it


def test_no_two_faces_are_the_same_picture() -> None:
    pictures = [face(c) for c in ALL_CARDS] + [back()]
    pictures += [face(c, chosen=k) for c in WILDS for k in _side(c)]
    pictures += [swatch(k) for k in (*COLORS, *DARK_COLORS)]
    digests = [_digest(p) for p in pictures]
    assert len(set(digests)) == len(digests) == len(ALL_CARDS) + 1 + 4 * len(WILDS) + 8


def _shape_mask(image: Image.Image) -> Image.Image:
    """Light and dark parts of a greyscale face, split at its own mean: what is left of a card
    when a viewer cannot rely on hue, independent of how light the colour is overall."""
    grey = image.convert("L")
    pixels = grey.tobytes()
    mean = sum(pixels) / len(pixels)
    return grey.point(lambda v: 255 if v > mean else 0)


def _mask_difference(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that are light in one face and dark in the other."""
    diff = ImageChops.difference(_shape_mask(a), _shape_mask(b))
    return sum(1 for v in diff.tobytes() if v) / (a.width * a.height)


# A different colour must change at least this share of a 48 px card's light/dark pattern.
# Measured: our shapes change 4.3-57 % (red circle vs green square is the closest pair); drawing
# every colour with the same shape changes 0.0-0.1 % between red, green and blue.
SHAPE_DIFFERENCE = 0.03


@pytest.mark.parametrize("rank", COLORED_RANKS + NO_MERCY_COLORED_RANKS, ids=lambda r: r.value)
def test_colours_differ_by_shape_in_greyscale(rank: object) -> None:
    for a, b in itertools.combinations(COLORS, 2):
        share = _mask_difference(face(card(a, rank), 48), face(card(b, rank), 48))
        assert share >= SHAPE_DIFFERENCE, (rank, a, b, share)


@pytest.mark.parametrize("rank", FLIP_DARK_COLORED_RANKS, ids=lambda r: r.value)
def test_flip_colours_differ_by_shape_in_greyscale_across_both_sides(rank: object) -> None:
    # Both of UNO Flip's sides are on the table at once (the others' other sides): none of
    # the eight colours may pass for another without hue, a dark one for a light one neither.
    for a, b in itertools.combinations((*COLORS, *DARK_COLORS), 2):
        light_rank = Card.of("R1").rank if rank not in COLORED_RANKS else rank
        first = card(a, rank if a in DARK_COLORS else light_rank)
        second = card(b, rank if b in DARK_COLORS else light_rank)
        if first.rank is not second.rank:
            continue  # (a dark-only rank: compared between the dark colours)
        share = _mask_difference(face(first, 48), face(second, 48))
        assert share >= SHAPE_DIFFERENCE, (rank, a, b, share)


@pytest.mark.parametrize("wild", WILDS, ids=lambda c: c.code)
def test_chosen_colours_differ_by_shape_in_greyscale(wild: Card) -> None:
    for a, b in itertools.combinations(_side(wild), 2):
        share = _mask_difference(face(wild, 120, a), face(wild, 120, b))
        assert share >= 0.02, (wild, a, b, share)  # measured: 3.9 % and more


@pytest.mark.parametrize("count", [2, 4, 10])
def test_table_picture_size_and_budget(count: int) -> None:
    names = [(ODD_NAMES[i % len(ODD_NAMES)], 3 * i + 1) for i in range(count)]
    state = _table(names, current=count - 1)
    assert table_picture(state).size == picture_size(count) and picture_size(count)[0] == WIDTH
    assert len(table_file(state)) <= 12_000  # 10 odd names: 10.6 KB; the old table's 19 KB


def test_a_name_never_spills_out_of_its_box() -> None:
    """Missing glyphs, combining marks and long names change only the name's own box."""
    plain = table_picture(_table([("", 5), ("Ben", 3)]))
    for name in ODD_NAMES:
        odd = table_picture(_table([(name, 5), ("Ben", 3)]))
        box = ImageChops.difference(plain, odd).getbbox()
        assert box is None or (box[0] >= NAME_X and box[2] <= seat_right()), (name, box)


def test_names_keep_their_letters_and_spell_what_no_font_has() -> None:
    assert drawable("Zoe\u0308 Bjørn Weiß Алёна Σοφία") == "Zoë Bjørn Weiß Алёна Σοφία"
    assert drawable("𝓐𝓷𝓷𝓪 Ｂｅｎ") == "Anna Ben"  # styled letters are letters
    assert drawable("名前") == "MingQian"  # no CJK font: transliterated, never boxes
    assert drawable("😀\u0301\ufe0f Emo") == "Emo"  # an emoji (and its accent) is left out
    assert drawable("a\u0000\tb  c\u202e") == "a b c"


def test_hand_picture_sizes_and_budget() -> None:
    deck = build_deck("swap112")
    random.Random(5).shuffle(deck)
    # 56-px cards: a phone shows a hand scaled to its ~300 px anyway (the same look, 36% fewer
    # pixels to encode and send); a short hand, shown 1:1, stays readable
    # (each row has 16 px above it for a card standing up on its player's turn)
    assert hand_picture(deck[:7]).size == (464, 124)
    assert hand_picture(deck[:27]).size == (592, 340)
    assert hand_picture([]).size == (80, 124)
    assert len(hand_file(deck[:27])) <= 80_000
    kinds = sorted(set(deck))  # the most a hand picture shows: one card of each kind
    assert len(kinds) == 56 and hand_picture(kinds).size == (592, 772)
    assert len(hand_file(kinds)) <= 80_000


def test_a_hand_picture_shows_only_the_cards_in_full_colour() -> None:
    """No fade, no card to match: each card is its own face, a playable one (on its player's
    turn) standing 16 px above the others, and nothing else changes."""
    cards = [Card.of("R7"), Card.of("B2")]
    assert hand_picture(cards, lifted=[1]).size == hand_picture(cards).size
    for lifted in ((), (1,)):
        picture = hand_picture(cards, lifted)
        for index, held in enumerate(cards):
            x, y = 12 + index * 64, 28 - (16 if index in lifted else 0)
            w, h = face(held, 56).size
            shown = picture.crop((x, y, x + w, y + h))
            alone = Image.new("RGB", (w, h), FELT)
            alone.paste(face(held, 56), (0, 0), face(held, 56))
            assert ImageChops.difference(shown, alone).getbbox() is None

    assert _digest(hand_picture(cards)) != _digest(hand_picture(cards[::-1]))


def test_deck_sheets() -> None:
    assert deck_sheet("classic108").size == (1056, 596)
    assert _digest(deck_sheet("swap112")) != _digest(deck_sheet("shuffle112"))


def test_composing_in_threads_from_a_cold_cache_gives_the_same_pictures() -> None:
    states = [_table([("Ann", 7), ("Ben", k)], current=k % 2) for k in range(8)]
    serial = [encode(table_picture(s)) for s in states]
    faces_module._cache.clear()
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda s: encode(table_picture(s)), states))
    assert threaded == serial


def test_describe_table_names_top_card_turn_and_counts() -> None:
    text = describe_table(_table([("Ann", 7), ("Ben", 1), ("Cat", 0)], current=1))
    assert "Top card: Wild Draw Four; colour: Blue" in text
    assert "Ben's turn." in text
    assert "Ann 7 cards, Ben 1 card, Cat 0 cards" in text
    assert "Draw pile: 42 cards" in text


def test_describe_hand_names_every_card_shown_and_the_hand_size() -> None:
    cards = [Card.of("R7"), Card.of("W4"), Card.of("B2"), Card.of("B2")]
    text = describe_hand(cards, total=4)
    assert text == "Your hand, 4 cards: Red 7, Wild Draw Four, Blue 2, Blue 2."
    assert describe_hand(cards[:1], total=1) == "Your hand, 1 card: Red 7."
    assert len(describe_table(_table([("x" * 90, 3)] * 10))) <= 1024


def test_the_art_package_needs_no_discord_and_no_store() -> None:
    """It runs in worker threads and may be reused elsewhere: Pillow, the engine, the catalogue."""
    code = (
        "import sys, bot.ui.art; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'cogs', "
        "'sqlalchemy') or m.startswith('bot.store')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_hand_composed_on_its_palette_looks_like_the_one_drawn_in_full_colour() -> None:
    # The encoder's fast path (indexed.py) pastes sprites mapped onto the palette one by one;
    # Pillow's nearest-colour lookup is approximate and depends on the order it sees colours
    # in, so a few edge pixels may take a neighbouring shade, never a different look.
    rng = random.Random(11)
    cards = build_deck("swap112")
    for _ in range(24):
        hand = rng.sample(cards, rng.choice([1, 7, 12, 25]))
        drawn = encode(hand_picture(hand), hand_palette())
        composed = hand_file(hand)
        reference = Image.open(io.BytesIO(drawn)).convert("RGB")
        fast = Image.open(io.BytesIO(composed)).convert("RGB")
        assert fast.size == reference.size
        assert max(ImageStat.Stat(ImageChops.difference(fast, reference)).mean) < 2
        assert abs(len(composed) - len(drawn)) <= 0.05 * len(drawn)


def test_a_table_composed_on_its_palette_looks_like_the_one_drawn_in_full_colour() -> None:
    # The table's fast path (indexed.py) pastes its panel's bands and its seats' rows from a
    # cache; a game's tables in a row reuse most of them.
    rng = random.Random(4)
    deck = build_deck("shuffle112")
    names = ("Ann", "Benedikt the Magnificent", "Zoë", "Анна", "Σοφία", "山田", "Eve", "Fay")
    for game in range(6):
        seats = 2 + game * 8 // 5
        counts = [7] * seats
        for turn in range(8):
            current = turn % seats
            counts[current] = max(1, counts[current] + rng.choice((-1, -1, 1)))
            top = rng.choice(deck)
            state = TableState(
                top,
                top.color or (None if turn == 3 else COLORS[turn % 4]),
                turn % 3 != 0,
                tuple(
                    SeatState(names[i % 8], counts[i], i == current, uno=counts[i] == 1)
                    for i in range(seats)
                ),
                60 - turn,
            )
            drawn = encode(table_picture(state), table_palette())
            reference = Image.open(io.BytesIO(drawn)).convert("RGB")
            fast = Image.open(io.BytesIO(table_file(state))).convert("RGB")
            assert fast.size == reference.size
            assert max(ImageStat.Stat(ImageChops.difference(fast, reference)).mean) < 2
            # ... and only neighbouring shades: a sprite drawn a pixel off (a seat's count
            # rounded the other way at another row) would differ by far more
            difference = ImageChops.difference(fast, reference).convert("L")
            assert max(difference.get_flattened_data()) <= 40
