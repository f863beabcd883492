"""The games the engine plays, as players tell them apart: classic UNO, Show 'Em No Mercy and
(once its preset exists) UNO Flip. A match's game is derived from the deck its rules use, so it
cannot disagree with the rules it was played by; ratings, leaderboards and statistics are kept
per game (a No Mercy rating is not a classic one), and each game has its own player range.

A new game is one entry in `_KINDS` (its key, its preset, its players, the options that mean
nothing with its deck); it is offered as soon as the engine has its preset (`PRESETS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .rules import CHOICES, PRESETS, RuleSet

CLASSIC: Final = "classic"


@dataclass(frozen=True, slots=True)
class GameKind:
    """One game: `key` (stored with every match, in ids and commands), the preset that sets
    it up, how many may play it (its rule sheet), and the rule options its deck makes
    meaningless (hidden in the lobby's panel, refused by `/uno setrule`)."""

    key: str
    preset: str
    min_players: int
    max_players: int
    unused_options: tuple[str, ...] = ()


#: Every game the bot knows, in the order they are offered (classic first: the default).
_KINDS: Final = (
    GameKind(CLASSIC, "official", 2, 10),
    # Show 'Em No Mercy (HWV18): 2-6 players; its 168 cards have no Wild Draw Four and none of
    # the 112-card decks' special wilds.
    GameKind(
        "no_mercy",
        "no_mercy",
        2,
        6,
        (
            "wd4_rule",
            "wd4_challenge",
            "challenge_guilty",
            "challenge_fail_draw",
            "deflect_wd4",
            "last_card_swap",
            "last_card_shuffle",
            "custom_effect",
        ),
    ),
    # UNO Flip (GDR44): 2-10 players; its decks have no Draw Two and no Wild Draw Four, so the
    # German deflections of those mean nothing in it.
    GameKind(
        "flip",
        "flip",
        2,
        10,
        (
            "last_card_swap",
            "last_card_shuffle",
            "custom_effect",
            "deflect_d2",
            "deflect_wd4",
        ),
    ),
)


def game_kinds() -> tuple[GameKind, ...]:
    """The games on offer: those whose preset the engine has."""
    return tuple(kind for kind in _KINDS if kind.preset in PRESETS)


def game_keys() -> tuple[str, ...]:
    return tuple(kind.key for kind in game_kinds())


def game_order(key: str) -> tuple[int, str]:
    """Sorts games as they are offered; one the engine no longer offers last."""
    keys = game_keys()
    return (keys.index(key) if key in keys else len(keys), key)


def game_kind(key: str) -> GameKind | None:
    """The game of this key, or None if the engine does not offer it (a forged choice)."""
    return next((kind for kind in game_kinds() if kind.key == key), None)


def _deck(kind: GameKind) -> str:
    return PRESETS[kind.preset].deck


def game_of(rules: RuleSet) -> str:
    """The game these rules play: the one whose preset deals the same deck; classic for every
    deck no other game claims (the classic deck and its 112-card variants)."""
    for kind in game_kinds():
        if kind.key != CLASSIC and _deck(kind) == rules.deck:
            return kind.key
    return CLASSIC


def decks_of(key: str) -> tuple[str, ...]:
    """The decks a game may be played with (its own; classic: every deck no other claims)."""
    claimed = {_deck(kind) for kind in game_kinds() if kind.key != CLASSIC}
    kind = game_kind(key)
    if kind is None:
        return ()
    if kind.key != CLASSIC:
        return (_deck(kind),)
    return tuple(deck for deck in CHOICES["deck"] if deck not in claimed)


def player_range(key: str) -> tuple[int, int]:
    """(fewest, most) players of a game; an unknown key gets the classic range."""
    kind = game_kind(key) or _KINDS[0]
    return kind.min_players, kind.max_players


def unused_options(key: str) -> tuple[str, ...]:
    kind = game_kind(key)
    return kind.unused_options if kind is not None else ()
