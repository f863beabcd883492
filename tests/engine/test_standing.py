"""A match's finishing order, from its outcome and its scoring."""

from __future__ import annotations

from bot.engine.rules import RuleSet
from bot.engine.scoring import Outcome, Termination
from bot.engine.standing import finishing_places


def test_points_won_rank_the_higher_total_first() -> None:
    outcome = Outcome(Termination.TARGET_REACHED, (1,), {1: 520, 2: 80, 3: 200, 4: 80})
    assert finishing_places(RuleSet(), outcome) == {1: 1, 3: 2, 2: 3, 4: 3}


def test_penalties_rank_the_lower_total_first() -> None:
    outcome = Outcome(Termination.TARGET_REACHED, (2,), {1: 510, 2: 40, 3: 90})
    assert finishing_places(RuleSet(scoring="penalty"), outcome) == {2: 1, 3: 2, 1: 3}


def test_shared_winners_share_first_place() -> None:
    outcome = Outcome(Termination.TARGET_REACHED, (1, 2), {1: 10, 2: 10, 3: 600})
    assert finishing_places(RuleSet(scoring="penalty"), outcome) == {1: 1, 2: 1, 3: 3}
