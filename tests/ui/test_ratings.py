"""Ratings in messages: a match's changes, the rating leaderboard, a season's end, a trend."""

from __future__ import annotations

from bot.store.rating_model import RatingBoard, RatingEntry
from bot.ui.stats import render_rating_board, render_season_end, trend_text
from bot.ui.table_message import rating_changes_line
from testing.fakediscord.markdown import plain

NAMES = {1: "Ana", 2: "Ben", 3: "Cy"}
ENTRIES = (RatingEntry(1, "Ana", 1130, 3, 1), RatingEntry(2, "Ben", 980, 3, 2))


def test_a_matchs_changes_best_rating_first_with_signs() -> None:
    line = plain(rating_changes_line({2: (1000, 976), 1: (1000, 1130)}, NAMES))
    assert line.index("Ana 1,130 (+130)") < line.index("Ben 976 (-24)")


def test_the_rating_leaderboard_and_an_ended_seasons_champion() -> None:
    current = render_rating_board(RatingBoard(2, 1, 10, 2, ENTRIES))
    assert "1,130" in (current.description or "") and "season 2" in (current.footer.text or "")
    ended = render_rating_board(RatingBoard(1, 1, 10, 2, ENTRIES, ended=True))
    assert "Champion: **Ana**" in plain(ended.description or "")
    assert "Season 1" in (ended.title or "")


def test_a_season_end_names_its_champion_and_the_next_season() -> None:
    embed = render_season_end(4, ENTRIES)
    assert "Season 4" in (embed.title or "")
    assert "**Ana**" in plain(embed.description or "") and "Season 5" in (embed.description or "")


def test_a_trend() -> None:
    assert trend_text((32, -8, 15)) == "+32 · -8 · +15"
    assert trend_text(()) == "none yet"
