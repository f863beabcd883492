"""The server's leaderboard and one player's stats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import discord

from bot.i18n import t
from bot.ui.names import literal


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
    def page(self) -> int: ...
    @property
    def pages(self) -> int: ...
    @property
    def entries(self) -> Sequence[PlayerStats]: ...


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
    return embed


def render_stats(
    stats: PlayerStats | None, name: str, locale: object = None, *, practice: int = 0
) -> discord.Embed:
    """A player's counted figures; their `practice` games (alone against computers, counted
    for nobody) on a line of their own, never mixed into them."""
    embed = discord.Embed(title=t("stats.title", locale, name=literal(name[:200])), colour=0x0956BF)
    practice_line = t("stats.practice", locale, games=practice) if practice else ""
    if stats is None:
        embed.description = t("stats.none", locale)
        if practice:
            embed.description = "\n".join([t("stats.only_practice", locale), practice_line])
        return embed
    embed.description = t(
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
        embed.description += "\n" + practice_line
    return embed


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
