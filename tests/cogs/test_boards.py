"""Public leaderboards: a board posted in a channel stays the one to refresh for a few minutes."""

from __future__ import annotations

from typing import Any

from cogs.uno.boards import PublicBoards


def test_a_posted_board_is_recent_for_its_channel_game_sort_and_page_only() -> None:
    now = [1000.0]
    boards = PublicBoards(Any, fresh_for=300, clock=lambda: now[0])
    assert boards.recent(1, "classic", "points", 1) is None
    boards._remember(1, "classic", "points", 1, 77)
    assert boards.recent(1, "classic", "points", 1).message_id == 77
    assert boards.recent(1, "classic", "wins", 1) is None
    assert boards.recent(1, "classic", "points", 2) is None
    assert boards.recent(2, "classic", "points", 1) is None
    now[0] += 300
    assert boards.recent(1, "classic", "points", 1) is not None
    now[0] += 1
    assert boards.recent(1, "classic", "points", 1) is None
    boards._remember(3, "classic", "wins", 1, 78)  # the stale one is forgotten
    assert list(boards._posted) == [(3, "classic", "wins", 1)]
    boards._remember(3, "no_mercy", "wins", 1, 79)  # another game's board is its own
    assert boards.recent(3, "classic", "wins", 1).message_id == 78
