"""Snapshots of every format load: a game saved by an older bot resumes after an upgrade.

`snapshots/snapshot_format1.json` was written by the format-1 engine (commit ec98719): a 3-player
party-rules game 40 moves in, with the random generator's whole state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.engine import Card, Game, GameError, RuleSet
from bot.engine.snapshot import FORMAT_VERSION

OLD = json.loads((Path(__file__).parent / "snapshots" / "snapshot_format1.json").read_text())


def _play(game: Game, moves: int) -> Game:
    for _ in range(moves):
        player = game.current_player
        if player is None:
            break
        game.apply(player, game.legal_actions(player)[-1])
    return game


def test_a_format_1_snapshot_loads_with_everything_it_held() -> None:
    game = Game.from_dict(OLD)
    assert game.version == OLD["version"] == 40
    # A hand has no order (counts per face): the same cards, listed sorted.
    assert {str(p): [c.code for c in h] for p, h in game.hands.items()} == {
        p: [c.code for c in sorted(Card.of(code) for code in h)] for p, h in OLD["hands"].items()
    }
    assert [c.code for c in game.draw_pile] == OLD["draw_pile"]
    assert game.rules == RuleSet.from_dict(OLD["rules"])
    again = game.to_dict()
    assert again["format"] == FORMAT_VERSION and "rng" not in again


def test_a_resumed_format_1_game_plays_on_deterministically() -> None:
    first, second = _play(Game.from_dict(OLD), 300), _play(Game.from_dict(OLD), 300)
    assert first == second
    assert first.version > 40  # it went on, reshuffles and all


def test_the_snapshot_stores_a_seed_not_a_generator() -> None:
    game = _play(Game.new([1, 2, 3, 4], RuleSet(), seed=9), 30)
    data = game.to_dict()
    assert isinstance(data["seed"], int) and isinstance(data["random_steps"], int)
    assert len(json.dumps(data)) < len(json.dumps(OLD)) - 2500
    resumed = Game.from_dict(json.loads(json.dumps(data)))
    assert _play(resumed, 200) == _play(game, 200)


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(GameError):
        Game.from_dict({**OLD, "format": 99})
