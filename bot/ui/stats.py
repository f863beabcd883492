"""The server's leaderboards (one per game: bot/engine/game_kinds.py) and one player's stats,
split by game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import discord

from bot.engine.game_kinds import CLASSIC
from bot.i18n import t
from bot.ui.names import literal


def game_name(game: str, locale: object = None) -> str:
    """A game as its players call it: "Classic UNO", "Show 'Em No Mercy", "UNO Flip"."""
    return t(f"game.{game}", locale)


class PlayerStats(Protocol):
    """What a stats page or leaderboard row shows (the store's PlayerStats has it all)."""

    @property
    def display_name(self) -> str: ...
    @property
    def rank(self) -> int | None: ...
    @property
    def points(self) -> int: ...
    @property
    def rounds_played(self) -> int: ...
    @property
    def rounds_won(self) -> int: ...
    @property
    def games_played(self) -> int: ...
    @property
    def games_won(self) -> int: ...
    @property
    def win_rate(self) -> float: ...
    @property
    def cards_played(self) -> int: ...
    @property
    def uno_calls(self) -> int: ...
    @property
    def catches(self) -> int: ...
    @property
    def challenges_won(self) -> int: ...
    @property
    def challenges_lost(self) -> int: ...


class LeaderboardPage(Protocol):
    """One page of a leaderboard (the store's LeaderboardPage)."""

    @property
    def sort(self) -> str: ...
    @property
    def game(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def pages(self) -> int: ...
    @property
    def entries(self) -> Sequence[PlayerStats]: ...


class RatingEntry(Protocol):
    """A row of a rating leaderboard (the store's RatingEntry)."""

    @property
    def display_name(self) -> str: ...
    @property
    def rank(self) -> int: ...
    @property
    def rating(self) -> int: ...
    @property
    def matches(self) -> int: ...
    @property
    def provisional(self) -> bool: ...


class RatingBoard(Protocol):
    """A page of a season's rating leaderboard (the store's RatingBoard)."""

    @property
    def season(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def pages(self) -> int: ...
    @property
    def ended(self) -> bool: ...
    @property
    def entries(self) -> Sequence[RatingEntry]: ...


class PlayerRating(Protocol):
    """A player's rating now (the store's PlayerRating)."""

    @property
    def season(self) -> int: ...
    @property
    def rating(self) -> int: ...
    @property
    def rank(self) -> int: ...
    @property
    def trend(self) -> Sequence[int]: ...
    @property
    def provisional(self) -> bool: ...


def render_leaderboard(board: LeaderboardPage, locale: object = None) -> discord.Embed:
    lines = []
    for entry in board.entries:
        # A player with no finished game (or round) yet says so, never "0/0 games won (0%)".
        if entry.games_played:
            key = "leaderboard.row"
        elif entry.rounds_played:
            key = "leaderboard.row_no_games"
        else:
            key = "leaderboard.row_new"
        lines.append(
            t(
                key,
                locale,
                rank=entry.rank,
                name=literal(entry.display_name),
                points=t("count.pts", locale, count=entry.points),
                wins=entry.games_won,
                rate=round(entry.win_rate * 100),
                count=entry.games_played if entry.games_played else entry.rounds_played,
                rounds=entry.rounds_played,
                rounds_won=entry.rounds_won,
            )
        )
    if not lines:
        lines.append(t("leaderboard.empty", locale))
    embed = discord.Embed(
        title=t("leaderboard.title", locale, sort=t(f"leaderboard.sort.{board.sort}", locale)),
        description="\n".join(lines)[:4096],
        colour=0xF1C40F,
    )
    embed.set_footer(text=t("leaderboard.footer", locale, page=board.page, pages=board.pages))
    embed.set_author(name=game_name(board.game, locale))
    return embed


def _rating_rows(entries: Sequence[RatingEntry], locale: object) -> list[str]:
    return [
        t(
            "leaderboard.rating_row_provisional" if e.provisional else "leaderboard.rating_row",
            locale,
            rank=e.rank,
            name=literal(e.display_name),
            rating=e.rating,
            matches=e.matches,
        )
        for e in entries
    ]


def champions(standings: Sequence[RatingEntry]) -> list[RatingEntry]:
    """A season's champions: the first of its standings and everyone who shares their rating
    (a tie at the top is a shared title; provisional ratings rank after established ones)."""
    if not standings:
        return []
    first = standings[0]
    return [e for e in standings if e.rating == first.rating and e.provisional == first.provisional]


def _names(entries: Sequence[RatingEntry]) -> str:
    return ", ".join(literal(e.display_name) for e in entries)


def render_rating_board(board: RatingBoard, locale: object = None) -> discord.Embed:
    """A season's rating leaderboard: the current one, or an ended season's champions and top
    ten."""
    lines = _rating_rows(board.entries, locale) or [t("leaderboard.empty", locale)]
    if board.ended:
        title = t("leaderboard.season_title", locale, season=board.season)
        if board.entries and board.page == 1:
            best = champions(board.entries)
            key = "leaderboard.champions" if len(best) > 1 else "leaderboard.champion"
            lines = [t(key, locale, name=_names(best)), "", *lines]
    else:
        title = t("leaderboard.title", locale, sort=t("leaderboard.sort.rating", locale))
    embed = discord.Embed(title=title, description="\n".join(lines)[:4096], colour=0xF1C40F)
    footer = t(
        "leaderboard.rating_footer", locale, season=board.season, page=board.page, pages=board.pages
    )
    embed.set_footer(text=footer)
    embed.set_author(name=game_name(board.game, locale))
    return embed


def render_season_end(
    season: int,
    boards: Sequence[tuple[str, Sequence[RatingEntry]]],
    locale: object = None,
) -> discord.Embed:
    """The announcement of an ended season: each game's champions and top ten (a game's name
    above them once more than one game, or another than the classic one, was rated), then
    the next season."""
    lines = []
    named = len(boards) > 1 or any(game != CLASSIC for game, _ in boards)
    for game, standings in boards:
        if not standings:
            continue
        best = champions(standings)
        key = "leaderboard.season_champions" if len(best) > 1 else "leaderboard.season_champion"
        if named:
            lines.append(f"__**{game_name(game, locale)}**__")
        lines += [
            t(key, locale, name=_names(best), rating=best[0].rating),
            "",
            *_rating_rows(standings, locale),
            "",
        ]
    lines.append(t("leaderboard.season_next", locale, season=season + 1))
    return discord.Embed(
        title=t("leaderboard.season_over", locale, season=season),
        description="\n".join(lines)[:4096],
        colour=0xF1C40F,
    )


def trend_text(trend: Sequence[int], locale: object = None) -> str:
    """The changes of a player's last rated matches, oldest first: "+32 · -8 · +15"."""
    if not trend:
        return t("stats.trend_none", locale)
    return " · ".join(f"{step:+d}" for step in trend)


#: One game of a player's stats: (game, their totals in it, their rating in it).
GameFigures = tuple[str, PlayerStats | None, PlayerRating | None]


def render_stats(
    stats: PlayerStats | None,
    name: str,
    locale: object = None,
    *,
    practice: int = 0,
    rating: PlayerRating | None = None,
    games: Sequence[GameFigures] = (),
) -> discord.Embed:
    """A player's counted figures, and their skill `rating` when they have one; their
    `practice` games (alone against computers, counted for nobody) on a line of their own,
    never mixed into them.

    `games`: the figures split by game (`stats` and `rating` are then unused). A player who
    only ever played the classic game sees them as before; one who played other games too sees
    one field per game, named, so a No Mercy rating never reads as a classic one."""
    if games and (len(games) > 1 or games[0][0] != CLASSIC):
        embed = discord.Embed(
            title=t("stats.title", locale, name=literal(name[:200])), colour=0x0956BF
        )
        if practice:
            embed.description = t("stats.practice", locale, games=practice)
        for game, figures, rated in games[:25]:
            embed.add_field(
                name=game_name(game, locale)[:256],
                value=_figures_text(figures, rated, locale, practice=0)[:1024],
                inline=False,
            )
        return embed
    if games:
        _, stats, rating = games[0]
    embed = discord.Embed(title=t("stats.title", locale, name=literal(name[:200])), colour=0x0956BF)
    embed.description = _figures_text(stats, rating, locale, practice=practice)
    return embed


def _figures_text(
    stats: PlayerStats | None,
    rating: PlayerRating | None,
    locale: object,
    *,
    practice: int,
) -> str:
    practice_line = t("stats.practice", locale, games=practice) if practice else ""
    if stats is None:
        # (a rating without points: a match rated but not counted, ended after a move)
        text = t("stats.none", locale)
        if practice:
            text = "\n".join([t("stats.only_practice", locale), practice_line])
    else:
        text = t(
            "stats.body",
            locale,
            rank=stats.rank or "-",
            points=t("count.points", locale, count=stats.points),
            games_line=_games_line(stats, locale),
            rounds=stats.rounds_played,
            rounds_won=stats.rounds_won,
            cards=stats.cards_played,
            unos=stats.uno_calls,
            catches=stats.catches,
            challenges_won=stats.challenges_won,
            challenges_lost=stats.challenges_lost,
        )
        if practice:
            text += "\n" + practice_line
    if rating is not None:
        text += "\n" + t(
            "stats.rating_provisional" if rating.provisional else "stats.rating",
            locale,
            rating=rating.rating,
            rank=rating.rank,
            season=rating.season,
            trend=trend_text(rating.trend, locale),
        )
    return text


def _games_line(stats: PlayerStats, locale: object) -> str:
    if not stats.games_played:
        return t("stats.games_none", locale)
    return t(
        "stats.games",
        locale,
        wins=stats.games_won,
        games=stats.games_played,
        rate=round(stats.win_rate * 100),
    )
