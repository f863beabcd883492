"""The rating model: openskill's Plackett-Luce ratings, the number players see, the soft reset
of a new season, season periods; and the records the rating repository (ratings.py) returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from openskill.models import PlackettLuce

#: openskill's defaults: every new player starts here.
MU, SIGMA = 25.0, 25.0 / 3.0
#: The shown number: BASE + SCALE x ordinal (mu - 3 sigma); a new player's ordinal is 0.
BASE, SCALE = 1000, 40
#: A new season keeps mu and moves sigma this share of the way back to SIGMA (a soft reset).
SOFT_RESET = 0.5
#: Places kept in a season's archive.
ARCHIVED = 10


_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def rating_number(mu: float, sigma: float) -> int:
    """The rating players see: 1000 + 40 x (mu - 3 sigma), rounded."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def soft_reset(sigma: float) -> float:
    """A carried rating's uncertainty at a new season: halfway back to a new player's."""
    return sigma + (SIGMA - sigma) * SOFT_RESET


def rate(
    before: Mapping[int, tuple[float, float]], places: Mapping[int, int]
) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) of each player from the finishing places (1: the winner; ties share)."""
    players = sorted(before, key=lambda user: (places[user], user))
    teams = [[_MODEL.rating(mu=before[user][0], sigma=before[user][1])] for user in players]
    rated = _MODEL.rate(teams, ranks=[float(places[user]) for user in players])
    return {user: (team[0].mu, team[0].sigma) for user, team in zip(players, rated, strict=True)}


def period_start(length: str, now: datetime) -> datetime | None:
    """When the season period holding `now` began (UTC calendar months or quarters)."""
    if length == "monthly":
        return datetime(now.year, now.month, 1, tzinfo=UTC)
    if length == "quarterly":
        return datetime(now.year, (now.month - 1) // 3 * 3 + 1, 1, tzinfo=UTC)
    return None


@dataclass(frozen=True, slots=True)
class RatingEntry:
    user_id: int
    display_name: str
    rating: int
    matches: int
    rank: int


@dataclass(frozen=True, slots=True)
class RatingBoard:
    """One page of a season's rating leaderboard (the current one, or an ended one's top ten)."""

    season: int
    page: int
    per_page: int
    total: int
    entries: tuple[RatingEntry, ...]
    ended: bool = False

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


@dataclass(frozen=True, slots=True)
class PlayerRating:
    season: int
    rating: int
    rank: int
    matches: int
    trend: tuple[int, ...]  # the changes of their last rated matches, oldest first


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    """An ended season, to announce: its champion (the first of `standings`) and where."""

    guild_id: int
    number: int
    channel_id: int | None
    standings: tuple[RatingEntry, ...]
