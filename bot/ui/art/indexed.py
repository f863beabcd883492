"""The hand picture composed directly on its palette, from sprites mapped onto it once.

`hand.hand_picture` draws in full colour and `encode` then maps every pixel onto the hand's
palette (nearest colour, no dithering): for a hand uploaded at nearly every interaction that is
drawing, compositing through alpha and mapping ~60,000 pixels each time. Nearest-colour mapping
works pixel by pixel, so a sprite mapped on its own gives exactly the pixels it gets inside the
whole picture, as long as what lies under it is the same: each card (on the felt, faded, or
lifted on its highlight) and the column of the card to match are drawn once in full colour on
their own background, mapped onto the palette and kept; a picture is then plain pastes of
palette indices, with nothing to map before encoding. The pixels are the same as
`encode(hand_picture(...), hand_palette())` (tests/ui/test_art.py checks a sample of hands).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw

from bot.engine import Card, Color
from bot.ui.art.faces import FADE_UNPLAYABLE, FADE_WAITING, dimmed, face, face_size, memo
from bot.ui.art.hand import (
    HAND_CARD_WIDTH,
    RING,
    TOP_CARD_WIDTH,
    TOP_SPACE,
    card_origin,
    grid_size,
    page_cards,
    top_card_layout,
)
from bot.ui.art.palette import FELT, FELT_LIGHT, HIGHLIGHT


def _mapped(image: Image.Image, palette: Image.Image) -> Image.Image:
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _felt(palette: Image.Image) -> Image.Image:
    """A pixel of felt on the palette (its index fills an empty picture)."""
    pixel = Image.new("RGB", (1, 1), FELT)
    return memo(("indexed felt", id(palette)), lambda: _mapped(pixel, palette))


def _card(card: Card, lifted: bool, fade: int, palette: Image.Image) -> Image.Image:
    """A card as the hand shows it, with the felt (or its ring) around it, on the palette:
    lifted (playable: on its highlight ring, `RING` px wider each side) or faded by `fade`."""

    def build() -> Image.Image:
        w, h = face_size(HAND_CARD_WIDTH)
        if lifted:
            image = Image.new("RGB", (w + 2 * RING, h + 2 * RING), FELT)
            ImageDraw.Draw(image).rounded_rectangle(
                (0, 0, w + 2 * RING - 1, h + 2 * RING - 1), 9, fill=HIGHLIGHT
            )
            sprite = face(card, HAND_CARD_WIDTH)
            image.paste(sprite, (RING, RING), sprite)
        else:
            image = Image.new("RGB", (w, h), FELT)
            sprite = dimmed(card, HAND_CARD_WIDTH, fade)
            image.paste(sprite, (0, 0), sprite)
        return _mapped(image, palette)

    return memo(("indexed card", card.code, lifted, fade, id(palette)), build)


def _top_column(top: Card, color: Color | None, height: int, palette: Image.Image) -> Image.Image:
    """The column of the card to match (its lighter patch of felt and the card), on the
    palette, drawn at the coordinates `hand.hand_picture` uses."""

    def build() -> Image.Image:
        image = Image.new("RGB", (TOP_SPACE, height), FELT)
        patch, at = top_card_layout(height)
        ImageDraw.Draw(image).rounded_rectangle(patch, 10, fill=FELT_LIGHT)
        sprite = face(top, TOP_CARD_WIDTH, color)
        image.paste(sprite, at, sprite)
        return _mapped(image, palette)

    return memo(("indexed top", top.code, color, height, id(palette)), build)


def indexed_hand(
    cards: Sequence[Card],
    playable: Collection[Card],
    page: int,
    top: Card | None,
    color: Color | None,
    palette: Image.Image,
) -> Image.Image:
    """`hand.hand_picture(cards, playable, page, top, color)` mapped onto `palette` (a "P"
    image ready to encode), composed from cached sprites."""
    shown = page_cards(cards, page)
    grid_w, grid_h = grid_size(len(shown), HAND_CARD_WIDTH)
    left = TOP_SPACE if top is not None else 0
    felt = _felt(palette).getpixel((0, 0))
    assert isinstance(felt, int)
    image = Image.new("P", (grid_w + left, grid_h), felt)
    image.putpalette(palette.getpalette() or [])
    if top is not None:
        image.paste(_top_column(top, color, grid_h, palette), (0, 0))
    fade = FADE_UNPLAYABLE if playable else FADE_WAITING
    for index, card in enumerate(shown):
        lifted = card in playable
        x, y = card_origin(index, left, lifted)
        if lifted:
            image.paste(_card(card, True, 0, palette), (x - RING, y - RING))
        else:
            image.paste(_card(card, False, fade, palette), (x, y))
    return image


def warm_hand_sprites(cards: Collection[Card], palette: Image.Image) -> None:
    """Map every card's sprites onto `palette` now (a worker's warm-up), so that the first
    hands are as quick as the rest."""
    for card in cards:
        _card(card, True, 0, palette)
        _card(card, False, FADE_UNPLAYABLE, palette)
        _card(card, False, FADE_WAITING, palette)
