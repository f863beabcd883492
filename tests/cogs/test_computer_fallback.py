"""Nothing leaves a game waiting on a computer: a bad stored level plays at the default level,
and a computer whose choice fails plays the engine's default move instead."""

from __future__ import annotations

from bot.engine import Game, RuleSet
from cogs.uno.game.computers import computer_choice
from cogs.uno.game.live import LiveGame

COMPUTER, PERSON = -1, 11


def _live(level: str) -> LiveGame:
    game, _ = Game.start([COMPUTER, PERSON], RuleSet(), seed=6, dealer=PERSON)
    return LiveGame(
        game_id=1,
        guild_id=2,
        channel_id=3,
        host_id=PERSON,
        game=game,
        names={COMPUTER: "Ada", PERSON: "Pat"},
        baseline=game.version,
        levels={COMPUTER: level},
    )


class _Broken:
    """A computer player whose thinking fails (a bug, or a bad snapshot)."""

    def choose(self, view: object) -> None:
        raise RuntimeError("the computer crashed")


def test_an_unknown_stored_level_plays_at_the_default_level() -> None:
    live = _live("godlike")
    assert live.game.current_player == COMPUTER
    action = computer_choice(live, COMPUTER)
    assert action in live.game.legal_actions(COMPUTER)


def test_a_failing_computer_plays_the_engines_default_move() -> None:
    live = _live("normal")
    live.computers[COMPUTER] = _Broken()
    action = computer_choice(live, COMPUTER)
    assert action == live.game.default_action(COMPUTER)
    live.game.apply(COMPUTER, action)  # and the game goes on
    assert live.game.current_player is not None
