"""The rating model: openskill's Plackett-Luce ratings, the number players see, the soft reset
of a new season, season periods; what makes a match rated, who it ranks where (leavers last,
computers as fixed opponents), the weight of repeated matches, provisional ratings; and the
records the rating repository (ratings.py) returns. docs/playing.md says the same to players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from openskill.models import PlackettLuce

from bot.engine.game_kinds import CLASSIC

#: openskill's defaults: every new player starts here.
MU, SIGMA = 25.0, 25.0 / 3.0
#: The shown number: BASE + SCALE x ordinal (mu - 3 sigma); a new player's ordinal is 0.
BASE, SCALE = 1000, 40
#: A new season keeps mu and moves sigma this share of the way back to SIGMA (a soft reset).
SOFT_RESET = 0.5
#: Places kept in a season's archive.
ARCHIVED = 10
#: The smallest hand a rated match is dealt: with fewer cards a round is luck (and a farm).
MIN_RATED_HAND = 5
#: A rating whose uncertainty is above this is provisional (about five full matches bring a
#: new player's 8.33 under it): shown as such, and ranked after the established ones.
PROVISIONAL_SIGMA = 7.2
#: Rated matches between the same people within this window count less and less.
REPEAT_WINDOW = timedelta(hours=24)
#: A computer player's fixed strength per level (mu, sigma): an opponent in the update, never
#: stored or shown. Low sigma: the model treats the level as known.
COMPUTER_STRENGTH: Mapping[str, tuple[float, float]] = {
    "easy": (18.0, 2.0),
    "normal": (23.0, 2.0),
    "hard": (27.0, 2.0),
    "expert": (31.0, 2.0),
}


_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def rating_number(mu: float, sigma: float) -> int:
    """The rating players see: 1000 + 40 x (mu - 3 sigma), rounded."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def soft_reset(sigma: float) -> float:
    """A carried rating's uncertainty at a new season: halfway back to a new player's."""
    return sigma + (SIGMA - sigma) * SOFT_RESET


def is_provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def rated_hand(hand_size: int) -> bool:
    """Whether a match dealt `hand_size` cards may be rated (docs/playing.md)."""
    return hand_size >= MIN_RATED_HAND


def computer_strength(level: str | None) -> tuple[float, float]:
    return COMPUTER_STRENGTH.get(level or "", COMPUTER_STRENGTH["normal"])


def repeat_weight(earlier: int) -> float:
    """The weight of a rated match for a player who already had `earlier` rated matches with
    one of its other people within REPEAT_WINDOW: 1, 1/2, 1/4, ... (ten in a row: under 2)."""
    return 0.5**earlier


def rating_places(
    standing: Mapping[int, int], leavers: Sequence[int], ender: int | None = None
) -> dict[int, int]:
    """The places a match is rated by: those still seated by `standing` (1: a winner; ties
    share), then whoever ended the match by `/uno end` (`ender`, if they were seated), then the
    `leavers` in the order they left, the last to leave highest: each leaver lost to everyone
    still seated when they left."""
    places = dict(standing)
    below = max(places.values(), default=0) + 1
    if ender is not None:
        places.pop(ender, None)
        places[ender] = below
        below += 1
    for leaver in reversed(leavers):
        places[leaver] = below
        below += 1
    return places


def rate(
    before: Mapping[int, tuple[float, float]],
    places: Mapping[int, int],
    *,
    fixed: Mapping[int, tuple[float, float]] | None = None,
    weights: Mapping[int, float] | None = None,
) -> dict[int, tuple[float, float]]:
    """New (mu, sigma) of each player of `before` from the finishing places (1: the winner;
    ties share). `fixed`: opponents of a known strength (computers) who take part in the
    update but are not rated; `weights`: each player's share of the change (1 by default)."""
    fixed = fixed or {}
    strengths = {**fixed, **before}
    players = sorted(strengths, key=lambda user: (places[user], user))
    teams = [[_MODEL.rating(mu=strengths[user][0], sigma=strengths[user][1])] for user in players]
    rated = _MODEL.rate(teams, ranks=[float(places[user]) for user in players])
    after = {}
    for user, team in zip(players, rated, strict=True):
        if user not in before:
            continue
        weight = 1.0 if weights is None else weights.get(user, 1.0)
        mu, sigma = before[user]
        after[user] = (mu + weight * (team[0].mu - mu), sigma + weight * (team[0].sigma - sigma))
    return after


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
    provisional: bool = False


@dataclass(frozen=True, slots=True)
class RatingBoard:
    """One page of a season's rating leaderboard (the current one, or an ended one's top ten)."""

    season: int
    page: int
    per_page: int
    total: int
    entries: tuple[RatingEntry, ...]
    ended: bool = False
    game: str = CLASSIC

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
    provisional: bool = False
    game: str = CLASSIC


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    """An ended season, to announce: each game's top ten (`boards`: (game, standings) in the
    order the games are offered), their champions (the first of a game's standings and whoever
    shares their rating: bot/ui/stats.py `champions`) and where."""

    guild_id: int
    number: int
    channel_id: int | None
    boards: tuple[tuple[str, tuple[RatingEntry, ...]], ...]

    def board(self, game: str) -> tuple[RatingEntry, ...]:
        """One game's archived standings (empty if it had no rated match that season)."""
        return next((entries for key, entries in self.boards if key == game), ())
