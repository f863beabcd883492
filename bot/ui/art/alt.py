"""Alt text for the pictures: what a screen reader says instead, from the message catalogue."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.engine import Card, Color
from bot.i18n import t
from bot.ui.art.table_picture import SeatState, TableState

MAX_ALT: Final = 1024  # Discord's limit on an attachment's description


def _color(color: Color | None, locale: object) -> str:
    return t("color.none", locale) if color is None else t(f"color.{color.value}", locale)


def _card(card: Card, locale: object) -> str:
    rank = t(f"rank.{card.rank.value}", locale)
    if card.color is None:
        return rank
    return t("card.colored", locale, color=_color(card.color, locale), rank=rank)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1] + "…"


def _seat(seat: SeatState, locale: object) -> str:
    """A seat's name and count, and its UNO state: called, or at risk of being caught."""
    if seat.knocked_out:
        return t("table.alt_knocked_out", locale, name=seat.name)
    text = t("table.alt_seat", locale, name=seat.name, count=seat.cards)
    if seat.at_risk:
        text = t("table.alt_at_risk", locale, seat=text)
    elif seat.uno:
        text = t("table.alt_uno", locale, seat=text)
    if seat.shows:  # UNO Flip: the other side of the seat's cards, which everybody sees
        cards = ", ".join(_card(c, locale) for c in seat.shows)
        text = t("table.alt_shows", locale, seat=text, cards=cards)
    return text


def describe_table(state: TableState, locale: object = None) -> str:
    """The top card, the colour, the direction, whose turn, every seat's count and the draw pile."""
    seats = ", ".join(_seat(seat, locale) for seat in state.seats)
    current = state.current
    turn = t("table.alt_turn", locale, name=current.name) if current else ""
    side = ""
    if state.dark is not None:
        side = t("table.alt_side_dark" if state.dark else "table.alt_side_light", locale) + " "
    return _clip(
        side
        + t(
            "table.alt",
            locale,
            card=_card(state.top, locale),
            color=_color(state.color, locale),
            direction=t("table.clockwise" if state.clockwise else "table.counterclockwise", locale),
            turn=turn,
            seats=seats,
            draw=t("count.cards", locale, count=state.draw_pile),
        ).replace("  ", " ")
    )


def describe_hand(shown: Sequence[Card], *, total: int, locale: object = None) -> str:
    """The cards a hand picture shows, in order, with the whole hand's size (a huge hand is
    pictured one card of each kind)."""
    names = [_card(c, locale) for c in shown]
    text = t(
        "hand.alt",
        locale,
        count=total,
        cards=", ".join(names) if names else t("hand.empty", locale),
    )
    return _clip(text)
