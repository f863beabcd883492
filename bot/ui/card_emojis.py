"""Card emojis: application emojis drawn from the same art as the pictures.

Each face of every deck, each wild in each colour it can be given and each colour choice gets
one application emoji named `uno_<key>_<digest>`, where the digest is of the image itself: art
that changes gets a new name (so it is uploaded), art that did not keeps its name (so a restart
uploads nothing). Until the emojis are known (start-up, Discord refusing them) `button_emoji`
gives today's Unicode emoji. The buttons wear them, and the hand message shows the card to
match as its thumbnail from the emoji's image on Discord's CDN (`card_image_url`): uploaded
once at start-up, never again with a message.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from PIL import Image

from bot.engine import COLORS, Card, Color
from bot.engine.cards import DARK_COLORS, flip_side_deck
from bot.ui.art import deck_faces, face, swatch
from bot.ui.cards import COLOR_EMOJI, card_emoji, is_dark, side_colors

#: The decks whose faces have emojis (UNO Flip's: both sides, `_every_face`).
DECKS: Final = ("classic108", "swap112", "shuffle112", "no_mercy168", "flip112")
PREFIX: Final = "uno_"
SIZE: Final = 128  # Discord shows emojis at most 48 px high (96 on a hi-dpi screen)
MAX_BYTES: Final = 256 * 1024  # Discord's limit for an emoji image
#: Where Discord serves emoji images (`discord.Asset.BASE`): `{CDN}/emojis/{id}.png`.
CDN: Final = "https://cdn.discordapp.com"
NAME: Final = re.compile(r"^uno_([A-Za-z0-9]+)_([0-9a-f]{8})$")

#: An emoji as a component's `emoji` field: {"id": ..., "name": ...} or {"name": "🟥"}.
EmojiJson = dict[str, Any]


@dataclass(frozen=True, slots=True)
class EmojiArt:
    """One emoji we want: what it stands for (a card code, or "c" + a colour) and its image."""

    key: str
    image: bytes

    @property
    def name(self) -> str:
        return f"{PREFIX}{self.key}_{hashlib.sha256(self.image).hexdigest()[:8]}"


def color_key(color: Color) -> str:
    return f"c{color.value}"


def card_key(card: Card, chosen: Color | None = None) -> str:
    """A card's emoji key: its code, and for a wild given a colour, that colour ("W4cR")."""
    if card.is_wild and chosen is not None:
        return f"{card.code}{color_key(chosen)}"
    return card.code


def _png(picture: Image.Image) -> bytes:
    """`picture` centred on a transparent square (emojis are shown square), as a PNG."""
    canvas = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    canvas.alpha_composite(picture, ((SIZE - picture.width) // 2, (SIZE - picture.height) // 2))
    buffer = io.BytesIO()
    canvas.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def wanted_emojis() -> list[EmojiArt]:
    """Every emoji the buttons can use: each distinct face of every deck, each colour choice.
    Takes a few hundred milliseconds: call it in a worker thread."""
    cards = _every_face()
    width = SIZE * 2 // 3  # the card's height fills the square
    art = [EmojiArt(card.code, _png(face(card, width))) for card in cards]
    art += [
        EmojiArt(card_key(card, color), _png(face(card, width, color)))
        for card in cards
        if card.is_wild
        for color in side_colors(is_dark(card))
    ]
    art += [
        EmojiArt(color_key(color), _png(swatch(color, SIZE - 16)))
        for color in (*COLORS, *DARK_COLORS)
    ]
    return art


def _every_face() -> dict[Card, None]:
    """Each distinct face of every deck once, UNO Flip's dark side's too (its deck is dealt
    light side up: `build_deck` lists that side)."""
    cards = dict.fromkeys(c for deck in DECKS for c in deck_faces(deck))
    cards.update(dict.fromkeys(flip_side_deck(dark=True)))
    return cards


def is_ours(name: str) -> bool:
    """Whether an application emoji's name is one of ours (any version)."""
    return NAME.match(name) is not None


class CardEmojis:
    """The emojis in use, by key; empty until they are synced (then the Unicode fallback)."""

    def __init__(self) -> None:
        self._by_key: dict[str, EmojiJson] = {}

    def use(self, emojis: Iterable[tuple[str, int, str]]) -> None:
        """Use these (key, emoji id, emoji name) from now on."""
        self._by_key = {key: {"id": str(eid), "name": name} for key, eid, name in emojis}

    def __len__(self) -> int:
        return len(self._by_key)

    def get(self, key: str) -> EmojiJson | None:
        return self._by_key.get(key)


#: The application's emojis, filled by the Discord layer once they are synced (cogs/card_emojis).
CARD_EMOJIS = CardEmojis()


def button_emoji(card: Card, custom: bool) -> EmojiJson | str:
    """A card button's emoji: the card's own (`custom` and known) or today's coloured square."""
    found = CARD_EMOJIS.get(card.code) if custom else None
    return found if found is not None else card_emoji(card)


def card_image_url(card: Card, chosen: Color | None = None) -> str | None:
    """The image of `card` (a wild in its `chosen` colour) on Discord's CDN, from its
    application emoji; None until the emojis are known."""
    found = CARD_EMOJIS.get(card_key(card, chosen)) or CARD_EMOJIS.get(card.code)
    return None if found is None else f"{CDN}/emojis/{found['id']}.png"


def color_emoji(color: Color, custom: bool) -> EmojiJson | str:
    """A colour button's emoji: the colour's swatch (`custom` and known) or a coloured square."""
    found = CARD_EMOJIS.get(color_key(color)) if custom else None
    return found if found is not None else COLOR_EMOJI[color]
