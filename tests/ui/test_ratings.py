"""Ratings in messages: a match's changes, the rating leaderboard, a season's end, a trend."""

from __future__ import annotations

from bot.store.rating_model import RatingBoard, RatingEntry
from bot.ui.stats import champions, render_rating_board, render_season_end, trend_text
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
    embed = render_season_end(4, [("classic", ENTRIES)])
    assert "Season 4" in (embed.title or "")
    assert "**Ana**" in plain(embed.description or "") and "Season 5" in (embed.description or "")


def test_a_trend() -> None:
    assert trend_text((32, -8, 15)) == "+32 · -8 · +15"
    assert trend_text(()) == "none yet"


def test_a_newcomer_is_shown_as_provisional_not_as_a_first_loss() -> None:
    line = plain(rating_changes_line({2: (1000, 936), 1: (1080, 1120)}, NAMES, provisional={2}))
    assert "Ben provisional" in line and "936" not in line and "-64" not in line
    assert line.index("Ana 1,120 (+40)") < line.index("Ben provisional")


def test_provisional_ratings_are_marked_on_the_board() -> None:
    board = (RatingEntry(1, "Ana", 1130, 9, 1), RatingEntry(2, "Ben", 1200, 2, 2, True))
    text = plain(render_rating_board(RatingBoard(1, 1, 10, 2, board)).description or "")
    assert "Ben — **1,200** · provisional" in text and "Ana — **1,130** · rated" in text


def test_a_tie_at_the_top_makes_shared_champions() -> None:
    tied = (
        RatingEntry(1, "Ana", 1138, 1, 1, True),
        RatingEntry(2, "Ben", 1138, 1, 2, True),
        RatingEntry(3, "Cy", 927, 1, 3, True),
    )
    assert [e.user_id for e in champions(tied)] == [1, 2]
    announced = plain(render_season_end(1, [("classic", tied)]).description or "")
    assert "Champions, tied at a rating of **1,138**: **Ana, Ben**!" in announced
    archive = plain(
        render_rating_board(RatingBoard(1, 1, 10, 3, tied, ended=True)).description or ""
    )
    assert "Champions, tied: **Ana, Ben**" in archive
    # An established rating outranks a provisional one of the same number: one champion.
    mixed = (RatingEntry(1, "Ana", 1138, 9, 1), RatingEntry(2, "Ben", 1138, 1, 2, True))
    assert [e.user_id for e in champions(mixed)] == [1]
