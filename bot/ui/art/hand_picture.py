"""Pictures of many cards: a player's hand (one page of at most 25) and a whole deck's faces.

Playable cards are lifted and ringed, the others faded, so the eye finds the choices at once;
while nothing can be played (waiting for your turn) every card is faded only lightly. The card
to match (the discard pile's top, a Wild in its chosen colour) sits at the left on a lighter
patch of felt. The order is the caller's (the same order as the hand's buttons).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.engine import Card, Color, build_deck
from bot.ui.art.faces import FADE_UNPLAYABLE, FADE_WAITING, back, dimmed, face, face_size
from bot.ui.art.palette import FELT, FELT_LIGHT, HIGHLIGHT

PAGE_SIZE: Final = 25
#: A hand wider than a phone's ~300 px (most hands) is shown scaled to fit, so the cards'
#: width in pixels changes only the file: 56 px look the same on a phone as 72 px and cost a
#: quarter fewer bytes and less encoding; a hand of 1-4 cards, shown 1:1, stays well readable.
HAND_CARD_WIDTH: Final = 56
SHEET_CARD_WIDTH: Final = 72
_COLUMNS: Final = 9
_GAP: Final = 8
_PAD: Final = 12
_LIFT: Final = 8
TOP_CARD_WIDTH: Final = 44  # the card to match, smaller than the hand's own
TOP_SPACE: Final = TOP_CARD_WIDTH + 2 * _GAP  # its column, patch included, left of the hand
#: How far the highlight ring of a playable card reaches beyond the card on each side.
RING: Final = 3


def pages(count: int) -> int:
    """How many hand pictures `count` cards need (at least one, for an empty hand)."""
    return max(1, -(-count // PAGE_SIZE))


def grid_size(
    count: int, width: int, columns: int = _COLUMNS, lift: int = _LIFT
) -> tuple[int, int]:
    """The picture size of `count` cards `width` wide laid out `columns` to a row."""
    cols = max(1, min(count, columns))
    rows = max(1, -(-count // columns))
    w, h = face_size(width)
    return 2 * _PAD + cols * w + (cols - 1) * _GAP, 2 * _PAD + rows * (h + lift) + (rows - 1) * _GAP


def _slot(index: int, width: int, columns: int, lift: int) -> tuple[int, int]:
    w, h = face_size(width)
    row, col = divmod(index, columns)
    return _PAD + col * (w + _GAP), _PAD + lift + row * (h + lift + _GAP)


def page_cards(cards: Sequence[Card], page: int) -> list[Card]:
    """The cards on page `page` (from 0; out of range: the nearest page)."""
    page = max(0, min(page, pages(len(cards)) - 1))
    return list(cards[page * PAGE_SIZE : (page + 1) * PAGE_SIZE])


def card_origin(index: int, left: int, lifted: bool) -> tuple[int, int]:
    """Where the `index`-th card of a page is drawn (its top left corner), `left` px right of
    the picture's edge (the card to match's column), `lifted` (playable) or not."""
    x, y = _slot(index, HAND_CARD_WIDTH, _COLUMNS, _LIFT)
    return x + left, y - (_LIFT if lifted else 0)


def top_card_layout(height: int) -> tuple[tuple[int, int, int, int], tuple[int, int]]:
    """The card to match in a picture `height` px high: its lighter patch of felt (a box) and
    where the card itself is drawn."""
    tw, th = face_size(TOP_CARD_WIDTH)
    x, y = _PAD + _GAP // 2, _PAD + _LIFT + (face_size(HAND_CARD_WIDTH)[1] - th) // 2
    return (x - _GAP // 2 - 2, _PAD, x + tw + _GAP // 2 + 2, height - _PAD), (x, y)


def hand_picture(
    cards: Sequence[Card],
    playable: Collection[Card] = (),
    page: int = 0,
    top: Card | None = None,
    color: Color | None = None,
) -> Image.Image:
    """Page `page` (from 0) of the hand, in the given order; `playable` cards are highlighted;
    `top` (in `color`, for a Wild): the card to match, drawn at the left. (What the bot sends
    is the same picture composed on its palette: indexed.py.)"""
    shown = page_cards(cards, page)
    grid_w, grid_h = grid_size(len(shown), HAND_CARD_WIDTH)
    left = TOP_SPACE if top is not None else 0
    # An opaque canvas: a card pasted through its own alpha looks as if alpha-composited, at
    # half the cost, and the picture needs no conversion at the end.
    image = Image.new("RGB", (grid_w + left, grid_h), FELT)
    draw = ImageDraw.Draw(image)
    if top is not None:
        patch, at = top_card_layout(grid_h)
        draw.rounded_rectangle(patch, 10, fill=FELT_LIGHT)
        _put(image, face(top, TOP_CARD_WIDTH, color), at)
    w, h = face_size(HAND_CARD_WIDTH)
    fade = FADE_UNPLAYABLE if playable else FADE_WAITING
    for index, card in enumerate(shown):
        lifted = card in playable
        x, y = card_origin(index, left, lifted)
        if lifted:
            draw.rounded_rectangle(
                (x - RING, y - RING, x + w + RING - 1, y + h + RING - 1), 9, fill=HIGHLIGHT
            )
            _put(image, face(card, HAND_CARD_WIDTH), (x, y))
        else:
            _put(image, dimmed(card, HAND_CARD_WIDTH, fade), (x, y))
    return image


def _put(image: Image.Image, card: Image.Image, at: tuple[int, int]) -> None:
    """Paste a card (RGBA) onto the opaque canvas through its own alpha."""
    image.paste(card, at, card)


def deck_faces(deck: str) -> list[Card]:
    """Each distinct face of a deck once, in deck order."""
    return list(dict.fromkeys(build_deck(deck)))


def deck_sheet(deck: str, columns: int = 13) -> Image.Image:
    """Every face of `deck` (classic108, swap112, shuffle112) on one sheet, then the back;
    13 columns put each colour on its own row."""
    faces = [face(c, SHEET_CARD_WIDTH) for c in deck_faces(deck)] + [back(SHEET_CARD_WIDTH)]
    image = Image.new("RGBA", grid_size(len(faces), SHEET_CARD_WIDTH, columns, 0), (*FELT, 255))
    for index, picture in enumerate(faces):
        image.alpha_composite(picture, _slot(index, SHEET_CARD_WIDTH, columns, 0))
    return image.convert("RGB")
