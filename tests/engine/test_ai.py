"""Computer players: always legal, decide from their own view only, and play well."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Card, Game, RuleSet
from bot.engine import actions as A
from bot.engine.ai import HeuristicPlayer, RandomPlayer, best_color, make_player
from bot.engine.view import view_for
from tests.conftest import examples

from .scenario import color, deal, play
from .test_properties import rule_sets

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from ai_strength import play_round


@settings(max_examples=examples(60))
@given(rules=rule_sets(), players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_every_level_only_chooses_legal_actions(rules: RuleSet, players: int, seed: int):
    ids = list(range(1, players + 1))
    if players * rules.hand_size >= 100:
        return
    game = Game.new(ids, rules.with_options(false_catch_penalty=0), seed=seed)
    rng = random.Random(seed)
    kinds = ["random", "easy", "normal", "hard"]
    bots = {p: make_player(rng.choice(kinds), seed=seed + p) for p in ids}
    for _ in range(400):
        if game.round_over:
            break
        for pid, bot in bots.items():
            view = view_for(game, pid)
            action = bot.choose(view)
            if action is not None:
                assert action in view.legal, (action, view.legal)
        current = game.current_player
        game.apply(current, bots[current].choose(view_for(game, current)))


def test_heuristic_beats_random_clearly():
    wins = 0
    for i in range(400):
        a, b = (1, 2) if i % 2 == 0 else (2, 1)
        players = {a: make_player("hard", seed=i), b: make_player("random", seed=i + 10_000)}
        game = Game.new([1, 2], RuleSet(scoring="none"), seed=i, dealer=2)
        wins += play_round(game, players) == a
    assert wins / 400 >= 0.65


def test_heuristic_calls_uno_with_its_next_to_last_card():
    game = deal([1, 2], {1: "R1 R2", 2: "B1 B2"}, "R5", "G1 G2 G3")
    action = HeuristicPlayer("hard").choose(view_for(game, 1))
    assert isinstance(action, A.Play) and action.uno


def test_heuristic_catches_a_player_who_forgot_uno():
    game = deal([1, 2, 3], {1: "R1 R2", 2: "B1 B2", 3: "G1 G2"}, "R5", "G3 G4 G5")
    game.apply(1, play("R1"))  # no UNO call
    assert HeuristicPlayer("hard").choose(view_for(game, 3)) == A.Catch(1)
    assert RandomPlayer().choose(view_for(game, 3)) is None  # random never acts out of turn


def test_heuristic_names_its_strongest_colour():
    game = deal([1, 2], {1: "W G1 G2 B3", 2: "Y1 Y2 Y3 Y4"}, "R5", "R1 R2 R3")
    game.apply(1, play("W"))
    assert HeuristicPlayer("hard").choose(view_for(game, 1)) == A.ChooseColor(
        best_color([Card.of("G1"), Card.of("G2"), Card.of("B3")])
    )


def test_heuristic_challenges_a_likely_bluff_and_accepts_an_unlikely_one():
    many = deal([1, 2], {1: "W4 Y1 Y2 Y3 Y4 Y5 Y6", 2: "B1 B2 B3 B4 B5 B6 B7"}, "Y9", "G1 " * 12)
    many.apply(1, play("W4"))
    many.apply(1, color("B"))
    assert HeuristicPlayer("hard").choose(view_for(many, 2)) == A.CHALLENGE
    # The offender kept one card and we hold six of the colour before: a bluff is unlikely.
    few = deal([1, 2], {1: "W4 G1 G2 G3 G4 G5 G6", 2: "Y1 Y2 Y3 Y4 Y5 Y6 B1"}, "Y9", "G7 " * 8)
    few.apply(1, play("W4"))
    few.apply(1, color("G"))
    view = view_for(few, 2)
    one_card = tuple(replace(s, cards=1) if s.player == 1 else s for s in view.seats)
    assert HeuristicPlayer("hard").choose(replace(view, seats=one_card)) == A.ACCEPT


def test_the_view_hides_other_hands():
    game = Game.new([1, 2, 3], seed=5)
    view = view_for(game, 2)
    assert view.hand == tuple(sorted(game.hands[2]))
    assert not hasattr(view, "hands")
    assert {s.player: s.cards for s in view.seats} == {p: len(h) for p, h in game.hands.items()}


def test_unknown_level_is_refused():
    with pytest.raises(ValueError):
        make_player("grandmaster")
