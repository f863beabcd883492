"""How cards and colours look: names from the catalogue, a colour emoji, a button style."""

from __future__ import annotations

from functools import lru_cache

import discord

from bot.engine import COLORS, Card, Color, Rank
from bot.engine.cards import DARK_COLORS
from bot.i18n import t

COLOR_EMOJI = {
    Color.RED: "🟥",
    Color.YELLOW: "🟨",
    Color.GREEN: "🟩",
    Color.BLUE: "🟦",
    # UNO Flip's dark side: hearts, not squares, so a dark colour never passes for a light
    # one (orange beside red, purple beside blue) and the side shows at a glance
    Color.PINK: "🩷",
    Color.TEAL: "🩵",
    Color.ORANGE: "🧡",
    Color.PURPLE: "💜",
}
WILD_EMOJI = "🌈"
#: UNO Flip's dark wilds (the dark side's Wild and Wild Draw Colour): a dark rainbow.
DARK_WILD_EMOJI = "🌌"
#: The wild ranks of UNO Flip's dark side (its coloured cards have dark colours).
DARK_WILD_RANKS = frozenset((Rank.DARK_WILD, Rank.WILD_DRAW_COLOR))
COLOR_STYLE = {
    Color.RED: discord.ButtonStyle.danger,
    Color.YELLOW: discord.ButtonStyle.secondary,
    Color.GREEN: discord.ButtonStyle.success,
    Color.BLUE: discord.ButtonStyle.primary,
    Color.PINK: discord.ButtonStyle.danger,
    Color.TEAL: discord.ButtonStyle.secondary,
    Color.ORANGE: discord.ButtonStyle.success,
    Color.PURPLE: discord.ButtonStyle.primary,
}
EMBED_COLOUR = {
    Color.RED: 0xD72600,
    Color.YELLOW: 0xECD407,
    Color.GREEN: 0x379711,
    Color.BLUE: 0x0956BF,
    Color.PINK: 0xE0409A,
    Color.TEAL: 0x11A3A3,
    Color.ORANGE: 0xF07A12,
    Color.PURPLE: 0x7A3DC2,
    None: 0x2B2D31,
}


def color_name(color: Color | None, locale: object = None) -> str:
    if color is None:
        return t("color.none", locale)
    return t(f"color.{color.value}", locale)


def color_text(color: Color, locale: object = None) -> str:
    """A colour for running text: its square and its name."""
    return f"{COLOR_EMOJI[color]} {color_name(color, locale)}"


@lru_cache(maxsize=4096)
def card_name(card: Card, locale: object = None) -> str:
    """The card's name in `locale` ("Red 7", "Rot 7"): remembered, as each hand and table
    names every card it shows after every move (a card is one object per face)."""
    rank = t(f"rank.{card.rank.value}", locale)
    if card.color is None:
        return rank
    return t("card.colored", locale, color=color_name(card.color, locale), rank=rank)


def is_dark(card: Card) -> bool:
    """Whether `card` is a face of UNO Flip's dark side."""
    return card.color.is_dark if card.color is not None else card.rank in DARK_WILD_RANKS


def side_colors(dark: bool) -> tuple[Color, ...]:
    """The colours a wild may be given on a side: UNO Flip's dark side has its own."""
    return DARK_COLORS if dark else COLORS


def side_line(dark: bool, locale: object = None) -> str:
    """UNO Flip: which side is in play, said at the top of the table and of every hand."""
    return t("table.side_dark" if dark else "table.side_light", locale)


def card_emoji(card: Card) -> str:
    if card.color is not None:
        return COLOR_EMOJI[card.color]
    return DARK_WILD_EMOJI if card.rank in DARK_WILD_RANKS else WILD_EMOJI


def card_style(card: Card) -> discord.ButtonStyle:
    return COLOR_STYLE[card.color] if card.color is not None else discord.ButtonStyle.secondary


def card_text(card: Card, locale: object = None) -> str:
    """A card for running text: emoji and name."""
    return f"{card_emoji(card)} {card_name(card, locale)}"


#: A card's rank as a mark, for the short lists of UNO Flip's other sides (numbers and marks
#: read in every language).
_MARKS = {
    Rank.SKIP: "⊘",
    Rank.REVERSE: "⇄",
    Rank.DRAW_TWO: "+2",
    Rank.WILD: "W",
    Rank.WILD_DRAW_FOUR: "+4",
    Rank.DRAW_ONE: "+1",
    Rank.FLIP: "⇅",
    Rank.WILD_DRAW_TWO: "+2",
    Rank.DRAW_FIVE: "+5",
    Rank.SKIP_EVERYONE: "⊘⊘",
    Rank.DARK_WILD: "W",
    Rank.WILD_DRAW_COLOR: "+?",
}


def card_mark(card: Card) -> str:
    """A card in two or three characters: its colour's emoji and its number or mark ("🩷7")."""
    return card_emoji(card) + _MARKS.get(card.rank, card.rank.value)


def marks_summary(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards as marks, grouped ("🩷7×2 💜⇄"): what everyone sees of a hand in UNO Flip."""
    counts: dict[Card, int] = {}
    for c in sorted(cards):
        counts[c] = counts.get(c, 0) + 1
    return " ".join(card_mark(c) + (f"×{n}" if n > 1 else "") for c, n in counts.items())


def hand_summary(cards: list[Card] | tuple[Card, ...], locale: object = None) -> str:
    """A whole hand as text, grouped: "🟥 Red 7 ×2, 🌈 Wild"."""
    counts: dict[Card, int] = {}
    for c in sorted(cards):
        counts[c] = counts.get(c, 0) + 1
    parts = []
    for c, n in counts.items():
        text = card_text(c, locale)
        parts.append(t("card.times", locale, card=text, count=n) if n > 1 else text)
    return ", ".join(parts) if parts else t("hand.empty", locale)
