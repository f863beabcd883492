"""What a running game remembers between two changes (its players' views, its last moves as
told per language) is never shown once the game has moved on: a hand drawn after a change
shows that change, in its reader's language."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.engine import Game, RuleSet, view_for
from bot.store import GameRecord, GameStatus, SeatRecord
from cogs.uno.game.hand_view import hand_message, recent_lines
from cogs.uno.game.live import LiveGame

ALICE, BOB = 11, 22
NAMES = {ALICE: "Alice", BOB: "Bob"}


def _live() -> LiveGame:
    game, events = Game.start([ALICE, BOB], RuleSet(), seed=3, dealer=BOB)
    live = LiveGame(1, 2, 3, ALICE, game, dict(NAMES), baseline=game.version)
    live.recent.append((tuple(events), None, 0))
    return live


def _move(live: LiveGame) -> None:
    """The current player's default move, applied to a copy that becomes the state (as the
    game's owner does) and told to the last moves."""
    draft = live.game.copy()
    player = draft.current_player
    assert player is not None
    action = draft.default_action(player)
    assert action is not None
    live.recent.append((tuple(draft.apply(player, action)), None, 0))
    live.game = draft


def test_the_views_follow_the_game() -> None:
    live = _live()
    before = live.view(ALICE)
    assert live.view(ALICE) is before  # asked again for the same state: the same answer
    _move(live)
    assert live.view(ALICE) == view_for(live.game, ALICE) != before
    # A move applied to the state in place (a test's set-up does) is seen too.
    player = live.game.current_player
    assert player is not None
    action = live.game.default_action(player)
    assert action is not None
    live.game.apply(player, action)
    assert live.view(None) == view_for(live.game, None)
    assert live.view(ALICE) == view_for(live.game, ALICE)


def test_the_last_moves_are_told_again_after_each_change_in_each_language() -> None:
    live = _live()
    english, german = recent_lines(live, "en"), recent_lines(live, "de")
    assert english != german  # each reader's own language, not the first one asked
    _move(live)
    told = recent_lines(live, "en")
    assert told != english and "Alice" in told[-1]
    assert recent_lines(live, "de") != german


def test_a_hand_shows_the_latest_move() -> None:
    live = _live()
    hand_message(live, BOB, "en")  # drawn (and remembered) before the move
    _move(live)
    shown = hand_message(live, BOB, "en").embeds[0].description or ""
    assert recent_lines(live, "en")[-1] in shown
    assert live.recent.lines(live.names, "en", 2) is recent_lines(live, "en")


def test_a_reload_tells_the_names_it_brings() -> None:
    live = _live()
    _move(live)
    assert any("Alice" in line for line in recent_lines(live, "en"))
    now = datetime.now(UTC)
    seats = tuple(
        SeatRecord(user, "Alicia" if user == ALICE else name, n, False, None, now)
        for n, (user, name) in enumerate(NAMES.items())
    )
    record = GameRecord(
        1, 2, 3, ALICE, GameStatus.RUNNING, {}, live.game.version, None, now, now, None,
        None, None, None, seats,
    )  # fmt: skip
    live.reload(record, live.game.copy())
    assert any("Alicia" in line for line in recent_lines(live, "en"))
