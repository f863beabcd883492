"""Skill ratings and seasons of a server: rating a counted match, the rating leaderboard, a
player's rating and trend, ending a season (its archive and the soft reset of the next).

Ratings are per game (bot/engine/game_kinds.py): a No Mercy match moves its players' No Mercy
ratings only. Seasons are the server's, shared by every game: a season's end archives the top
ten of each game played in it (each archived entry names its game; one without is classic).

A rating is openskill's Plackett-Luce (mu, sigma), shown as one number (`rating_number`):
1000 + 40 x (mu - 3 sigma), so a new player (mu 25, sigma 25/3) shows 1000. A match is rated
inside the save that ends it (`GameRepository.finish`, or `abandon` for `/uno end`), once: its
`rating_changes` rows are the proof. Computers take part at a fixed strength; matches repeated
between the same people within a day weigh less; ratings with much uncertainty are provisional
and ranked after the established ones (rating_model.py).

Just over 500 lines on purpose: the one repository of ratings, seasons and their archive,
whose writes check each other (a match rated once, a season ended once).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import and_, bindparam, case, desc, exists, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from bot.engine.game_kinds import CLASSIC, game_order
from bot.store.dml import rowcount
from bot.store.models import Game, GuildSettings, Rating, RatingChange, Season, utcnow
from bot.store.rating_model import (
    ARCHIVED,
    MU,
    PROVISIONAL_SIGMA,
    REPEAT_WINDOW,
    SIGMA,
    PlayerRating,
    RatingBoard,
    RatingEntry,
    SeasonEnd,
    is_provisional,
    period_start,
    rate,
    rating_number,
    repeat_weight,
    soft_reset,
)
from bot.store.upsert import insert_for

_RATINGS = Rating.__table__
#: 1 for a provisional rating, 0 for an established one: boards sort by it first.
_provisional_col = case((Rating.sigma > PROVISIONAL_SIGMA, 1), else_=0)
_ordinal_col = Rating.mu - 3 * Rating.sigma
# Every player of a match in one executemany (built once, like the click's statements).
_UPDATE_RATING = (
    update(_RATINGS)
    .where(
        _RATINGS.c.guild_id == bindparam("guild"),
        _RATINGS.c.season == bindparam("season_no"),
        _RATINGS.c.game == bindparam("game_kind"),
        _RATINGS.c.user_id == bindparam("user"),
    )
    .values(
        mu=bindparam("new_mu"),
        sigma=bindparam("new_sigma"),
        matches=_RATINGS.c.matches + 1,
        display_name=bindparam("name"),
        updated_at=bindparam("now", type_=_RATINGS.c.updated_at.type),
    )
)


class RatingRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    # -- rating a match --------------------------------------------------------------------

    async def rate_match(
        self,
        game_id: int,
        places: Mapping[int, int],
        names: Mapping[int, str],
        now: datetime | None = None,
        *,
        computers: Mapping[int, tuple[float, float]] | None = None,
    ) -> bool:
        """Rate a counted match of two or more people (`places`: 1 = winner; the people are
        the players named in `names`). `computers`: the computer players' fixed strengths
        (mu, sigma), opponents in the update but never stored. False, and nothing changed, if
        this game was rated already (a save run again)."""
        places = {p: v for p, v in places.items() if p in names or p in (computers or {})}
        if sum(p in names for p in places) < 2:
            return False
        done = await self._session.scalar(select(exists().where(RatingChange.game_id == game_id)))
        if done:
            return False
        now = now or utcnow()
        guild_id, channel_id, game = (
            await self._session.execute(
                select(Game.guild_id, Game.channel_id, Game.kind).where(Game.id == game_id)
            )
        ).one()
        season = await self._current_season(guild_id, now)
        users = sorted(p for p in places if p in names)
        # Rows exist before they are locked, in user order (as totals are), so two finishing
        # matches sharing players wait for each other instead of deadlocking.
        await self._session.execute(
            insert_for(self._session, Rating).on_conflict_do_nothing(),
            [
                {
                    "guild_id": guild_id,
                    "season": season,
                    "game": game,
                    "user_id": user,
                    "display_name": names[user][:100],
                    "mu": MU,
                    "sigma": SIGMA,
                    "matches": 0,
                    "updated_at": now,
                }
                for user in users
            ],
        )
        rows = (
            await self._session.execute(
                select(Rating.user_id, Rating.mu, Rating.sigma)
                .where(
                    Rating.guild_id == guild_id,
                    Rating.season == season,
                    Rating.game == game,
                    Rating.user_id.in_(users),
                )
                .order_by(Rating.user_id)
                .with_for_update()
            )
        ).all()
        before = {user: (mu, sigma) for user, mu, sigma in rows}
        weights = await self._repeat_weights(guild_id, game, users, now)
        fixed = {p: strength for p, strength in (computers or {}).items() if p in places}
        after = rate(before, places, fixed=fixed, weights=weights)
        await self._session.execute(
            _UPDATE_RATING,
            [
                {
                    "guild": guild_id,
                    "season_no": season,
                    "game_kind": game,
                    "user": user,
                    "new_mu": after[user][0],
                    "new_sigma": after[user][1],
                    "name": names[user][:100],
                    "now": now,
                }
                for user in users
            ],
            execution_options={"synchronize_session": False},
        )
        await self._session.execute(
            insert_for(self._session, RatingChange),
            [
                {
                    "game_id": game_id,
                    "user_id": user,
                    "guild_id": guild_id,
                    "season": season,
                    "game": game,
                    "place": places[user],
                    "mu_before": before[user][0],
                    "sigma_before": before[user][1],
                    "mu_after": after[user][0],
                    "sigma_after": after[user][1],
                    "created_at": now,
                }
                for user in users
            ],
        )
        await self._session.execute(
            update(Season)
            .where(Season.guild_id == guild_id, Season.number == season)
            .values(last_channel_id=channel_id),
            execution_options={"synchronize_session": False},
        )
        return True

    async def _repeat_weights(
        self, guild_id: int, game: str, users: list[int], now: datetime
    ) -> dict[int, float]:
        """Each person's weight in this match: halved for every rated match of the same game
        they had with one of its other people within REPEAT_WINDOW (the most with any one)."""
        mine, theirs = aliased(RatingChange), aliased(RatingChange)
        rows = await self._session.execute(
            select(mine.user_id, theirs.user_id, func.count())
            .join(theirs, and_(theirs.game_id == mine.game_id, theirs.user_id != mine.user_id))
            .where(
                mine.guild_id == guild_id,
                mine.game == game,
                mine.user_id.in_(users),
                theirs.user_id.in_(users),
                mine.created_at > now - REPEAT_WINDOW,
            )
            .group_by(mine.user_id, theirs.user_id)
        )
        earlier: dict[int, int] = {}
        for user, _, count in rows:
            earlier[user] = max(earlier.get(user, 0), int(count))
        return {user: repeat_weight(earlier.get(user, 0)) for user in users}

    async def changes(self, game_id: int) -> dict[int, tuple[int, int]]:
        """{player: (rating before, rating after)} of a rated match; empty if it was not rated."""
        rows = await self._session.execute(
            select(
                RatingChange.user_id,
                RatingChange.mu_before,
                RatingChange.sigma_before,
                RatingChange.mu_after,
                RatingChange.sigma_after,
            ).where(RatingChange.game_id == game_id)
        )
        return {
            user: (rating_number(mb, sb), rating_number(ma, sa)) for user, mb, sb, ma, sa in rows
        }

    async def provisional(self, game_id: int) -> set[int]:
        """The players of a rated match whose rating is provisional after it."""
        rows = await self._session.execute(
            select(RatingChange.user_id, RatingChange.sigma_after).where(
                RatingChange.game_id == game_id
            )
        )
        return {user for user, sigma in rows if is_provisional(sigma)}

    # -- seasons ---------------------------------------------------------------------------

    async def _current_season(self, guild_id: int, now: datetime) -> int:
        """The server's current season number (1 is started on first use), rolled over first
        if its period (monthly, quarterly) has ended."""
        await self.roll_over_if_due(guild_id, now)
        return await self._season_row(guild_id, now)

    async def _season_row(self, guild_id: int, now: datetime) -> int:
        # Locked until the save commits: an admin ending the season waits for a match being
        # rated in it (or the match waits and is rated in the next), so no change is lost
        # between the archive and the carried ratings. Lock order: game, season, ratings, totals.
        # A season ended while we waited no longer matches: a second look finds the next one.
        open_season = (
            select(Season.number)
            .where(Season.guild_id == guild_id, Season.ended_at.is_(None))
            .with_for_update()
        )
        for _ in range(2):
            number = await self._session.scalar(open_season)
            if number is not None:
                return number
        latest = await self._session.scalar(
            select(func.max(Season.number)).where(Season.guild_id == guild_id)
        )
        number = (latest or 0) + 1
        await self._session.execute(
            insert_for(self._session, Season)
            .values(guild_id=guild_id, number=number, started_at=now, announced=False)
            .on_conflict_do_nothing()
        )
        return number

    async def current_season(self, guild_id: int) -> int:
        """The current season's number, without starting one (1 if none started yet)."""
        number = await self._session.scalar(
            select(Season.number).where(Season.guild_id == guild_id, Season.ended_at.is_(None))
        )
        return number or 1

    async def roll_over_if_due(
        self, guild_id: int, now: datetime | None = None
    ) -> SeasonEnd | None:
        """End the current season if the server's season length says its period is over (a
        lazy check: at a counted match or a leaderboard view). A season without a rated match
        is not archived: it just starts again with the new period."""
        now = now or utcnow()
        length = await self._session.scalar(
            select(GuildSettings.season_length).where(GuildSettings.guild_id == guild_id)
        )
        start = period_start(length or "off", now)
        if start is None:
            return None
        season = await self._session.scalar(
            select(Season)
            .where(Season.guild_id == guild_id, Season.ended_at.is_(None))
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        if season is None or season.started_at >= start:
            return None
        if not await self._rated_in(guild_id, season.number):
            season.started_at = start
            await self._session.flush()
            return None
        return await self.end_season(guild_id, start)

    async def _rated_in(self, guild_id: int, season: int) -> bool:
        return bool(
            await self._session.scalar(
                select(
                    exists().where(
                        Rating.guild_id == guild_id, Rating.season == season, Rating.matches > 0
                    )
                )
            )
        )

    async def end_season(
        self, guild_id: int, now: datetime | None = None, *, channel_id: int | None = None
    ) -> SeasonEnd | None:
        """End the current season now: archive its champion and top ten, start the next with
        every rating carried over (mu kept, sigma soft-reset). None if it has no rated match.
        `channel_id`: where to announce the champion (default: its last counted match's)."""
        now = now or utcnow()
        season = await self._session.scalar(
            select(Season)
            .where(Season.guild_id == guild_id, Season.ended_at.is_(None))
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        if season is None or not await self._rated_in(guild_id, season.number):
            return None
        boards: list[tuple[str, tuple[RatingEntry, ...]]] = []
        for game in await self._games_rated_in(guild_id, season.number):
            top = await self._entries(
                guild_id, season.number, 0, ARCHIVED, game=game, played_only=True
            )
            if top:
                boards.append((game, tuple(top)))
        season.ended_at = now
        season.standings = [
            {
                "game": game,
                "user_id": e.user_id,
                "name": e.display_name,
                "rating": e.rating,
                "matches": e.matches,
                "provisional": e.provisional,
            }
            for game, top in boards
            for e in top
        ]
        season.champion_id = boards[0][1][0].user_id if boards else None
        if channel_id is not None:
            season.last_channel_id = channel_id
        nxt = season.number + 1
        self._session.add(Season(guild_id=guild_id, number=nxt, started_at=now, announced=False))
        carried = (
            await self._session.execute(
                select(Rating.game, Rating.user_id, Rating.display_name, Rating.mu, Rating.sigma)
                .where(Rating.guild_id == guild_id, Rating.season == season.number)
                .order_by(Rating.game, Rating.user_id)
            )
        ).all()
        await self._session.flush()
        if carried:
            await self._session.execute(
                insert_for(self._session, Rating),
                [
                    {
                        "guild_id": guild_id,
                        "season": nxt,
                        "game": game,
                        "user_id": user,
                        "display_name": name,
                        "mu": mu,
                        "sigma": soft_reset(sigma),
                        "matches": 0,
                        "updated_at": now,
                    }
                    for game, user, name, mu, sigma in carried
                ],
            )
        return SeasonEnd(guild_id, season.number, season.last_channel_id, tuple(boards))

    async def unannounced(self, guild_id: int) -> list[SeasonEnd]:
        """Ended seasons whose champion was not announced yet, oldest first."""
        seasons = await self._session.scalars(
            select(Season)
            .where(
                Season.guild_id == guild_id,
                Season.ended_at.is_not(None),
                Season.announced.is_(False),
            )
            .order_by(Season.number)
            .execution_options(populate_existing=True)
        )
        return [_archived(season) for season in seasons]

    async def claim_announcement(self, guild_id: int, number: int) -> bool:
        """Take the announcement of an ended season: True for exactly one caller (at most once,
        even when two matches end at the same moment)."""
        result = await self._session.execute(
            update(Season)
            .where(
                Season.guild_id == guild_id,
                Season.number == number,
                Season.ended_at.is_not(None),
                Season.announced.is_(False),
            )
            .values(announced=True),
            execution_options={"synchronize_session": False},
        )
        return rowcount(result) == 1

    # -- reading ---------------------------------------------------------------------------

    async def _games_rated_in(self, guild_id: int, season: int) -> list[str]:
        """The games with a rated match in the season, in the order they are offered."""
        games = await self._session.scalars(
            select(Rating.game)
            .where(Rating.guild_id == guild_id, Rating.season == season, Rating.matches > 0)
            .distinct()
        )
        return sorted(games, key=game_order)

    async def has_ratings(self, guild_id: int, game: str = CLASSIC) -> bool:
        """Whether any match of the game was rated in the server (its leaderboard then sorts
        by rating)."""
        return bool(
            await self._session.scalar(
                select(exists().where(RatingChange.guild_id == guild_id, RatingChange.game == game))
            )
        )

    async def board(
        self,
        guild_id: int,
        *,
        game: str = CLASSIC,
        season: int | None = None,
        page: int = 1,
        per_page: int = 10,
    ) -> RatingBoard | None:
        """A page of a season's rating leaderboard of `game` (default: the current season).
        An ended season shows its archived top ten. None if the server never had that season."""
        if page < 1 or per_page < 1:
            raise ValueError("page and per_page start at 1")
        current = await self.current_season(guild_id)
        number = current if season is None else season
        if number != current:
            row = await self._session.get(Season, (guild_id, number), populate_existing=True)
            if row is None or row.ended_at is None:
                return None
            archived = _archived(row).board(game)
            offset = (page - 1) * per_page
            chunk = archived[offset : offset + per_page]
            return RatingBoard(number, page, per_page, len(archived), chunk, ended=True, game=game)
        total = await self._session.scalar(
            select(func.count()).where(
                Rating.guild_id == guild_id, Rating.season == number, Rating.game == game
            )
        )
        offset = (page - 1) * per_page
        entries = await self._entries(guild_id, number, offset, per_page, game=game)
        return RatingBoard(number, page, per_page, total or 0, tuple(entries), game=game)

    async def _entries(
        self,
        guild_id: int,
        season: int,
        offset: int,
        limit: int,
        *,
        game: str,
        played_only: bool = False,
    ) -> list[RatingEntry]:
        where = [Rating.guild_id == guild_id, Rating.season == season, Rating.game == game]
        if played_only:
            where.append(Rating.matches > 0)
        rows = await self._session.execute(
            select(Rating.user_id, Rating.display_name, Rating.mu, Rating.sigma, Rating.matches)
            .where(*where)
            .order_by(_provisional_col, desc(_ordinal_col), Rating.user_id)
            .offset(offset)
            .limit(limit)
        )
        return [
            RatingEntry(
                user,
                name,
                rating_number(mu, sigma),
                matches,
                offset + i + 1,
                is_provisional(sigma),
            )
            for i, (user, name, mu, sigma, matches) in enumerate(rows)
        ]

    async def player(
        self, guild_id: int, user_id: int, *, game: str = CLASSIC, last: int = 5
    ) -> PlayerRating | None:
        """A player's rating in one game in the current season, their place on that game's
        board, and their last changes in it."""
        season = await self.current_season(guild_id)
        row = await self._session.get(
            Rating, (guild_id, season, game, user_id), populate_existing=True
        )
        if row is None:
            return None
        ordinal = row.mu - 3 * row.sigma
        provisional = is_provisional(row.sigma)
        ahead = await self._session.scalar(
            select(func.count()).where(
                Rating.guild_id == guild_id,
                Rating.season == season,
                Rating.game == game,
                or_(
                    _provisional_col < int(provisional),
                    and_(
                        _provisional_col == int(provisional),
                        (_ordinal_col > ordinal)
                        | ((_ordinal_col == ordinal) & (Rating.user_id < user_id)),
                    ),
                ),
            )
        )
        changes = (
            await self._session.execute(
                select(
                    RatingChange.mu_before,
                    RatingChange.sigma_before,
                    RatingChange.mu_after,
                    RatingChange.sigma_after,
                )
                .where(
                    RatingChange.guild_id == guild_id,
                    RatingChange.game == game,
                    RatingChange.user_id == user_id,
                )
                .order_by(RatingChange.created_at.desc(), RatingChange.game_id.desc())
                .limit(last)
            )
        ).all()
        trend = tuple(
            rating_number(ma, sa) - rating_number(mb, sb) for mb, sb, ma, sa in reversed(changes)
        )
        return PlayerRating(
            season,
            rating_number(row.mu, row.sigma),
            (ahead or 0) + 1,
            row.matches,
            trend,
            provisional,
            game,
        )


def _archived(season: Season) -> SeasonEnd:
    """An ended season's archive; entries archived before games were told apart (no "game")
    are classic."""
    standings: list[dict[str, Any]] = list(season.standings or [])
    by_game: dict[str, list[dict[str, Any]]] = {}
    for s in standings:
        by_game.setdefault(str(s.get("game", CLASSIC)), []).append(s)
    boards = tuple(
        (
            game,
            tuple(
                RatingEntry(
                    int(s["user_id"]),
                    str(s["name"]),
                    int(s["rating"]),
                    int(s["matches"]),
                    i,
                    bool(s.get("provisional", False)),
                )
                for i, s in enumerate(by_game[game], start=1)
            ),
        )
        for game in sorted(by_game, key=game_order)
    )
    return SeasonEnd(season.guild_id, season.number, season.last_channel_id, boards)
