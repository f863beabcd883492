"""Shuffles (`GameState.shuffle`): a permutation every time, every order equally likely, and the
same order again from the same seed and step (a resumed game deals as the original would)."""

from __future__ import annotations

import itertools
from collections import Counter

from bot.engine import Game


def test_a_shuffle_is_a_permutation_of_any_size() -> None:
    game = Game.new([1, 2], seed=3)
    for n in (0, 1, 2, 3, 108, 112, 256, 257, 600):
        items = list(range(n))
        game.shuffle(items)
        assert sorted(items) == list(range(n))


def test_every_order_is_equally_likely() -> None:
    game = Game.new([1, 2], seed=11)
    counts = Counter()
    rounds = 24_000
    for _ in range(rounds):
        items = [0, 1, 2, 3, 4]
        game.shuffle(items)
        counts[tuple(items)] += 1
    assert set(counts) == set(itertools.permutations(range(5)))
    expected = rounds / 120
    chi_square = sum((c - expected) ** 2 / expected for c in counts.values())
    # 119 degrees of freedom: 170 is beyond the 99.9th percentile (seeded: the same every run).
    assert chi_square < 170


def test_the_same_seed_and_step_shuffle_alike_and_the_next_step_differently() -> None:
    first, second = Game.new([1, 2], seed=5), Game.new([1, 2], seed=5)
    a, b = list(range(108)), list(range(108))
    first.shuffle(a)
    second.shuffle(b)
    assert a == b
    second.shuffle(b)
    assert a != b
