"""Typed errors of the store, so the Discord layer can turn each into a friendly reply.

Every error is a `StoreError`; the ones a player can cause by racing another click carry the ids
needed to explain what happened.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error raised by bot.store."""


class GameNotFound(StoreError, LookupError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class ChannelBusy(StoreError):
    """A channel already has an open (lobby or running) game."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has an open game ({game_id})")
        self.channel_id = channel_id
        self.game_id = game_id


class StaleVersion(StoreError):
    """Another writer saved this game first: the caller's state is stale; nothing was written."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id} is at version {actual}, not {expected}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class WrongStatus(StoreError):
    """The game is not in a status that allows this operation (e.g. joining a running game)."""

    def __init__(self, game_id: int, status: str, allowed: tuple[str, ...]) -> None:
        super().__init__(f"game {game_id} is {status}; needs {' or '.join(allowed)}")
        self.game_id = game_id
        self.status = status
        self.allowed = allowed


class AlreadySeated(StoreError):
    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(f"user {user_id} is already seated in game {game_id}")
        self.game_id = game_id
        self.user_id = user_id


class NotSeated(StoreError, LookupError):
    def __init__(self, game_id: int, user_id: int) -> None:
        super().__init__(f"user {user_id} has no seat in game {game_id}")
        self.game_id = game_id
        self.user_id = user_id


class TableFull(StoreError):
    def __init__(self, game_id: int, max_seats: int) -> None:
        super().__init__(f"game {game_id} already has {max_seats} players")
        self.game_id = game_id
        self.max_seats = max_seats


class StorageUnavailable(StoreError):
    """The database cannot be used now (unopenable, unwritable, or its file was deleted or
    replaced while the bot runs): nothing was saved, and the caller must not claim otherwise."""


class StorageBusy(StorageUnavailable):
    """The database refused this transaction for a passing reason (another writer holds the lock,
    a deadlock or serialization failure, a lost connection): nothing was saved; trying again in
    a moment may work."""
