"""Alt text for the pictures: what a screen reader says instead, from the message catalogue."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Final

from bot.engine import Card, Color
from bot.i18n import t
from bot.ui.art.hand_picture import page_cards, pages
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
    text = t("table.alt_seat", locale, name=seat.name, count=seat.cards)
    if seat.at_risk:
        return t("table.alt_at_risk", locale, seat=text)
    if seat.uno:
        return t("table.alt_uno", locale, seat=text)
    return text


def describe_table(state: TableState, locale: object = None) -> str:
    """The top card, the colour, the direction, whose turn, every seat's count and the draw pile."""
    seats = ", ".join(_seat(seat, locale) for seat in state.seats)
    current = state.current
    turn = t("table.alt_turn", locale, name=current.name) if current else ""
    return _clip(
        t(
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


def describe_hand(
    cards: Sequence[Card], playable: Collection[Card] = (), page: int = 0, locale: object = None
) -> str:
    """The cards of one page of the hand picture in order, the playable ones marked."""
    page = max(0, min(page, pages(len(cards)) - 1))
    return describe_hand_page(
        page_cards(cards, page),
        playable,
        total=len(cards),
        page=page,
        pages=pages(len(cards)),
        locale=locale,
    )


def describe_hand_page(
    shown: Sequence[Card],
    playable: Collection[Card],
    *,
    total: int,
    page: int,
    pages: int,
    locale: object = None,
    top: Card | None = None,
    color: Color | None = None,
) -> str:
    """The cards a hand message pictures (`shown`, one page of its buttons), the playable ones
    marked, with the whole hand's size and the buttons' page, then the card to match (`top`,
    in `color`) that the picture shows beside them."""
    names = [
        t("hand.alt_playable", locale, card=_card(c, locale)) if c in playable else _card(c, locale)
        for c in shown
    ]
    text = t(
        "hand.alt",
        locale,
        page=page + 1,
        pages=pages,
        count=total,
        cards=", ".join(names) if names else t("hand.empty", locale),
    )
    if top is not None:  # first, so that clipping a huge hand never cuts it off
        match = t("hand.alt_match", locale, card=_card(top, locale), color=_color(color, locale))
        text = f"{match} {text}"
    return _clip(text)
