"""Which picture a message carries: the table's or a hand's, as a small value to render later.

Rendering and encoding take milliseconds, so the Discord layer runs `Picture.render` in a worker
thread; everything here is cheap and pure. A picture's `key` is what it shows: two equal keys
are the same image, so an edit whose key did not change keeps the attachment already sent.
The embed points at the attachment by file name (`attachment://table.png`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Final

import discord

from bot.engine import Card, Game, Play, PlayerView, view_for
from bot.ui.art import (
    PAGE_SIZE,
    SeatState,
    TableState,
    describe_hand_page,
    describe_table,
    hand_file,
    table_file,
)
from bot.ui.art.encode import EXTENSION

TABLE_FILE: Final = f"table.{EXTENSION}"
HAND_FILE: Final = f"hand.{EXTENSION}"


@dataclass(frozen=True, slots=True)
class Picture:
    """An image to attach: its file name, what it shows (`key`), its alt text and how to draw it
    (`render`: pure and thread-safe, returns the encoded file)."""

    filename: str
    key: Hashable
    description: str
    render: Callable[[], bytes]

    def point(self, embed: discord.Embed) -> None:
        """Show this picture as the embed's image."""
        embed.set_image(url=f"attachment://{self.filename}")


def table_state(game: Game, names: Mapping[int, str]) -> TableState | None:
    """What the table picture shows; None before there is a top card. Names stay exact here:
    drawn as pixels and read as alt text, where Discord reads no markdown (names.py)."""
    view = view_for(game, None)
    if view.top_card is None:
        return None
    seats = tuple(
        SeatState(
            names.get(s.player, str(s.player)),
            s.cards,
            s.player == view.current_player,
            uno=s.cards == 1 and not s.at_risk,
            at_risk=s.cards == 1 and s.at_risk,
        )
        for s in view.seats
        if s.in_round
    )
    return TableState(view.top_card, view.color, view.direction == 1, seats, view.draw_pile)


def table_picture(game: Game, names: Mapping[int, str], locale: object) -> Picture | None:
    state = table_state(game, names)
    if state is None:
        return None
    return Picture(TABLE_FILE, state, describe_table(state, locale), partial(table_file, state))


def _expanded(distinct: list[Card], counts: Counter[Card]) -> tuple[Card, ...]:
    """Every copy of each card, in the given order; the distinct cards alone when the copies
    would not fit one picture (a huge hand), so no kind of card is ever left out."""
    every = tuple(c for c in distinct for _ in range(counts[c]))
    return every if len(every) <= PAGE_SIZE else tuple(distinct[:PAGE_SIZE])


def hand_picture(
    view: PlayerView, page_cards: list[Card], locale: object, *, page: int = 0, pages: int = 1
) -> Picture | None:
    """The hand as its buttons show it: `page_cards` (this page's card buttons, in order), each
    copy drawn; the playable ones highlighted; the card to match beside them. No card buttons
    (a colour to choose, a drawn card to play or keep): the whole hand, so the player still
    sees it. None without cards.
    `page` of `pages`: the buttons' page, which the description names."""
    counts = Counter(view.hand)
    if not counts:
        return None
    shown = _expanded(page_cards or sorted(counts), counts)
    playable = frozenset(c for c in counts if Play(c) in view.legal)
    lit = playable & frozenset(shown)
    top, color = view.top_card, view.color
    render = partial(hand_file, shown, lit, 0, top, color)
    description = describe_hand_page(
        shown,
        playable,
        total=len(view.hand),
        page=page,
        pages=pages,
        locale=locale,
        top=top,
        color=color,
    )
    return Picture(HAND_FILE, (shown, lit, top, color), description, render)
