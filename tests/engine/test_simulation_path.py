"""The simulation path (move codes, no events) is the same rules as the readable path."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Decision, Game, IllegalAction, RuleSet, legality
from bot.engine import move_codes as M
from tests.conftest import examples

from .test_properties import rule_sets


@settings(max_examples=examples(40))
@given(rules=rule_sets(), players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_moves_and_actions_are_one_query_and_one_state_machine(
    rules: RuleSet, players: int, seed: int
):
    ids = list(range(1, players + 1))
    if players * rules.hand_size >= 100:
        return
    readable = Game.new(ids, rules, seed=seed)
    fast = readable.copy()
    rng = random.Random(seed)
    for _ in range(300):
        if readable.outcome is not None:
            break
        player = rng.choice(ids)
        legal = readable.legal_actions(player)
        moves = fast.moves(player)
        assert [M.action_of(m, fast.seats, fast.dark) for m in moves] == legal
        if not legal:
            continue
        pick = rng.randrange(len(legal))
        readable.apply(player, legal[pick])
        fast.make_move(player, moves[pick])
        assert fast.to_dict() == readable.to_dict()


def test_a_move_not_offered_is_refused_and_changes_nothing():
    game = Game.new([1, 2], RuleSet(), seed=4)
    player = game.current_player
    before = game.to_dict()
    try:
        game.make_move(player, M.NEXT_ROUND)
    except IllegalAction:
        pass
    else:
        raise AssertionError("an illegal move was applied")
    assert game.to_dict() == before


def test_events_off_changes_the_state_alike():
    with_events = Game.new([1, 2, 3], RuleSet(), seed=8)
    without = with_events.copy()
    for _ in range(200):
        player = with_events.current_player
        if player is None:
            break
        action = with_events.legal_actions(player)[-1]
        assert with_events.apply(player, action)  # something happened
        assert without.apply(player, action, events=False) == []
    assert with_events.to_dict() == without.to_dict()


def _turn_moves_by_the_card(game: Game, player: int) -> list[int]:
    """A normal turn's moves built card by card from `playable_cards` (no remembered answers)."""
    plays = [card.face for card in game.playable_cards(player)]
    if game.card_count(player) == 2:
        plays += [face + M.PLAY_UNO for face in plays]
    if not plays:
        return [M.DRAW if game.can_draw() else M.PASS]
    return [*plays, M.DRAW] if game.can_draw() and game.rules.voluntary_draw else plays


@pytest.mark.parametrize(
    "rules", [RuleSet(), RuleSet(voluntary_draw=False)], ids=["official", "no_voluntary_draw"]
)
def test_remembered_turn_moves_are_the_rules_answer(monkeypatch, rules: RuleSet):
    # A tiny memory, emptied over and over, as a long-running bot's would be.
    monkeypatch.setattr(legality, "_KNOWN_LIMIT", 5)
    checked = holding_two = 0
    for seed in range(40):
        game = Game.new(list(range(1, 3 + seed % 3)), rules, seed=seed)
        rng = random.Random(seed)
        player = game.current_player
        while player is not None:
            moves = game.moves(player)
            assert isinstance(moves, tuple)  # shared between games: nobody may change it
            if game.decision is Decision.PLAY:
                expected = _turn_moves_by_the_card(game, player)
                assert list(moves)[: len(expected)] == expected
                checked += 1
                holding_two += game.card_count(player) == 2
            options = [m for m in moves if m < M.CALL_UNO or M.COLOR <= m < M.CATCH]
            player = game.make_move(player, rng.choice(options or list(moves)))
    assert checked > 1000 and holding_two > 50


@settings(max_examples=examples(40))
@given(rules=rule_sets(), players=st.integers(2, 6), seed=st.integers(0, 2**63 - 1))
def test_a_new_game_is_the_started_one_without_its_events(rules: RuleSet, players: int, seed: int):
    # `Game.new` deals without recording (simulations throw the events away); it must deal
    # exactly what `Game.start` deals, whatever the deck, the starter and the first player.
    ids = list(range(1, players + 1))
    if players * rules.hand_size >= 100:
        return
    started, events = Game.start(ids, rules, seed=seed)
    assert events
    assert Game.new(ids, rules, seed=seed).to_dict() == started.to_dict()
