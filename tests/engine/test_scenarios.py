"""RULES.md section 9: every edge case as its own test, named after its number.

Each test deals an exact situation (tests/engine/scenario.py), plays it through the public API
(`legal_actions`, `apply`) and checks the resulting state: whose turn, hand sizes, who drew,
top card, colour, direction and events. Cases where the engine disagrees with RULES.md are kept
out of this file until the engine is fixed.
"""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine import (
    Card,
    Color,
    Decision,
    IllegalAction,
    NotYourTurn,
    RoundEnd,
    Termination,
)
from bot.engine import actions as A
from bot.engine import events as E

from .scenario import cards, codes, color, deal, drawn_by, of_type, play, sizes, sorted_codes, start

R, Y, G, B = Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE
P3 = [1, 2, 3]


def assert_rejected(game, player, action, error=IllegalAction):
    """The action raises `error` and leaves the game exactly as it was."""
    before = game.to_dict()
    with pytest.raises(error):
        game.apply(player, action)
    assert game.to_dict() == before


def assert_turn(game, player, decision=Decision.PLAY):
    assert game.current_player == player
    assert game.decision is decision


# ------------------------------------------------------------------ two players


def test_01_two_players_reverse_player_plays_again():
    game = deal([1, 2], {1: "RR G1 G2", 2: "B1 B2 B3"}, "R5", "Y1 Y2")
    ev = game.apply(1, play("RR"))
    assert ev == [
        E.CardPlayed(1, Card.of("RR")),
        E.DirectionChanged(-1),
        E.TurnSkipped(2),
    ]
    assert_turn(game, 1)
    assert game.direction == -1
    assert game.top_card == Card.of("RR") and game.color is R
    assert sizes(game) == {1: 2, 2: 3}


def test_02_two_players_skip_player_plays_again():
    game = deal([1, 2], {1: "RS G1 G2", 2: "B1 B2 B3"}, "R5", "Y1 Y2")
    ev = game.apply(1, play("RS"))
    assert ev == [E.CardPlayed(1, Card.of("RS")), E.TurnSkipped(2)]
    assert_turn(game, 1)
    assert game.direction == 1
    assert sizes(game) == {1: 2, 2: 3}


def test_03_two_players_accepted_draw_two_player_plays_again():
    game = deal([1, 2], {1: "RD G1 G2", 2: "B1 B2 B3"}, "R5", "Y1 Y2 Y3")
    ev = game.apply(1, play("RD"))
    assert drawn_by(ev) == {2: 2}
    assert of_type(ev, E.PenaltyAccepted) == [E.PenaltyAccepted(2, 2)]
    assert of_type(ev, E.TurnSkipped) == [E.TurnSkipped(2)]
    assert_turn(game, 1)
    assert sizes(game) == {1: 2, 2: 5}
    assert sorted_codes(game.hand(2)) == ["B1", "B2", "B3", "Y1", "Y2"]


def test_03_two_players_accepted_wd4_player_plays_again():
    game = deal([1, 2], {1: "W4 G1 G2", 2: "B1 B2 B3"}, "R5", "Y1 Y2 Y3 Y4 Y5")
    game.apply(1, play("W4"))
    game.apply(1, color("B"))
    assert_turn(game, 2, Decision.RESPOND)
    assert set(game.legal_actions(2)) == {A.ACCEPT, A.CHALLENGE}
    ev = game.apply(2, A.ACCEPT)
    assert drawn_by(ev) == {2: 4}
    assert of_type(ev, E.TurnSkipped) == [E.TurnSkipped(2)]
    assert_turn(game, 1)
    assert game.top_card == Card.of("W4") and game.color is B
    assert sizes(game) == {1: 2, 2: 7}


# ------------------------------------------------------------------ three or more players


def test_04_three_plus_players_reverse_previous_player_acts_next():
    game = deal(
        [1, 2, 3, 4],
        {1: "R3 G1", 2: "RR G2", 3: "B1 B2", 4: "Y1 Y2"},
        "R5",
        "Y3 Y4",
    )
    game.apply(1, play("R3"))
    assert_turn(game, 2)
    ev = game.apply(2, play("RR"))
    assert ev == [E.CardPlayed(2, Card.of("RR")), E.DirectionChanged(-1)]
    assert game.direction == -1
    assert_turn(game, 1)
    # and play goes on counter-clockwise: 1 -> 4
    game.apply(1, A.DRAW)  # Y3: not playable
    assert_turn(game, 4)


def test_05_starter_reverse_three_plus_players_dealer_first_then_d_minus_1():
    game, ev = start(
        [1, 2, 3, 4],
        {1: "G1 G2", 2: "B1 B2", 3: "R1 R2", 4: "Y1 Y2"},
        "RR",
        "Y3 Y4",
        dealer=3,
    )
    assert E.DirectionChanged(-1) in ev
    assert game.direction == -1
    assert_turn(game, 3)  # the dealer
    game.apply(3, play("R1"))
    assert_turn(game, 2)  # d - 1


@pytest.mark.parametrize("stacking", ["off", "same", "mixed"])
def test_06_starter_draw_two_next_draws_two_and_is_skipped_no_stacking(stacking):
    game, ev = start(
        [1, 2, 3],
        {1: "BD GD", 2: "B1 B2", 3: "Y1 Y2"},
        "RD",
        "G7 G8 G9",
        dealer=3,
        stacking=stacking,
    )
    # d+1 (player 1) holds Draw Twos but cannot stack on the starter
    assert drawn_by(ev) == {1: 2}
    assert sorted_codes(game.hand(1)) == ["BD", "G7", "G8", "GD"]
    assert E.TurnSkipped(1) in ev
    assert_turn(game, 2)
    assert game.penalty == 0
    assert game.top_card == Card.of("RD") and game.color is R


def test_07_starter_wild_d_plus_1_names_colour_first():
    game, ev = start([1, 2, 3], {1: "G1 R2", 2: "B1 B2", 3: "Y1 Y2"}, "W", "Y3 Y4", dealer=3)
    assert_turn(game, 1, Decision.CHOOSE_COLOR)
    assert game.color is None
    assert set(game.legal_actions(1)) == {A.ChooseColor(c) for c in (R, Y, G, B)}
    assert_rejected(game, 1, play("G1"))
    assert_rejected(game, 1, A.DRAW)
    assert_rejected(game, 2, color("R"), NotYourTurn)
    ev = game.apply(1, color("G"))
    assert ev == [E.ColorChosen(1, G)]
    # then a normal turn for the same player
    assert_turn(game, 1)
    assert game.color is G
    assert A.Play(Card.of("G1")) in game.legal_actions(1)
    assert A.Play(Card.of("R2")) not in game.legal_actions(1)


def test_08_starter_wd4_back_into_pile_reshuffle_and_repeat():
    returns = []
    for seed in range(10):
        game, ev = start(
            [1, 2, 3], {1: "G1", 2: "G2", 3: "G3"}, "W4", "W4 W4 B7", dealer=3, seed=seed
        )
        returned = of_type(ev, E.StarterReturned)
        assert returned and all(e.card == Card.of("W4") for e in returned)
        assert game.top_card == Card.of("B7") and game.color is B
        assert of_type(ev, E.RoundStarted)[0].starter == Card.of("B7")
        assert codes(game.draw_pile) == "W4 W4 W4"
        assert game.discard == [Card.of("B7")]
        assert_turn(game, 1)
        returns.append(len(returned))
    assert max(returns) > 1  # repeated when a Wild Draw Four comes up again


# ------------------------------------------------------------------ Wild Draw Four


def test_09_wd4_with_other_colour_same_number_is_legal():
    game = deal([1, 2, 3], {1: "W4 B5 G5", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}, "R5", "G1 " * 8)
    legal = game.legal_actions(1)
    assert A.Play(Card.of("W4")) in legal
    assert A.Play(Card.of("B5")) in legal  # the same-number cards are playable too
    game.apply(1, play("W4"))
    game.apply(1, color("B"))
    ev = game.apply(2, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved) == [
        E.ChallengeResolved(2, 1, False, tuple(sorted(Card.of(c) for c in ("B5", "G5"))))
    ]
    assert drawn_by(ev) == {2: 6}
    assert_turn(game, 3)


def test_10_wd4_with_only_wilds_as_other_cards_is_legal():
    game = deal([1, 2, 3], {1: "W4 W W", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}, "R5", "G1 " * 8)
    assert A.Play(Card.of("W4")) in game.legal_actions(1)
    game.apply(1, play("W4"))
    game.apply(1, color("Y"))
    ev = game.apply(2, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is False
    assert drawn_by(ev) == {2: 6}


def test_11_wd4_while_holding_active_colour_is_a_bluff_guilty_if_challenged():
    game = deal(P3, {1: "W4 R1 G2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}, "R5", "B1 " * 8)
    assert A.Play(Card.of("W4")) in game.legal_actions(1)
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    assert_turn(game, 2, Decision.RESPOND)
    ev = game.apply(2, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is True
    assert drawn_by(ev) == {1: 4}


def test_11_unchallenged_bluff_stands():
    game = deal(P3, {1: "W4 R1 G2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}, "R5", "B1 " * 8)
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    ev = game.apply(2, A.ACCEPT)
    assert drawn_by(ev) == {2: 4}
    assert E.TurnSkipped(2) in ev
    assert_turn(game, 3)
    assert sizes(game) == {1: 2, 2: 7, 3: 3}
    assert game.top_card == Card.of("W4") and game.color is G


def test_12_successful_challenge_offender_draws_4_victim_plays_on_named_colour():
    game = deal(P3, {1: "W4 R1 G2", 2: "Y1 G3 Y3", 3: "Y4 Y6 Y7"}, "R5", "B1 B2 B3 B4 B5")
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    ev = game.apply(2, A.CHALLENGE)
    assert ev == [
        E.ChallengeResolved(2, 1, True, (Card.of("R1"), Card.of("G2"))),
        E.CardsDrawn(1, tuple(cards("B1 B2 B3 B4")), "challenge"),
    ]
    assert_turn(game, 2)  # a normal turn, nothing drawn
    assert game.top_card == Card.of("W4") and game.color is G  # the WD4 stays
    assert A.Play(Card.of("G3")) in game.legal_actions(2)
    assert A.Play(Card.of("Y1")) not in game.legal_actions(2)
    assert sizes(game) == {1: 6, 2: 3, 3: 3}
    game.apply(2, play("G3"))
    assert_turn(game, 3)


def test_13_failed_challenge_victim_draws_6_and_is_skipped():
    game = deal(
        [1, 2, 3], {1: "W4 G1 G2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}, "R5", "B1 B2 B3 B4 B5 B6 B7"
    )
    game.apply(1, play("W4"))
    game.apply(1, color("B"))
    assert_turn(game, 2, Decision.RESPOND)
    ev = game.apply(2, A.CHALLENGE)
    assert ev == [
        E.ChallengeResolved(2, 1, False, (Card.of("G1"), Card.of("G2"))),
        E.CardsDrawn(2, tuple(cards("B1 B2 B3 B4 B5 B6")), "challenge"),
        E.TurnSkipped(2),
    ]
    assert_turn(game, 3)
    assert sizes(game) == {1: 2, 2: 9, 3: 3}
    assert game.top_card == Card.of("W4") and game.color is B


def test_14_guilt_judged_on_colour_before_wd4_not_named_colour():
    # Player 1 holds blue (the colour they name) but no red (the colour before): not guilty.
    game = deal([1, 2, 3], {1: "W4 B1 B2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}, "R5", "G1 " * 8)
    assert A.Play(Card.of("W4")) in game.legal_actions(1)
    game.apply(1, play("W4"))
    game.apply(1, color("B"))
    ev = game.apply(2, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is False
    assert drawn_by(ev) == {2: 6}
    assert_turn(game, 3)


def test_14_guilty_when_holding_the_colour_before_even_if_naming_it():
    game = deal(P3, {1: "W4 R1 R2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}, "R5", "B1 " * 8)
    game.apply(1, play("W4"))
    game.apply(1, color("R"))
    ev = game.apply(2, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is True
    assert drawn_by(ev) == {1: 4}
    assert_turn(game, 2)


def test_15_wd4_on_a_wild_active_colour_is_the_named_one():
    game = deal([1, 2, 3], {1: "W G1 G2", 2: "W4 R1 R2", 3: "W4 G3 Y7"}, "R5", "B1 " * 8)
    game.apply(1, play("W"))
    game.apply(1, color("G"))
    assert game.color is G
    # player 2 holds red (the colour under the Wild) but no green: legal
    assert A.Play(Card.of("W4")) in game.legal_actions(2)
    game.apply(2, play("W4"))
    game.apply(2, color("Y"))
    ev = game.apply(3, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is False
    assert drawn_by(ev) == {3: 6}
    assert_turn(game, 1)
    assert game.color is Y


def test_15_wd4_on_a_wild_holding_the_named_colour_is_a_bluff():
    game = deal(P3, {1: "W G1 G2", 2: "W4 G3 R1", 3: "Y1 Y2 Y3"}, "R5", "B1 " * 8)
    game.apply(1, play("W"))
    game.apply(1, color("G"))
    game.apply(2, play("W4"))  # holds green, the colour named for the Wild
    game.apply(2, color("Y"))
    ev = game.apply(3, A.CHALLENGE)
    res = of_type(ev, E.ChallengeResolved)[0]
    assert (res.offender, res.guilty) == (2, True)
    assert drawn_by(ev) == {2: 4}
    assert_turn(game, 3)


def test_16_wd4_as_last_card_no_challenge_victim_draws_4_round_ends():
    game = deal([1, 2, 3], {1: "W4", 2: "G1", 3: "Y1"}, "R5", "B1 B2 B3 B4 B5")
    assert A.Play(Card.of("W4")) in game.legal_actions(1)
    ev = game.apply(1, play("W4"))
    assert of_type(ev, E.ChallengeResolved) == []
    assert of_type(ev, E.ColorChosen) == []
    assert drawn_by(ev) == {2: 4}
    assert sorted_codes(game.hand(2)) == ["B1", "B2", "B3", "B4", "G1"]
    assert game.decision is Decision.NEXT_ROUND
    assert game.current_player is None
    (ended,) = of_type(ev, E.RoundEnded)
    assert ended.outcome.winner == 1
    assert ended.outcome.reason is RoundEnd.WENT_OUT
    assert ended.outcome.points == {1: 1 + 10 + 1, 2: 0, 3: 0}
    assert game.legal_actions(2) == [A.NEXT_ROUND]
    assert_rejected(game, 2, A.CHALLENGE)


def test_17_draw_two_as_last_card_next_draws_2_then_round_is_scored():
    game = deal([1, 2, 3], {1: "RD", 2: "G1", 3: "Y1"}, "R5", "B7 B8 B9")
    ev = game.apply(1, play("RD"))
    assert drawn_by(ev) == {2: 2}
    assert sorted_codes(game.hand(2)) == ["B7", "B8", "G1"]
    assert game.decision is Decision.NEXT_ROUND
    outcome = game.round_outcome
    assert outcome.winner == 1
    assert outcome.cards_left == {1: 0, 2: 3, 3: 1}
    assert outcome.points == {1: 1 + 7 + 8 + 1, 2: 0, 3: 0}
    assert game.totals == {1: 17, 2: 0, 3: 0}
    # the drawn cards come before the end of the round in the event log
    kinds = [type(e) for e in ev]
    assert kinds.index(E.CardsDrawn) < kinds.index(E.RoundEnded)


@pytest.mark.parametrize("last", ["RS", "RR"])
def test_18_skip_or_reverse_as_last_card_round_ends_no_effect(last):
    game = deal([1, 2, 3], {1: last, 2: "G1", 3: "Y1"}, "R5", "B7 B8 B9")
    ev = game.apply(1, play(last))
    assert of_type(ev, E.TurnSkipped) == []
    assert of_type(ev, E.DirectionChanged) == []
    assert drawn_by(ev) == {}
    assert game.direction == 1
    assert game.decision is Decision.NEXT_ROUND
    assert game.round_outcome.winner == 1
    assert game.round_outcome.points == {1: 2, 2: 0, 3: 0}


# ------------------------------------------------------------------ drawing


def test_19_playable_drawn_card_may_be_played():
    game = deal([1, 2, 3], {1: "G1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "R9 B1")
    ev = game.apply(1, A.DRAW)
    assert ev == [E.CardsDrawn(1, (Card.of("R9"),), "choice")]
    assert_turn(game, 1, Decision.PLAY_DRAWN)
    assert game.drawn == Card.of("R9")
    assert set(game.legal_actions(1)) == {A.Play(Card.of("R9")), A.KEEP}
    game.apply(1, play("R9"))
    assert game.top_card == Card.of("R9")
    assert sizes(game) == {1: 2, 2: 2, 3: 2}
    assert_turn(game, 2)


def test_19_playable_drawn_card_may_be_kept():
    game = deal([1, 2, 3], {1: "G1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "R9 B1")
    game.apply(1, A.DRAW)
    ev = game.apply(1, A.KEEP)
    assert ev == [E.DrawnCardKept(1)]
    assert game.top_card == Card.of("R5")
    assert sorted_codes(game.hand(1)) == ["G1", "G2", "R9"]
    assert_turn(game, 2)


def test_20_after_drawing_no_other_card_may_be_played():
    game = deal([1, 2, 3], {1: "R1 R2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "R9 B1")
    game.apply(1, A.DRAW)
    assert_turn(game, 1, Decision.PLAY_DRAWN)
    assert A.Play(Card.of("R1")) not in game.legal_actions(1)
    assert_rejected(game, 1, play("R1"))
    assert_rejected(game, 1, A.DRAW)


def test_20_unplayable_drawn_card_ends_the_turn():
    game = deal([1, 2, 3], {1: "R1 R2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "B9 B1")
    game.apply(1, A.DRAW)
    assert_turn(game, 2)
    assert sizes(game) == {1: 3, 2: 2, 3: 2}
    assert game.top_card == Card.of("R5")


def test_21_drawing_while_holding_a_playable_card_is_allowed():
    game = deal([1, 2, 3], {1: "R1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "B9 B1")
    legal = game.legal_actions(1)
    assert A.Play(Card.of("R1")) in legal and A.DRAW in legal
    ev = game.apply(1, A.DRAW)
    assert drawn_by(ev) == {1: 1}
    assert_turn(game, 2)  # B9 is not playable
    assert sorted_codes(game.hand(1)) == ["B9", "G2", "R1"]


def test_22_drawn_wd4_playable_when_the_wd4_rule_allows_it():
    game = deal([1, 2, 3], {1: "G1 B2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "W4 B1")
    game.apply(1, A.DRAW)
    assert_turn(game, 1, Decision.PLAY_DRAWN)
    assert A.Play(Card.of("W4")) in game.legal_actions(1)
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    assert_turn(game, 2, Decision.RESPOND)


def test_22_drawn_wd4_judged_on_the_hand_including_it_not_playable_with_active_colour():
    # Interpretation: a drawn WD4 is offered only when the WD4 rule allows it (no bluff).
    game = deal(P3, {1: "R1 B2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "W4 B1")
    ev = game.apply(1, A.DRAW)
    assert drawn_by(ev) == {1: 1}
    assert_turn(game, 2)
    assert sorted_codes(game.hand(1)) == ["B2", "R1", "W4"]


def test_22_drawn_wd4_under_no_playable_rule():
    game = deal(P3, {1: "G1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "W4 B1", wd4_rule="no_playable")
    game.apply(1, A.DRAW)
    assert_turn(game, 1, Decision.PLAY_DRAWN)
    game = deal(P3, {1: "G1 W", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "W4 B1", wd4_rule="no_playable")
    game.apply(1, A.DRAW)  # the Wild in hand is another legal play
    assert_turn(game, 2)


def test_23_empty_draw_pile_shuffles_all_discards_but_the_top():
    game = deal([1, 2, 3], {1: "R1 G1", 2: "R2 G2", 3: "Y3 Y4"}, "R5", "")
    game.apply(1, play("R1"))
    game.apply(2, play("R2"))
    assert game.draw_pile == []
    ev = game.apply(3, A.DRAW)
    assert of_type(ev, E.DeckReshuffled) == [E.DeckReshuffled(2)]
    assert game.discard == [Card.of("R2")]
    (drawn,) = of_type(ev, E.CardsDrawn)
    assert drawn.count == 1
    assert sorted_codes([*drawn.cards, *game.draw_pile]) == ["R1", "R5"]
    # the drawn red card is playable on R2
    assert_turn(game, 3, Decision.PLAY_DRAWN)


def test_24_both_piles_exhausted_draw_what_exists_rest_cancelled():
    game, ev = start([1, 2, 3], {1: "G1 G1", 2: "Y5 Y6", 3: "B8 B7"}, "RD", "B9", dealer=3)
    assert of_type(ev, E.CardsDrawn) == [E.CardsDrawn(1, (Card.of("B9"),), "penalty")]
    assert of_type(ev, E.DebtCancelled) == [E.DebtCancelled(1, 1)]
    assert game.draw_pile == [] and game.discard == [Card.of("RD")]
    assert_turn(game, 2)


def test_24_nobody_can_play_or_draw_for_a_lap_lowest_hand_value_wins():
    game = deal([1, 2, 3], {1: "G9 G8", 2: "B1 B2", 3: "Y3 Y4"}, "R5", "")
    assert game.legal_actions(1) == [A.PASS]
    game.apply(1, A.PASS)
    game.apply(2, A.PASS)
    assert game.decision is Decision.PLAY
    ev = game.apply(3, A.PASS)
    (ended,) = of_type(ev, E.RoundEnded)
    assert ended.outcome.reason is RoundEnd.BLOCKED
    assert ended.outcome.winner == 2
    assert ended.outcome.points == {1: 0, 2: 17 + 7, 3: 0}


def test_24_blocked_round_tie_on_value_fewer_cards_wins():
    # 1 draws the last card from the starter Draw Two: 11 points in 3 cards; 2 holds 11 in 2.
    game = deal([1, 2, 3], {1: "G1 G1", 2: "Y5 Y6", 3: "B8 B7"}, "RD", "B9")
    assert sizes(game) == {1: 3, 2: 2, 3: 2}
    for p in (2, 3, 1):
        assert game.legal_actions(p) == [A.PASS]
        game.apply(p, A.PASS)
    assert game.round_outcome.reason is RoundEnd.BLOCKED
    assert game.round_outcome.winner == 2
    assert game.round_outcome.hand_points == {1: 11, 2: 11, 3: 15}


def test_24_blocked_round_full_tie_first_in_turn_order_wins():
    # All hands are worth 3 in 2 cards; after 1, 2, 3 pass, player 1 is next in turn order.
    game = deal(P3, {1: "G1 G2", 2: "Y1 Y2", 3: "B1 B2"}, "R5", "")
    for p in (1, 2, 3):
        game.apply(p, A.PASS)
    assert game.round_outcome.reason is RoundEnd.BLOCKED
    assert game.round_outcome.winner == 1


def test_24_a_play_resets_the_lap():
    game = deal([1, 2, 3], {1: "G9 G8", 2: "R1 B2", 3: "Y3 Y4"}, "R5", "")
    game.apply(1, A.PASS)
    game.apply(2, play("R1"))
    # the discards (R5) can now be drawn again
    assert A.DRAW in game.legal_actions(3)


def test_24_a_forced_cycle_of_draws_and_plays_ends_the_round():
    """§9.24 carried to its end (found by the long Hypothesis profile): with the draw pile used
    up, a position that comes back a third time ends the round as blocked, lowest hand wins."""
    # voluntary_draw off + force_play_drawn: 3 and 1 can only draw, and each draws the Reverse
    # the other just played (the one card under the top) and must play it; 2 never acts.
    rules = {"voluntary_draw": False, "force_play_drawn": True}
    game = deal(P3, {1: "G2 G3 G4", 2: "R1 R2 R3", 3: "BR G1 G5"}, "YR", "", dealer=3, **rules)
    game.apply(3, play("BR"))
    for _ in range(100):
        if game.round_over:
            break
        player = game.current_player
        (action,) = game.legal_actions(player)  # every move is forced
        game.apply(player, action)
    assert game.round_over
    outcome = game.round_outcome
    assert outcome is not None and outcome.reason is RoundEnd.BLOCKED
    assert outcome.winner == 3  # G1 G5: 6 points like R1 R2 R3, in fewer cards


def test_25_wilds_back_in_the_draw_pile_lose_their_named_colour():
    game = deal([1, 2, 3], {1: "G1 G2", 2: "Y3 Y4", 3: "B3 B4"}, "W", "")
    game.apply(1, color("G"))
    game.apply(1, play("G1"))
    assert game.discard == [Card.of("W"), Card.of("G1")]
    ev = game.apply(2, A.DRAW)
    assert of_type(ev, E.DeckReshuffled) == [E.DeckReshuffled(1)]
    assert of_type(ev, E.CardsDrawn) == [E.CardsDrawn(2, (Card.of("W"),), "choice")]
    assert_turn(game, 2, Decision.PLAY_DRAWN)
    game.apply(2, play("W"))
    # the old green is forgotten: a colour must be named again, and any colour may be named
    assert_turn(game, 2, Decision.CHOOSE_COLOR)
    assert game.color is None
    game.apply(2, color("R"))
    assert game.color is R
    assert_turn(game, 3)


# ------------------------------------------------------------------ UNO


def test_26_uno_called_with_next_to_last_card_is_safe():
    game = deal([1, 2, 3], {1: "R1 R2", 2: "Y3 Y4", 3: "B3 B4"}, "R5", "G7 G8")
    assert A.Play(Card.of("R1"), uno=True) in game.legal_actions(1)
    ev = game.apply(1, play("R1", uno=True))
    assert ev[:2] == [E.CardPlayed(1, Card.of("R1")), E.UnoCalled(1)]
    assert game.at_risk == []
    for catcher in (2, 3):
        assert A.Catch(1) not in game.legal_actions(catcher)
        assert_rejected(game, catcher, A.Catch(1))
    assert sizes(game) == {1: 1, 2: 2, 3: 2}


def test_26_uno_flag_refused_with_more_than_two_cards():
    game = deal([1, 2, 3], {1: "R1 R2 R3", 2: "Y3 Y4 Y6", 3: "B3 B4 B6"}, "R5", "G7 G8")
    assert_rejected(game, 1, play("R1", uno=True))


@pytest.mark.parametrize("catcher", [2, 3])
def test_27_no_call_caught_before_next_players_action_draws_2(catcher):
    game = deal([1, 2, 3], {1: "R1 R2", 2: "Y3 Y4", 3: "B3 B4"}, "R5", "G7 G8 G9")
    game.apply(1, play("R1"))
    assert game.at_risk == [1]
    assert A.Catch(1) in game.legal_actions(catcher)
    ev = game.apply(catcher, A.Catch(1))
    assert ev == [
        E.UnoCaught(catcher, 1, 2),
        E.CardsDrawn(1, (Card.of("G7"), Card.of("G8")), "uno"),
    ]
    assert sizes(game) == {1: 3, 2: 2, 3: 2}
    assert game.at_risk == []
    assert_turn(game, 2)


def test_28_no_call_caught_after_next_players_action_refused():
    game = deal([1, 2, 3], {1: "R1 R2", 2: "R3 Y4", 3: "B3 B4"}, "R5", "G7 G8 G9")
    game.apply(1, play("R1"))
    game.apply(2, play("R3"))
    assert game.at_risk == [2]  # player 2 is down to one card now, not player 1
    for catcher in (2, 3):
        assert A.Catch(1) not in game.legal_actions(catcher)
        assert_rejected(game, catcher, A.Catch(1))
    assert sizes(game) == {1: 1, 2: 1, 3: 2}


def test_28_next_players_draw_also_closes_the_window():
    game = deal([1, 2, 3], {1: "R1 R2", 2: "Y3 Y4", 3: "B3 B4"}, "R5", "G7 G8 G9")
    game.apply(1, play("R1"))
    game.apply(2, A.DRAW)
    assert_rejected(game, 3, A.Catch(1))
    assert game.card_count(1) == 1


def test_29_late_uno_call_before_any_catch_is_safe():
    game = deal([1, 2, 3], {1: "R1 R2", 2: "Y3 Y4", 3: "B3 B4"}, "R5", "G7 G8 G9")
    game.apply(1, play("R1"))
    assert A.CALL_UNO in game.legal_actions(1)
    ev = game.apply(1, A.CALL_UNO)  # out of turn: it is player 2's turn
    assert ev == [E.UnoCalled(1)]
    assert game.at_risk == []
    assert_rejected(game, 3, A.Catch(1))
    assert_rejected(game, 1, A.CALL_UNO)
    assert game.card_count(1) == 1
    assert_turn(game, 2)


def test_30_at_risk_player_who_draws_is_safe_then_must_call_again():
    game = deal([1, 2], {1: "RS G1", 2: "R3 B2"}, "R5", "R7 Y8 Y9 Y6")
    game.apply(1, play("RS"))  # no call; 2 players: player 1 goes again
    assert game.at_risk == [1]
    assert_turn(game, 1)
    game.apply(1, A.DRAW)  # draws R7
    assert game.at_risk == []
    assert_rejected(game, 2, A.Catch(1))
    game.apply(1, A.KEEP)
    game.apply(2, play("R3"))
    assert sizes(game) == {1: 2, 2: 1}
    assert game.at_risk == [2]
    game.apply(1, play("R7"))  # back to one card, no call
    assert game.at_risk == [1]
    ev = game.apply(2, A.Catch(1))
    assert of_type(ev, E.UnoCaught) == [E.UnoCaught(2, 1, 2)]
    assert sizes(game) == {1: 3, 2: 1}


def test_31_swap_hands_leaving_one_card_puts_that_player_at_risk():
    game = deal([1, 2, 3], {1: "WS G1", 2: "B1 B2", 3: "Y1 Y2"}, "R5", "G7 G8 G9", deck="swap112")
    game.apply(1, play("WS", uno=True))
    assert_turn(game, 1, Decision.CHOOSE_TARGET)
    ev = game.apply(1, A.ChooseTarget(3))
    assert ev == [E.HandsSwapped(1, 3)]
    assert codes(game.hand(3)) == "G1"
    assert sorted_codes(game.hand(1)) == ["Y1", "Y2"]
    assert game.at_risk == [3]
    game.apply(1, color("B"))
    assert_turn(game, 2)
    ev = game.apply(2, A.Catch(3))
    assert drawn_by(ev) == {3: 2}


def test_31_seven_leaving_one_card_puts_the_target_at_risk():
    game = deal([1, 2, 3], {1: "R7 G1", 2: "B1 B2", 3: "Y1 Y2"}, "R5", "G7 G8 G9", seven_o=True)
    game.apply(1, play("R7", uno=True))
    assert_turn(game, 1, Decision.CHOOSE_TARGET)
    game.apply(1, A.ChooseTarget(2))
    assert codes(game.hand(2)) == "G1"
    assert sorted_codes(game.hand(1)) == ["B1", "B2"]
    assert game.at_risk == [2]
    assert_turn(game, 2)
    assert A.CALL_UNO in game.legal_actions(2)
    assert A.Catch(2) in game.legal_actions(3)


def test_31_zero_leaving_one_card_puts_the_receiver_at_risk():
    game = deal([1, 2, 3], {1: "R0 G1", 2: "B1 B2", 3: "Y1 Y2"}, "R5", "G7 G8 G9", seven_o=True)
    ev = game.apply(1, play("R0", uno=True))
    assert E.HandsRotated(1) in ev
    assert codes(game.hand(2)) == "G1"
    assert sorted_codes(game.hand(3)) == ["B1", "B2"]
    assert sorted_codes(game.hand(1)) == ["Y1", "Y2"]
    assert game.at_risk == [2]
    assert_turn(game, 2)


def _shuffle_last_card_game():
    """Player 1 is down to Shuffle Hands; 2 holds 1 card, 3 holds 3."""
    game = deal(
        [1, 2, 3],
        {1: "R1 WX", 2: "R2 G7", 3: "B8 B9"},
        "R5",
        "Y4 Y6 Y3",
        deck="shuffle112",
    )
    game.apply(1, play("R1", uno=True))
    game.apply(2, play("R2", uno=True))
    game.apply(3, A.DRAW)  # Y4: not playable on R2
    assert_turn(game, 1)
    assert sizes(game) == {1: 1, 2: 1, 3: 3}
    return game


def test_31_shuffle_leaving_one_card_puts_that_player_at_risk():
    game = _shuffle_last_card_game()
    game.apply(1, play("WX"))
    # 4 cards dealt from player 2: 2 gets 2, 3 gets 1, 1 gets 1
    assert sizes(game) == {1: 1, 2: 2, 3: 1}
    assert 3 in game.at_risk  # held 3 cards, now 1
    assert 2 not in game.at_risk


def test_32_two_simultaneous_catches_penalty_applies_once():
    game = deal([1, 2, 3], {1: "R1 R2", 2: "Y3 Y4", 3: "B3 B4"}, "R5", "G7 G8 G9 G6")
    game.apply(1, play("R1"))
    game.apply(2, A.Catch(1))
    assert_rejected(game, 3, A.Catch(1))
    assert sizes(game) == {1: 3, 2: 2, 3: 2}


# ------------------------------------------------------------------ matching


def test_33_wild_on_wild_legal_and_same_colour_may_be_named():
    game = deal([1, 2, 3], {1: "W G1", 2: "W B2", 3: "Y3 Y4"}, "R5", "G7 G8")
    game.apply(1, play("W"))
    assert A.ChooseColor(R) in game.legal_actions(1)
    game.apply(1, color("R"))  # the current colour again
    assert game.color is R
    assert A.Play(Card.of("W")) in game.legal_actions(2)
    game.apply(2, play("W"))
    game.apply(2, color("R"))
    assert game.top_card == Card.of("W") and game.color is R
    assert_turn(game, 3)


def test_34_blue_skip_on_red_skip_legal():
    game = deal([1, 2, 3], {1: "RS G1", 2: "Y3 Y4", 3: "BS B4"}, "R5", "G7 G8")
    game.apply(1, play("RS"))
    assert_turn(game, 3)
    assert A.Play(Card.of("BS")) in game.legal_actions(3)
    ev = game.apply(3, play("BS"))
    assert E.TurnSkipped(1) in ev
    assert game.color is B
    assert_turn(game, 2)


def test_34_red_5_on_blue_draw_two_illegal():
    game = deal([1, 2, 3], {1: "G1 G2", 2: "R5 Y4", 3: "B3 B4"}, "BD", "G7 G8 G9")
    assert_turn(game, 2)
    assert A.Play(Card.of("R5")) not in game.legal_actions(2)
    assert_rejected(game, 2, play("R5"))


# ------------------------------------------------------------------ Swap and Shuffle Hands


def test_35_swap_hands_two_players_one_card_holder_at_risk():
    game = deal([1, 2], {1: "WS G1", 2: "B1 B2"}, "R5", "G7 G8 G9", deck="swap112")
    game.apply(1, play("WS"))
    assert game.at_risk == [1]
    assert game.legal_actions(1)[:1] == [A.ChooseTarget(2)]
    game.apply(1, A.ChooseTarget(2))
    assert codes(game.hand(2)) == "G1"
    assert sorted_codes(game.hand(1)) == ["B1", "B2"]
    assert game.at_risk == [2]
    game.apply(1, color("G"))
    assert_turn(game, 2)
    ev = game.apply(1, A.Catch(2))
    assert drawn_by(ev) == {2: 2}


def test_36_swap_hands_as_last_card_round_ends_without_swap():
    game = deal([1, 2, 3], {1: "WS", 2: "B1", 3: "Y2"}, "R5", "G7 G8", deck="swap112")
    ev = game.apply(1, play("WS"))
    assert of_type(ev, E.HandsSwapped) == []
    assert game.decision is Decision.NEXT_ROUND
    assert game.round_outcome.winner == 1
    assert sizes(game) == {1: 0, 2: 1, 3: 1}
    assert game.round_outcome.points == {1: 3, 2: 0, 3: 0}


def test_37_shuffle_hands_as_last_card_deals_everything_and_play_goes_on():
    game = _shuffle_last_card_game()
    pool = Counter(game.hand(2) + game.hand(3))
    ev = game.apply(1, play("WX"))
    assert E.HandsShuffled(1) in ev
    assert of_type(ev, E.RoundEnded) == []
    assert Counter(game.hand(1) + game.hand(2) + game.hand(3)) == pool
    assert sizes(game) == {1: 1, 2: 2, 3: 1}
    assert_turn(game, 1, Decision.CHOOSE_COLOR)
    game.apply(1, color("Y"))
    assert_turn(game, 2)
    assert game.color is Y


def test_38_shuffle_hands_uneven_split_extra_to_first_seats_in_deal_order():
    game = deal(
        [1, 2, 3, 4],
        {1: "WX G1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3", 4: "R1 R2 R3"},
        "R5",
        "G7 G8",
        deck="shuffle112",
    )
    pool = Counter(c for p in (1, 2, 3, 4) for c in game.hand(p)) - Counter([Card.of("WX")])
    game.apply(1, play("WX"))
    # 11 cards dealt one at a time from player 2: 2, 3, 4 get 3, player 1 gets 2
    assert sizes(game) == {1: 2, 2: 3, 3: 3, 4: 3}
    assert Counter(c for p in (1, 2, 3, 4) for c in game.hand(p)) == pool
    game.apply(1, color("G"))
    assert_turn(game, 2)


def test_38_shuffle_hands_deal_follows_the_direction():
    game = deal(
        [1, 2, 3, 4],
        {1: "RR G1 G2", 2: "WX B1 B2", 3: "Y1 Y2 Y3", 4: "R1 R2 R3"},
        "R5",
        "G7 G8",
        deck="shuffle112",
    )
    game.apply(1, play("RR"))
    assert_turn(game, 4)
    game.apply(4, play("R1"))
    assert_turn(game, 3)
    game.apply(3, A.DRAW)  # G7, not playable
    assert_turn(game, 2)
    game.apply(2, play("WX"))
    # 2+2+4+2 = 10 cards dealt from next(2) = 1, then 4, 3, 2: 3, 3, 2, 2
    assert sizes(game) == {1: 3, 2: 2, 3: 2, 4: 3}


# ------------------------------------------------------------------ scoring and house rules


def test_39_two_players_pass_target_penalty_scoring_lowest_total_wins():
    game = deal(
        [1, 2, 3],
        {1: "R1 R2", 2: "B9 B8", 3: "Y9 Y7"},
        "R5",
        "G9 G8 G7 G6",
        scoring="penalty",
        target=10,
    )
    game.apply(1, play("R1", uno=True))
    game.apply(2, A.DRAW)  # G9
    game.apply(3, A.DRAW)  # G8
    ev = game.apply(1, play("R2"))
    assert game.round_outcome.points == {1: 0, 2: 26, 3: 24}
    assert game.decision is Decision.MATCH_OVER
    (ended,) = of_type(ev, E.MatchEnded)
    assert ended.outcome.termination is Termination.TARGET_REACHED
    assert ended.outcome.winners == (1,)
    assert ended.outcome.totals == {1: 0, 2: 26, 3: 24}


def test_40_mixed_stacking_draw_two_then_wd4_then_no_stack_draws_6():
    game = deal(
        [1, 2, 3],
        {1: "RD G1 G2", 2: "W4 B1 B2", 3: "Y1 Y2 Y3"},
        "R5",
        "B5 B6 B7 B8 B9 B3 B4",
        stacking="mixed",
    )
    game.apply(1, play("RD"))
    assert_turn(game, 2, Decision.RESPOND)
    assert A.Play(Card.of("W4")) in game.legal_actions(2)
    game.apply(2, play("W4"))
    game.apply(2, color("G"))
    assert_turn(game, 3, Decision.RESPOND)
    assert game.penalty == 6
    ev = game.apply(3, A.ACCEPT)
    assert drawn_by(ev) == {3: 6}
    assert E.TurnSkipped(3) in ev
    assert_turn(game, 1)
    assert sizes(game) == {1: 2, 2: 2, 3: 9}
    assert game.color is G


@pytest.mark.parametrize("stacking", ["same", "mixed"])
def test_41_stacking_last_card_draw_two_round_over_next_draws_2(stacking):
    game = deal([1, 2, 3], {1: "RD", 2: "BD", 3: "Y1"}, "R5", "G7 G8 G9", stacking=stacking)
    ev = game.apply(1, play("RD"))
    assert drawn_by(ev) == {2: 2}
    assert game.decision is Decision.NEXT_ROUND
    assert game.round_outcome.winner == 1
    assert sizes(game) == {1: 0, 2: 3, 3: 1}


def test_42_deflect_d2_last_target_draws_2_not_4():
    game = deal(
        [1, 2, 3],
        {1: "RD G1 G2", 2: "GD B1 B2", 3: "Y1 Y2 Y3"},
        "R5",
        "B5 B6 B7 B8",
        deflect_d2=True,
    )
    game.apply(1, play("RD"))
    assert_turn(game, 2, Decision.RESPOND)
    assert set(game.legal_actions(2)) == {A.Play(Card.of("GD")), A.ACCEPT}
    ev = game.apply(2, play("GD"))
    assert drawn_by(ev) == {3: 2}
    assert E.TurnSkipped(3) in ev
    assert_turn(game, 1)
    assert sizes(game) == {1: 2, 2: 2, 3: 5}
    assert game.top_card == Card.of("GD") and game.color is G


def test_43_no_going_out_on_action_lone_wild_must_draw_then_may_play_number():
    game = deal([1, 2, 3], {1: "W", 2: "B1", 3: "Y2"}, "R5", "R9 G8", go_out_on_action=False)
    assert game.legal_actions(1) == [A.DRAW]
    assert_rejected(game, 1, play("W"))
    game.apply(1, A.DRAW)
    assert_turn(game, 1, Decision.PLAY_DRAWN)
    assert A.Play(Card.of("R9")) in game.legal_actions(1)
    game.apply(1, play("R9"))
    assert codes(game.hand(1)) == "W"
    assert game.top_card == Card.of("R9")
    assert_turn(game, 2)


def test_44_jump_in_skips_the_passed_over_player():
    game = deal(
        [1, 2, 3, 4],
        {1: "R5 G1", 2: "B1 B2", 3: "R5 Y1", 4: "B3 B4"},
        "R3",
        "G7 G8",
        jump_in=True,
    )
    game.apply(1, play("R5"))
    assert_turn(game, 2)
    assert A.Play(Card.of("R5")) in game.legal_actions(3)
    ev = game.apply(3, play("R5"))
    assert ev == [E.CardPlayed(3, Card.of("R5"), jump_in=True)]
    assert_turn(game, 4)
    assert sizes(game) == {1: 1, 2: 2, 3: 1, 4: 2}


def test_44_jump_in_only_before_the_next_action():
    game = deal(
        [1, 2, 3, 4],
        {1: "R5 G1", 2: "B1 B2", 3: "Y1 Y2", 4: "R5 B4"},
        "R3",
        "G7 G8",
        jump_in=True,
    )
    game.apply(1, play("R5"))
    assert A.Play(Card.of("R5")) in game.legal_actions(4)
    game.apply(2, A.DRAW)  # G7: not playable, the turn passes to 3
    assert_turn(game, 3)
    assert A.Play(Card.of("R5")) not in game.legal_actions(4)
    assert_rejected(game, 4, play("R5"))


def test_44_jump_in_reverse_play_continues_from_the_jumper():
    game = deal(
        [1, 2, 3, 4],
        {1: "RR G1", 2: "B1 B2", 3: "RR Y1", 4: "B3 B4"},
        "R3",
        "G7 G8",
        jump_in=True,
    )
    game.apply(1, play("RR"))  # direction -1: 4 is next
    assert_turn(game, 4)
    game.apply(3, play("RR"))  # 3 jumps in: direction +1 again, next(3) = 4
    assert game.direction == 1
    assert_turn(game, 4)


def test_45_starting_player_dealer_with_starter_skip_dealer_skipped():
    game, ev = start(
        [1, 2, 3],
        {1: "G1 G2", 2: "B1 B2", 3: "Y1 Y2"},
        "RS",
        "G7",
        dealer=3,
        starting_player="dealer",
    )
    assert E.TurnSkipped(3) in ev
    assert_turn(game, 1)
