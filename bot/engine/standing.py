"""A match's finishing order: who came first, second, ... (what skill ratings are made from)."""

from __future__ import annotations

from .rules import RuleSet
from .scoring import Outcome

#: Scorings whose points are won (the higher total finishes ahead); the others count penalties.
_POINTS_WON = ("standard", "cards_count")


def finishing_places(rules: RuleSet, outcome: Outcome) -> dict[int, int]:
    """Each player's place at the match's end (1: a winner). The winners share first place;
    the others follow by their final totals (higher first where points are won, lower first
    where they are penalties: penalty and elimination scoring); equal totals share a place.
    """
    won = rules.scoring in _POINTS_WON
    places = {player: 1 for player in outcome.winners}
    others = [p for p in outcome.totals if p not in places]
    ordered = sorted(others, key=lambda p: -outcome.totals[p] if won else outcome.totals[p])
    first = len(places)
    place = 0
    previous: int | None = None
    for index, player in enumerate(ordered):
        if outcome.totals[player] != previous:  # equal totals share a place ("1, 2, 2, 4")
            place, previous = first + index + 1, outcome.totals[player]
        places[player] = place
    return places
