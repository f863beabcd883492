"""How cards and colours look: names from the catalogue, a colour emoji, a button style."""

from __future__ import annotations

import discord

from bot.engine import Card, Color
from bot.i18n import t

COLOR_EMOJI = {
    Color.RED: "🟥",
    Color.YELLOW: "🟨",
    Color.GREEN: "🟩",
    Color.BLUE: "🟦",
    # UNO Flip's dark side (until the Flip table gives it a look of its own)
    Color.PINK: "🩷",
    Color.TEAL: "🩵",
    Color.ORANGE: "🟧",
    Color.PURPLE: "🟪",
}
WILD_EMOJI = "🌈"
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


def card_name(card: Card, locale: object = None) -> str:
    rank = t(f"rank.{card.rank.value}", locale)
    if card.color is None:
        return rank
    return t("card.colored", locale, color=color_name(card.color, locale), rank=rank)


def card_emoji(card: Card) -> str:
    return COLOR_EMOJI[card.color] if card.color is not None else WILD_EMOJI


def card_style(card: Card) -> discord.ButtonStyle:
    return COLOR_STYLE[card.color] if card.color is not None else discord.ButtonStyle.secondary


def card_text(card: Card, locale: object = None) -> str:
    """A card for running text: emoji and name."""
    return f"{card_emoji(card)} {card_name(card, locale)}"


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
