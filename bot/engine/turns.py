"""Turns and the UNO window: who acts next, who misses a turn, who must call UNO.

Every function takes the state and, for the record, a list of events or None (the event-free
path of simulations: nothing is recorded, the state changes the same).
"""

from __future__ import annotations

from collections.abc import Iterable

from . import events as E
from .state import PLAY, GameState


def start_turn(g: GameState, seat: int, ev: list[E.Event] | None) -> None:
    """Give the turn to the player at `seat`, passing over those who must miss it."""
    skip_next = g.skip_next
    if skip_next:  # (rare: a guilty challenge under the German rules)
        seats = g.seats
        while skip_next and seats[seat] in skip_next:
            skip_next.remove(seats[seat])
            if ev is not None:
                ev.append(E.TurnSkipped(seats[seat]))
            seat = g.next_seat(seat)
    g.turn = seat
    g.decision = PLAY
    g.drawn_face = -1
    if g.steps:
        g.steps = []


def close_uno_window(g: GameState) -> None:
    """The next play, draw, accept or challenge ends the chance to catch anyone."""
    if g.at_risk:
        g.at_risk.clear()


def hands_changed(g: GameState, players: Iterable[int]) -> None:
    """Whoever now holds one card after a swap, rotation or shuffle must call UNO."""
    for p in players:
        if g.held[p].size == 1:
            if p not in g.at_risk:
                g.at_risk.append(p)
        elif p in g.at_risk:
            g.at_risk.remove(p)
