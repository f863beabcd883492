"""Card values, the scoring methods of RULES.md section 6, and the end of a match.

The end of a round or a match is an object (`RoundOutcome`, `Outcome`), not a set of flags.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypedDict

from .cards import Card
from .rules import RuleSet


class RoundEnd(StrEnum):
    WENT_OUT = "went_out"  # a player emptied their hand
    BLOCKED = "blocked"  # nobody could play or draw for a full lap: lowest hand wins
    ABANDONED = "abandoned"  # too few players left
    LAST_STANDING = "last_standing"  # the mercy rule knocked out everybody else


class Termination(StrEnum):
    TARGET_REACHED = "target_reached"
    SINGLE_ROUND = "single_round"  # scoring "none": one round decides
    LAST_STANDING = "last_standing"  # elimination, or everybody else left


class RoundOutcomeData(TypedDict):
    """`RoundOutcome` as JSON: player ids as string keys."""

    round_number: int
    winner: int | None
    reason: str
    hand_points: dict[str, int]
    cards_left: dict[str, int]
    points: dict[str, int]
    totals: dict[str, int]


class OutcomeData(TypedDict):
    """`Outcome` as JSON: player ids as string keys."""

    termination: str
    winners: list[int]
    totals: dict[str, int]


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    round_number: int
    winner: int | None
    reason: RoundEnd
    hand_points: dict[int, int]  # the value of what each player still held
    cards_left: dict[int, int]
    points: dict[int, int]  # added to each player's total by this round
    totals: dict[int, int]  # totals after this round

    def to_dict(self) -> RoundOutcomeData:
        return {
            "round_number": self.round_number,
            "winner": self.winner,
            "reason": self.reason.value,
            "hand_points": _keys_to_str(self.hand_points),
            "cards_left": _keys_to_str(self.cards_left),
            "points": _keys_to_str(self.points),
            "totals": _keys_to_str(self.totals),
        }

    @classmethod
    def from_dict(cls, data: RoundOutcomeData) -> RoundOutcome:
        return cls(
            round_number=int(data["round_number"]),
            winner=data["winner"],
            reason=RoundEnd(data["reason"]),
            hand_points=_keys_to_int(data["hand_points"]),
            cards_left=_keys_to_int(data["cards_left"]),
            points=_keys_to_int(data["points"]),
            totals=_keys_to_int(data["totals"]),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended: why, who won (several on a shared win), and the final totals."""

    termination: Termination
    winners: tuple[int, ...]
    totals: dict[int, int]

    def to_dict(self) -> OutcomeData:
        return {
            "termination": self.termination.value,
            "winners": list(self.winners),
            "totals": _keys_to_str(self.totals),
        }

    @classmethod
    def from_dict(cls, data: OutcomeData) -> Outcome:
        return cls(
            termination=Termination(data["termination"]),
            winners=tuple(data["winners"]),
            totals=_keys_to_int(data["totals"]),
        )


def _keys_to_str(d: Mapping[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in d.items()}


def _keys_to_int(d: Mapping[str, int]) -> dict[int, int]:
    return {int(k): int(v) for k, v in d.items()}


def hand_value(hand: Sequence[Card], deck: str = "classic108") -> int:
    """A hand's points in a game of `deck` (UNO Flip's, "flip112", scores its light Wild 40)."""
    if deck == "flip112":
        return sum(40 if c.code == "W" else c.points for c in hand)
    return sum(c.points for c in hand)


def round_points(
    rules: RuleSet,
    winner: int,
    hand_points: Mapping[int, int],
    cards_left: Mapping[int, int],
) -> dict[int, int]:
    """Points each player adds to their total for a round `winner` won, from the value and the
    number of the cards each player still holds."""
    points = dict.fromkeys(hand_points, 0)
    if rules.scoring == "standard":
        points[winner] = sum(hand_points.values()) - hand_points[winner]
    elif rules.scoring == "cards_count":
        points[winner] = sum(cards_left.values()) - cards_left[winner]
    elif rules.scoring in ("penalty", "elimination"):
        for p, v in hand_points.items():
            if p != winner:
                points[p] = v
    return points


def lowest(totals: Mapping[int, int], among: Sequence[int]) -> tuple[int, ...]:
    best = min(totals[p] for p in among)
    return tuple(p for p in among if totals[p] == best)


def match_outcome(
    rules: RuleSet,
    totals: Mapping[int, int],
    active: Sequence[int],
    round_winner: int,
) -> tuple[Outcome | None, list[int]]:
    """Whether the match is over after a round, and who is eliminated (elimination scoring).

    `active` are the players who took part in the round, in seat order.
    """
    final = dict(totals)
    if rules.scoring == "none":
        return Outcome(Termination.SINGLE_ROUND, (round_winner,), final), []
    target = rules.target
    reached = [p for p in active if totals[p] >= target]
    if rules.scoring in ("standard", "cards_count"):
        if reached:
            return Outcome(Termination.TARGET_REACHED, (round_winner,), final), []
        return None, []
    if rules.scoring == "penalty":
        if not reached:
            return None, []
        if rules.penalty_end == "reacher_loses":
            winners = tuple(p for p in active if totals[p] < rules.target)
            return Outcome(Termination.TARGET_REACHED, winners, final), []
        return Outcome(Termination.TARGET_REACHED, lowest(totals, active), final), []
    # elimination: the winner of a head-to-head round wins; otherwise reaching target knocks out.
    if len(active) == 2:
        return Outcome(Termination.LAST_STANDING, (round_winner,), final), []
    remaining = [p for p in active if p not in reached]
    if len(remaining) == 1:
        return Outcome(Termination.LAST_STANDING, (remaining[0],), final), reached
    if not remaining:
        return Outcome(Termination.LAST_STANDING, lowest(totals, active), final), reached
    return None, reached
