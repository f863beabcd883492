"""Typed errors of `Game.apply`. Each leaves the game exactly as it was.

`key` names the message in the bot's catalogue and `params` fills it, so callers translate errors
without parsing text.
"""

from __future__ import annotations


class GameError(Exception):
    key = "error"

    def __init__(self, key: str | None = None, **params: object) -> None:
        self.key = key or type(self).key
        self.params = params
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        super().__init__(self.key + (f" ({detail})" if detail else ""))


class NotInGame(GameError):
    """The player has no seat in this game (or has left it)."""

    key = "not_in_game"


class NotYourTurn(GameError):
    """Another player has to decide now."""

    key = "not_your_turn"


class IllegalAction(GameError, ValueError):
    """The action breaks a rule right now (an unplayable card, a draw after drawing, ...)."""

    key = "illegal_action"


class GameOver(GameError):
    key = "game_over"
