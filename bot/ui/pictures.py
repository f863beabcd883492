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
from bot.engine.ai import is_computer
from bot.ui.art import (
    EVERY_COPY,
    SeatState,
    TableState,
    describe_hand,
    describe_table,
    hand_file,
    table_file,
)
from bot.ui.art.encode import EXTENSION

TABLE_FILE: Final = f"table.{EXTENSION}"
HAND_FILE: Final = f"hand.{EXTENSION}"


@dataclass(frozen=True, slots=True)
class Picture:
    """An image to attach: its file name, what it shows (`key`), how to word its alt text
    (`describe`) and how to draw it (`render`: pure and thread-safe, returns the encoded file).
    The alt text is worded only for an upload: most edits keep the picture they have."""

    filename: str
    key: Hashable
    describe: Callable[[], str]
    render: Callable[[], bytes]

    @property
    def description(self) -> str:
        """The alt text."""
        return self.describe()

    def point(self, embed: discord.Embed) -> None:
        """Show this picture as the embed's image."""
        embed.set_image(url=f"attachment://{self.filename}")


def table_state(game: Game, names: Mapping[int, str]) -> TableState | None:
    """What the table picture shows; None before there is a top card. Names stay exact here:
    drawn as pixels and read as alt text, where Discord reads no markdown (names.py)."""
    view = view_for(game, None)
    if view.top_card is None:
        return None
    shows = dict(view.other_sides)  # UNO Flip: the side of each hand everybody sees
    seats = tuple(
        SeatState(
            names.get(s.player, str(s.player)),
            s.cards,
            s.player == view.current_player,
            uno=s.cards == 1 and not s.at_risk,
            at_risk=s.cards == 1 and s.at_risk,
            computer=is_computer(s.player),
            knocked_out=s.knocked_out,
            shows=shows.get(s.player, ()),
        )
        for s in view.seats
        if (s.in_round or s.knocked_out) and not s.left
    )
    flip = game.rules.deck == "flip112"
    return TableState(
        view.top_card,
        view.color,
        view.direction == 1,
        seats,
        view.draw_pile,
        dark=view.dark if flip else None,
        pile_top=view.pile_back,
    )


def table_picture(game: Game, names: Mapping[int, str], locale: object) -> Picture | None:
    state = table_state(game, names)
    if state is None:
        return None
    describe = partial(describe_table, state, locale)
    return Picture(TABLE_FILE, state, describe, partial(table_file, state))


def _expanded(distinct: list[Card], counts: Counter[Card]) -> tuple[Card, ...]:
    """Every copy of each card, in the given order; the distinct cards alone when the copies
    would make a huge picture (a huge hand), so no kind of card is ever left out."""
    every = tuple(c for c in distinct for _ in range(counts[c]))
    return every if len(every) <= EVERY_COPY else tuple(distinct)


def playable(view: PlayerView) -> frozenset[Card]:
    """The cards the viewer may play now: none but on their own turn."""
    if not view.my_turn:
        return frozenset()
    return frozenset(a.card for a in view.legal if isinstance(a, Play))


def hand_picture(view: PlayerView, locale: object) -> Picture | None:
    """The viewer's whole hand, every copy drawn, in the order of its buttons (whatever page
    they are on), the cards they may play standing up on their turn; None without cards. It
    changes when the hand does and when their turn begins or ends, never at another player's
    move (bot/ui/art/hand_picture.py says why): its key is the cards and the raised ones."""
    counts = Counter(view.hand)
    if not counts:
        return None
    shown = _expanded(sorted(counts), counts)
    may = playable(view)
    lifted = tuple(i for i, card in enumerate(shown) if card in may)
    describe = partial(describe_hand, shown, total=len(view.hand), locale=locale)
    render = partial(hand_file, shown, lifted)
    return Picture(HAND_FILE, ("hand", shown, lifted), describe, render)
