"""Pictures of many cards: a player's hand (one page of at most 25) and a whole deck's faces.

Playable cards are lifted and ringed, the others faded, so the eye finds the choices at once;
the order is the caller's (the same order as the hand's buttons).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.engine import Card, build_deck
from bot.ui.art.faces import back, dimmed, face, face_size
from bot.ui.art.palette import FELT, HIGHLIGHT

PAGE_SIZE: Final = 25
HAND_CARD_WIDTH: Final = 72
SHEET_CARD_WIDTH: Final = 72
_COLUMNS: Final = 9
_GAP: Final = 8
_PAD: Final = 12
_LIFT: Final = 8


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


def hand_picture(
    cards: Sequence[Card], playable: Collection[Card] = (), page: int = 0
) -> Image.Image:
    """Page `page` (from 0) of the hand, in the given order; `playable` cards are highlighted."""
    shown = page_cards(cards, page)
    image = Image.new("RGBA", grid_size(len(shown), HAND_CARD_WIDTH), (*FELT, 255))
    draw = ImageDraw.Draw(image)
    w, h = face_size(HAND_CARD_WIDTH)
    for index, card in enumerate(shown):
        x, y = _slot(index, HAND_CARD_WIDTH, _COLUMNS, _LIFT)
        if card in playable:
            y -= _LIFT
            draw.rounded_rectangle((x - 3, y - 3, x + w + 2, y + h + 2), 9, fill=HIGHLIGHT)
            image.alpha_composite(face(card, HAND_CARD_WIDTH), (x, y))
        else:
            image.alpha_composite(dimmed(card, HAND_CARD_WIDTH), (x, y))
    return image.convert("RGB")


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
