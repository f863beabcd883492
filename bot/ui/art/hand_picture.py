"""Pictures of many cards: a player's hand and a whole deck's faces.

The hand is drawn as the player holds it: every card in full colour, in the hand's buttons'
order, and on the player's turn the cards they may play stand up from the others (`LIFT`), as
at a real table. It never shows the card to match, and the cards stand up only on the player's
own turn: a picture that changes is uploaded again and reloads on the player's screen, so it
changes when the hand does (a card played or drawn) and when the player's turn begins and ends,
not at every other player's move (issue 23: half the hand pictures). The card to match is the
hand message's thumbnail, its application emoji (bot/ui/card_emojis.py).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from PIL import Image

from bot.engine import Card, build_deck
from bot.ui.art.faces import back, face, face_size
from bot.ui.art.palette import FELT

#: Cards a hand picture shows copy by copy, three rows; a bigger hand is pictured one card of
#: each kind (at most 56, the most kinds a deck has: seven rows), so no kind is ever left out.
EVERY_COPY: Final = 27
#: A hand wider than a phone's ~300 px (most hands) is shown scaled to fit, so the cards'
#: width in pixels changes only the file: 56 px look the same on a phone as 72 px and cost a
#: quarter fewer bytes and less encoding; a hand of 1-4 cards, shown 1:1, stays well readable.
HAND_CARD_WIDTH: Final = 56
SHEET_CARD_WIDTH: Final = 72
_COLUMNS: Final = 9
_GAP: Final = 8
_PAD: Final = 12
#: How far a playable card stands up (about 10 px on a phone, where the picture is ~300 px
#: wide): each row of a hand has this much room above it.
LIFT: Final = 16


def grid_size(count: int, width: int, columns: int = _COLUMNS) -> tuple[int, int]:
    """The picture size of `count` cards `width` wide laid out `columns` to a row."""
    cols = max(1, min(count, columns))
    rows = max(1, -(-count // columns))
    w, h = face_size(width)
    return 2 * _PAD + cols * w + (cols - 1) * _GAP, 2 * _PAD + rows * h + (rows - 1) * _GAP


def _slot(index: int, width: int, columns: int) -> tuple[int, int]:
    w, h = face_size(width)
    row, col = divmod(index, columns)
    return _PAD + col * (w + _GAP), _PAD + row * (h + _GAP)


def hand_size(count: int) -> tuple[int, int]:
    """The size of a hand picture of `count` cards (each row with room for a raised card)."""
    width, height = grid_size(count, HAND_CARD_WIDTH)
    return width, height + max(1, -(-count // _COLUMNS)) * LIFT


def card_origin(index: int, lifted: bool = False) -> tuple[int, int]:
    """Where the `index`-th card of a hand picture is drawn (its top left corner); `lifted`:
    a playable card on its player's turn, standing up from the row."""
    w, h = face_size(HAND_CARD_WIDTH)
    row, col = divmod(index, _COLUMNS)
    y = _PAD + LIFT + row * (h + LIFT + _GAP)
    return _PAD + col * (w + _GAP), y - (LIFT if lifted else 0)


def hand_picture(cards: Sequence[Card], lifted: Collection[int] = ()) -> Image.Image:
    """`cards` in the given order, those at the indices `lifted` standing up. (What the bot
    sends is the same picture composed on its palette: indexed.py.)"""
    # An opaque canvas: a card pasted through its own alpha looks as if alpha-composited, at
    # half the cost, and the picture needs no conversion at the end.
    image = Image.new("RGB", hand_size(len(cards)), FELT)
    for index, card in enumerate(cards):
        _put(image, face(card, HAND_CARD_WIDTH), card_origin(index, index in lifted))
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
    image = Image.new("RGBA", grid_size(len(faces), SHEET_CARD_WIDTH, columns), (*FELT, 255))
    for index, picture in enumerate(faces):
        image.alpha_composite(picture, _slot(index, SHEET_CARD_WIDTH, columns))
    return image.convert("RGB")
