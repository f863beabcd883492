"""The expert computer player: legal, blind to hidden cards, free on forced moves, and its
determinized tables agree with everything it may know."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Card, Color, Game, Rank, RuleSet
from bot.engine import actions as A
from bot.engine.cards import build_deck
from bot.engine.determinize import sample_game
from bot.engine.search import ExpertPlayer, playout
from bot.engine.values import PLAYERS, coarse_value, value
from bot.engine.view import view_for
from tests.conftest import examples

from .scenario import deal
from .test_properties import rule_sets


def _expert(seed: int) -> ExpertPlayer:
    # A sample budget instead of a time budget: the same choices on any machine.
    return ExpertPlayer(budget=60.0, max_samples=4, rng=random.Random(seed))


@settings(max_examples=examples(25))
@given(rules=rule_sets(), players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_the_expert_only_chooses_legal_actions(rules: RuleSet, players: int, seed: int):
    ids = list(range(1, players + 1))
    if players * rules.hand_size >= 100:
        return
    game = Game.new(ids, rules.with_options(false_catch_penalty=0), seed=seed)
    expert = _expert(seed)
    for _ in range(60):
        if game.round_over:
            break
        current = game.current_player
        view = view_for(game, current)
        action = expert.choose(view)
        assert action in view.legal, (action, view.legal)
        game.apply(current, action)


def test_a_sampled_table_keeps_what_the_player_knows_and_deals_the_rest():
    game = Game.new([1, 2, 3], RuleSet(), seed=11)
    for _ in range(15):  # some play first, so the discard pile holds something
        player = game.current_player
        game.apply(player, game.legal_actions(player)[0])
    me = game.current_player
    view = view_for(game, me)
    sample = sample_game(view, random.Random(3))
    assert sample is not None
    assert sample.hand(me) == list(view.hand)
    assert sample.discard == game.discard and sample.color == game.color
    assert {p: sample.card_count(p) for p in sample.seats} == {
        p: game.card_count(p) for p in game.seats
    }
    every_card = [c for p in sample.seats for c in sample.hand(p)]
    every_card += sample.draw_pile + sample.discard
    assert Counter(every_card) == Counter(build_deck("classic108"))
    assert sample.legal_actions(me) == game.legal_actions(me)


def test_the_expert_does_not_peek_at_hidden_cards():
    """Two games that differ only in cards the expert cannot see get the same decision."""
    game = Game.new([1, 2], RuleSet(), seed=21)
    me = game.current_player
    other = next(p for p in game.seats if p != me)
    twin = Game.from_dict(game.to_dict())
    # Trade one of the opponent's cards for a different one from the draw pile.
    theirs = twin.hand(other)
    pile = twin.draw_pile
    swap_in = next(c for c in pile if c not in theirs)
    theirs[theirs.index(theirs[0])] = swap_in
    pile.remove(swap_in)
    pile.append(twin.hand(other)[0])
    twin.hands[other] = theirs
    twin.draw_pile = pile
    assert twin.hand(other) != game.hand(other)
    assert view_for(twin, me) == view_for(game, me)
    assert _expert(5).choose(view_for(twin, me)) == _expert(5).choose(view_for(game, me))


def test_a_forced_decision_costs_no_search():
    game = deal([1, 2], {1: "R1 G2", 2: "B1 B2"}, "Y5", "W G1 G3")  # nothing to play: draw
    expert = _expert(1)
    assert expert.choose(view_for(game, 1)) == A.DRAW
    assert expert.last_samples == 0


def test_the_expert_searches_a_real_choice():
    game = deal([1, 2], {1: "R1 R7 W", 2: "B1 B2 B3"}, "R5", "G1 G3 G4")
    expert = _expert(1)
    action = expert.choose(view_for(game, 1))
    assert action in game.legal_actions(1)
    assert expert.last_samples == 4


def test_the_expert_calls_uno_and_catches():
    game = deal([1, 2, 3], {1: "R1 R2", 2: "B1 B2", 3: "G1 G2"}, "R5", "G3 G4 G5")
    game.apply(1, A.Play(game.hand(1)[0]))  # no UNO call
    assert _expert(1).choose(view_for(game, 3)) == A.Catch(1)
    assert _expert(1).choose(view_for(game, 1)) == A.CALL_UNO


def test_samples_mostly_believe_a_wild_draw_four_was_no_bluff():
    game = deal([1, 2], {1: "W4 G1 G2 G3 G4", 2: "R1 R2 R3 B4 B5"}, "Y9", "Y1 Y2 Y3 Y4 " * 6)
    game.apply(1, A.Play(game.hand(1)[-1]))  # the Wild Draw Four (last: wilds sort last)
    game.apply(1, A.ChooseColor(Color.GREEN))
    view = view_for(game, 2)
    assert view.wd4_offender == 1
    rng = random.Random(9)
    samples = [sample_game(view, rng) for _ in range(200)]
    clean = sum(all(c.color != view.wd4_color_before for c in s.hand(1)) for s in samples if s)
    assert 0.75 <= clean / 200 <= 0.95  # BLUFF_BELIEF of them may hold the colour before


def test_a_player_who_drew_is_sampled_without_what_they_could_have_played():
    game = deal([1, 2], {1: "B1 B2 B3", 2: "R7 G1 G2"}, "Y5", "Y1 " * 10 + "G3 G4")
    game.apply(1, A.DRAW)  # player 1 shows they had nothing for a yellow 5
    if game.current_player == 1:  # (the drawn card was playable: keep it)
        game.apply(1, A.KEEP)
    view = view_for(game, 2)
    assert [(p, n) for p, _, n in view.voids] == [(1, 3)]
    rng = random.Random(4)
    for _ in range(50):
        sample = sample_game(view, rng)
        assert sample is not None
        old_cards = sample.hand(1)
        playable_then = [c for c in old_cards if c.color is Color.YELLOW or c.is_wild]
        assert len(playable_then) <= 1  # only the card drawn since may be one of them


def test_the_budget_is_counted_in_playouts_not_seconds():
    """The same seed gives the same search on any machine: the clock only caps it."""
    game = deal([1, 2], {1: "R1 R7 W", 2: "B1 B2 B3"}, "R5", "G1 G3 G4 " * 5)
    first = ExpertPlayer(playouts=60, budget=60.0, rng=random.Random(3))
    second = ExpertPlayer(playouts=60, budget=60.0, rng=random.Random(3))
    assert first.choose(view_for(game, 1)) == second.choose(view_for(game, 1))
    assert first.last_samples == second.last_samples == 60 // 4  # R1, R7, W or a draw
    capped = ExpertPlayer(playouts=60, budget=0.0, rng=random.Random(3))
    capped.choose(view_for(game, 1))
    assert capped.last_samples == 1  # a spent time cap still leaves one sample


def test_a_playout_cut_short_scores_the_chance_to_win_from_there():
    game = deal([1, 2], {1: "R1 R2 R3", 2: "B1 B2 B3"}, "R5", "G1 G3 G4 " * 5)
    cut = playout(game.copy(), 1, random.Random(1), horizon=0)
    assert cut == value(2, 3, 3, True, my_wilds=0, their_wilds=0)
    played = playout(game.copy(), 1, random.Random(1))
    assert played in (0.0, 1.0)


def test_the_value_table_favours_fewer_cards_and_the_move():
    assert (
        coarse_value(2, 2, 6, False) > coarse_value(2, 6, 6, False) > coarse_value(2, 6, 2, False)
    )
    assert coarse_value(2, 5, 5, moving=True) > coarse_value(2, 5, 5, moving=False)
    for players in PLAYERS:
        assert 0.0 < coarse_value(players, 7, 7, moving=True) < 1.0


def test_the_value_table_favours_wilds_in_my_hand_not_in_theirs():
    for players in PLAYERS:
        plain = value(players, 3, 3, True, my_wilds=0, their_wilds=0)
        assert value(players, 3, 3, True, my_wilds=1, their_wilds=0) > plain
        assert value(players, 3, 3, True, my_wilds=0, their_wilds=1) < plain
        assert 0.0 < value(players, 7, 7, True, my_wilds=2, their_wilds=0) < 1.0


def test_samples_believe_a_plain_wild_was_the_only_play_and_named_the_colour_held_most():
    game = deal([1, 2], {1: "W R1 B1 B2 B3 Y4", 2: "G1 G2 G7 R5 Y5 Y6"}, "G5", "Y1 Y2 Y3 " * 8)
    first = game.current_player
    assert first == 1  # the dealer is the last seat: player 1 moves first
    game.apply(1, A.Play(Card.of("W")))  # on a green 5: no green card, no five
    game.apply(1, A.ChooseColor(Color.BLUE))
    view = view_for(game, 2)
    rng = random.Random(5)
    samples = [sample_game(view, rng) for _ in range(200)]
    hands = [s.hand(1) for s in samples if s is not None]
    clean = sum(
        all(c.color is not Color.GREEN and c.rank is not Rank.FIVE for c in h) for h in hands
    )
    assert clean / len(hands) >= 0.85  # only a few (PLAY_DOUBT) may ignore the wild
    blue_most = sum(
        all(sum(c.color is Color.BLUE for c in h) >= sum(c.color is k for c in h) for k in Color)
        for h in hands
    )
    assert blue_most / len(hands) >= 0.7


def test_samples_believe_the_last_card_was_the_careful_choice():
    game = deal([1, 2], {1: "R3 G1 G2 B4 B6 Y7 Y8", 2: "G3 G4 G5 B1 B2 Y1 Y2"}, "R5", "Y3 " * 20)
    game.apply(1, A.Play(Card.of("R3")))
    view = view_for(game, 2)
    rng = random.Random(6)
    hands = [s.hand(1) for s in (sample_game(view, rng) for _ in range(300)) if s is not None]
    # A careful player holding a red action card would have played it (it buys a turn); about a
    # third of random hands of six hold one.
    actions = (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO)
    red_action = sum(any(c.color is Color.RED and c.rank in actions for c in h) for h in hands)
    assert red_action / len(hands) <= 0.15
