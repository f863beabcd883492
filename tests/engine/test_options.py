"""RULES.md section 8: every house rule shown to change the game against the official default.

Plus RuleSet validation, presets, serialisation, and errors that leave the game unchanged.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from bot.engine import (
    PRESETS,
    Card,
    Color,
    Decision,
    Game,
    GameOver,
    IllegalAction,
    InvalidRules,
    NotInGame,
    NotYourTurn,
    Rank,
    RuleSet,
    Termination,
    build_deck,
)
from bot.engine import actions as A
from bot.engine import events as E
from bot.engine.rules import CHOICES, INT_RANGES, OPTION_NAMES

from .scenario import (
    autoplay_round,
    codes,
    color,
    deal,
    drawn_by,
    of_type,
    play,
    sizes,
    sorted_codes,
    start,
)

R, Y, G, B = Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE
P3 = [1, 2, 3]


def assert_rejected(game, player, action, error=IllegalAction):
    before = game.to_dict()
    with pytest.raises(error):
        game.apply(player, action)
    assert game.to_dict() == before


def assert_turn(game, player, decision=Decision.PLAY):
    assert game.current_player == player
    assert game.decision is decision


def all_cards(game: Game) -> Counter:
    held = [c for p in game.seats for c in game.hand(p)]
    return Counter(held + game.draw_pile + game.discard)


# ------------------------------------------------------------------ deck, hand_size


@pytest.mark.parametrize(
    ("deck", "size", "special"),
    [
        ("classic108", 108, {}),
        ("swap112", 112, {"WS": 1, "WC": 3}),
        ("shuffle112", 112, {"WX": 1, "WC": 3}),
    ],
)
def test_deck_kinds(deck, size, special):
    cards = build_deck(deck)
    assert len(cards) == size
    counts = Counter(c.code for c in cards)
    assert counts["W"] == 4 and counts["W4"] == 4
    assert counts["R0"] == 1 and counts["R7"] == 2 and counts["BD"] == 2
    for code in ("WS", "WX", "WC"):
        assert counts.get(code, 0) == special.get(code, 0)
    game = Game.new([1, 2, 3], RuleSet(deck=deck), seed=5)
    assert sum(all_cards(game).values()) == size
    assert {c.code: n for c, n in all_cards(game).items() if c.code in special} == special


def test_points_of_special_cards():
    assert [Card.of(c).points for c in ("R7", "GS", "BR", "YD", "W", "W4", "WS", "WX", "WC")] == [
        7,
        20,
        20,
        20,
        50,
        50,
        40,
        40,
        40,
    ]


@pytest.mark.parametrize("hand_size", [1, 7, 12])
def test_hand_size(hand_size):
    game = Game.new([1, 2, 3, 4], RuleSet(hand_size=hand_size), seed=1, dealer=4)
    # the first player may already have drawn from a starter Draw Two
    counts = sorted(sizes(game).values())
    assert counts[:3] == [hand_size] * 3
    assert counts[3] in (hand_size, hand_size + 2)


def test_hand_size_too_large_for_the_deck():
    with pytest.raises(InvalidRules):
        Game.new(list(range(1, 11)), RuleSet(hand_size=11), seed=1)


# ------------------------------------------------------------------ starting player, starter


def _first_player(starting_player, seed=0, starter="R5"):
    game = deal(
        [1, 2, 3, 4],
        {1: "G1", 2: "G2", 3: "G3", 4: "G4"},
        starter,
        "B1 B2 B3",
        dealer=2,
        seed=seed,
        starting_player=starting_player,
    )
    return game


def test_starting_player_left_is_d_plus_1():
    assert _first_player("left").current_player == 3


def test_starting_player_dealer():
    assert _first_player("dealer").current_player == 2


def test_starting_player_random():
    firsts = {_first_player("random", seed).current_player for seed in range(40)}
    assert firsts == {1, 2, 3, 4}


def test_starting_player_dealer_with_starter_draw_two_dealer_draws():
    game, ev = start(
        [1, 2, 3], {1: "G1", 2: "G2", 3: "G3"}, "RD", "B1 B2", dealer=2, starting_player="dealer"
    )
    assert drawn_by(ev) == {2: 2}
    assert_turn(game, 3)


def test_starting_player_dealer_with_starter_wild_dealer_names_colour():
    game = deal(
        [1, 2, 3], {1: "G1", 2: "G2", 3: "G3"}, "W", "B1 B2", dealer=2, starting_player="dealer"
    )
    assert_turn(game, 2, Decision.CHOOSE_COLOR)


def test_round_one_dealer_is_random():
    dealers = set()
    for seed in range(30):
        game = Game.new([1, 2, 3, 4], RuleSet(), seed=seed)
        dealers.add(game.dealer)
    assert dealers == {1, 2, 3, 4}


def test_starter_reverse_two_players_dealer_starts():
    game = deal([1, 2], {1: "G1", 2: "G2"}, "RR", "B1 B2", dealer=2)
    assert game.direction == -1
    assert_turn(game, 2)


def test_starter_skip_default_d_plus_2_starts():
    game, ev = start([1, 2, 3], {1: "G1", 2: "G2", 3: "G3"}, "RS", "B1", dealer=3)
    assert E.TurnSkipped(1) in ev
    assert_turn(game, 2)


def test_starter_wild_default_choose():
    game = deal(P3, {1: "G1", 2: "G2", 3: "G3"}, "W", "B1 B2 B3 B4")
    assert_turn(game, 1, Decision.CHOOSE_COLOR)


def test_starter_wild_redraw():
    game, ev = start(P3, {1: "G1", 2: "G2", 3: "G3"}, "W", "B1", dealer=3, starter_wild="redraw")
    assert of_type(ev, E.StarterReturned) and all(
        e.card == Card.of("W") for e in of_type(ev, E.StarterReturned)
    )
    assert game.top_card == Card.of("B1")
    assert codes(game.draw_pile) == "W"
    assert_turn(game, 1)


@pytest.mark.parametrize("special", ["WS", "WC"])
def test_special_wild_starters_are_redrawn(special):
    game, ev = start(P3, {1: "G1", 2: "G2", 3: "G3"}, special, "B1", dealer=3, deck="swap112")
    assert of_type(ev, E.StarterReturned)
    assert game.top_card == Card.of("B1")


def test_starter_shuffle_hands_is_redrawn():
    game, ev = start(P3, {1: "G1", 2: "G2", 3: "G3"}, "WX", "B1", dealer=3, deck="shuffle112")
    assert of_type(ev, E.StarterReturned)
    assert game.top_card == Card.of("B1")


# ------------------------------------------------------------------ Wild Draw Four rules


def _stacked_wd4_challenge(wd4_rule, second_hand):
    """1 plays a WD4 naming green; 2 stacks a WD4 (naming yellow); 3 challenges 2."""
    game = deal(
        P3,
        {1: "W4 B1 B2", 2: second_hand, 3: "Y1 Y3 Y4"},
        "R5",
        " ".join(["B5"] * 12),
        stacking="same",
        wd4_rule=wd4_rule,
    )
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    game.apply(2, play("W4"))
    game.apply(2, color("Y"))
    return game, game.apply(3, A.CHALLENGE)


def test_wd4_rule_no_playable_a_wild_makes_the_wd4_guilty():
    # Shown through a stacked WD4: outside stacking the engine refuses bluffs (see QA report).
    _, ev = _stacked_wd4_challenge("color", "W4 W Y2")
    assert of_type(ev, E.ChallengeResolved)[0].guilty is False
    assert drawn_by(ev) == {3: 10}
    _, ev = _stacked_wd4_challenge("no_playable", "W4 W Y2")
    assert of_type(ev, E.ChallengeResolved)[0].guilty is True
    assert drawn_by(ev) == {2: 8}


def test_wd4_rule_color_guilt_needs_the_colour_before():
    _, ev = _stacked_wd4_challenge("color", "W4 G1 Y2")
    assert of_type(ev, E.ChallengeResolved)[0].guilty is True
    _, ev = _stacked_wd4_challenge("no_playable", "W4 G1 Y2")
    assert of_type(ev, E.ChallengeResolved)[0].guilty is True
    _, ev = _stacked_wd4_challenge("no_playable", "W4 B7 Y2")
    assert of_type(ev, E.ChallengeResolved)[0].guilty is False


def test_wd4_rule_no_playable_same_number_other_colour_is_guilty():
    hands = {1: "W4 B5 G2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}
    results = {}
    for rule in ("color", "no_playable"):
        game = deal(P3, hands, "R5", "B1 " * 8, wd4_rule=rule)
        assert A.Play(Card.of("W4")) in game.legal_actions(1)  # a bluff is allowed
        game.apply(1, play("W4"))
        game.apply(1, color("B"))
        ev = game.apply(2, A.CHALLENGE)
        results[rule] = (of_type(ev, E.ChallengeResolved)[0].guilty, drawn_by(ev))
    assert results == {"color": (False, {2: 6}), "no_playable": (True, {1: 4})}


def test_wd4_rule_enforced_when_no_challenge_is_possible():
    # Engine interpretation: without a challenge a bluff could never be caught, so the rule
    # itself decides whether the WD4 may be played.
    hands = {1: "W4 R1 G2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}
    assert A.Play(Card.of("W4")) in deal(P3, hands, "R5", "B1").legal_actions(1)
    game = deal(P3, hands, "R5", "B1", wd4_challenge=False)
    assert A.Play(Card.of("W4")) not in game.legal_actions(1)
    assert_rejected(game, 1, play("W4"))


def test_wd4_rule_no_playable_allowed_with_nothing_else_playable():
    game = deal(P3, {1: "W4 B1", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "G1 " * 6, wd4_rule="no_playable")
    assert game.legal_actions(1)[0] == A.Play(Card.of("W4"))
    game.apply(1, play("W4"))
    game.apply(1, color("B"))
    assert_turn(game, 2, Decision.RESPOND)
    ev = game.apply(2, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is False
    assert drawn_by(ev) == {2: 6}


def test_wd4_rule_any_always_legal_and_never_challenged():
    hands = {1: "W4 R1", 2: "Y1 Y2", 3: "Y3 Y4"}
    game = deal(P3, hands, "R5", "G1 G2 G3 G4", wd4_rule="any", wd4_challenge=False)
    assert A.Play(Card.of("W4")) in game.legal_actions(1)
    game.apply(1, play("W4", uno=True))
    ev = game.apply(1, color("G"))
    assert drawn_by(ev) == {2: 4}
    assert_turn(game, 3)


def test_wd4_challenge_off_always_accepted():
    hands = {1: "W4 G1 G2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}
    official = deal(P3, hands, "R5", "B1 B2 B3 B4")
    official.apply(1, play("W4"))
    official.apply(1, color("B"))
    assert_turn(official, 2, Decision.RESPOND)
    assert A.CHALLENGE in official.legal_actions(2)

    game = deal(P3, hands, "R5", "B1 B2 B3 B4", wd4_challenge=False)
    game.apply(1, play("W4"))
    ev = game.apply(1, color("B"))
    assert drawn_by(ev) == {2: 4}
    assert of_type(ev, E.PenaltyAccepted) == [E.PenaltyAccepted(2, 4)]
    assert_turn(game, 3)


def test_challenge_only_by_the_victim():
    game = deal(P3, {1: "W4 G1 G2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}, "R5", "B1 " * 8)
    game.apply(1, play("W4"))
    game.apply(1, color("B"))
    assert A.CHALLENGE not in game.legal_actions(3)
    assert_rejected(game, 3, A.CHALLENGE, NotYourTurn)
    assert_rejected(game, 1, A.CHALLENGE, NotYourTurn)


@pytest.mark.parametrize("fail_draw", [0, 4, 10])
def test_challenge_fail_draw(fail_draw):
    game = deal(
        P3,
        {1: "W4 G1 G2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"},
        "R5",
        "B1 " * 12,
        challenge_fail_draw=fail_draw,
    )
    game.apply(1, play("W4"))
    game.apply(1, color("B"))
    ev = game.apply(2, A.CHALLENGE)
    assert drawn_by(ev).get(2, 0) == fail_draw
    assert E.TurnSkipped(2) in ev
    assert_turn(game, 3)


# ------------------------------------------------------------------ two-player Reverse


def test_two_player_reverse_pass_hands_the_turn_over():
    hands = {1: "RR G1 G2", 2: "B1 B2 B3"}
    official = deal([1, 2], hands, "R5", "Y1")
    official.apply(1, play("RR"))
    assert_turn(official, 1)
    game = deal([1, 2], hands, "R5", "Y1", two_player_reverse="pass")
    ev = game.apply(1, play("RR"))
    assert ev == [E.CardPlayed(1, Card.of("RR")), E.DirectionChanged(-1)]
    assert game.direction == -1
    assert_turn(game, 2)


def test_two_player_reverse_pass_does_not_change_three_players():
    hands = {1: "RR G1", 2: "B1 B2", 3: "Y1 Y2"}
    for mode in ("skip", "pass"):
        game = deal(P3, hands, "R5", "G7", two_player_reverse=mode)
        game.apply(1, play("RR"))
        assert_turn(game, 3)


# ------------------------------------------------------------------ stacking


def test_stacking_off_draw_two_is_taken_at_once():
    game = deal(P3, {1: "RD G1 G2", 2: "BD B1 B2", 3: "Y1 Y2 Y3"}, "R5", "G7 G8 G9 G6")
    ev = game.apply(1, play("RD"))
    assert drawn_by(ev) == {2: 2}
    assert_turn(game, 3)


def test_stacking_same_draw_two_on_draw_two_adds_up():
    game = deal(
        P3,
        {1: "RD G1 G2", 2: "BD B1 B2", 3: "Y1 Y2 Y3"},
        "R5",
        "G7 G8 G9 G6 G5",
        stacking="same",
    )
    game.apply(1, play("RD"))
    assert_turn(game, 2, Decision.RESPOND)
    assert set(game.legal_actions(2)) == {A.Play(Card.of("BD")), A.ACCEPT}
    ev = game.apply(2, play("BD"))
    assert drawn_by(ev) == {3: 4}
    assert of_type(ev, E.PenaltyAccepted) == [E.PenaltyAccepted(3, 4)]
    assert_turn(game, 1)


def test_stacking_same_responder_may_accept():
    game = deal(
        P3, {1: "RD G1 G2", 2: "BD B1 B2", 3: "Y1 Y2 Y3"}, "R5", "G7 G8 G9", stacking="same"
    )
    game.apply(1, play("RD"))
    ev = game.apply(2, A.ACCEPT)
    assert drawn_by(ev) == {2: 2}
    assert_turn(game, 3)


def test_stacking_same_no_wd4_on_draw_two():
    game = deal(
        P3, {1: "RD G1 G2", 2: "W4 B1 B2", 3: "Y1 Y2 Y3"}, "R5", "G7 G8 G9", stacking="same"
    )
    ev = game.apply(1, play("RD"))
    assert drawn_by(ev) == {2: 2}
    assert_turn(game, 3)


def test_stacking_mixed_never_draw_two_on_wd4():
    game = deal(
        P3,
        {1: "W4 G1 G2", 2: "BD B1 B2", 3: "Y1 Y2 Y3"},
        "R5",
        "G7 G8 G9 G6",
        stacking="mixed",
    )
    game.apply(1, play("W4"))
    game.apply(1, color("B"))
    assert_turn(game, 2, Decision.RESPOND)
    assert set(game.legal_actions(2)) == {A.ACCEPT, A.CHALLENGE}


def _stacked_wd4(stacking="same", **options):
    """1 plays WD4 (naming green), 2 stacks a WD4 while holding green (a bluff)."""
    game = deal(
        P3,
        {1: "W4 B1 B2", 2: "W4 G1 Y2", 3: "Y1 Y3 Y4"},
        "R5",
        " ".join(["B5"] * 12),
        stacking=stacking,
        **options,
    )
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    assert_turn(game, 2, Decision.RESPOND)
    assert A.Play(Card.of("W4")) in game.legal_actions(2)
    assert A.CHALLENGE in game.legal_actions(2)
    game.apply(2, play("W4"))
    game.apply(2, color("Y"))
    assert_turn(game, 3, Decision.RESPOND)
    assert game.penalty == 8
    return game


@pytest.mark.parametrize("stacking", ["same", "mixed"])
def test_stacking_wd4_on_wd4_accepted_draws_total(stacking):
    game = _stacked_wd4(stacking)
    ev = game.apply(3, A.ACCEPT)
    assert drawn_by(ev) == {3: 8}
    assert_turn(game, 1)


def test_stacking_challenge_of_stacked_wd4_guilty_offender_draws_total():
    game = _stacked_wd4()
    ev = game.apply(3, A.CHALLENGE)
    (res,) = of_type(ev, E.ChallengeResolved)
    assert (res.challenger, res.offender, res.guilty) == (3, 2, True)
    assert drawn_by(ev) == {2: 8}
    assert_turn(game, 3)  # V plays normally on the named colour
    assert game.top_card == Card.of("W4") and game.color is Y
    assert sizes(game) == {1: 2, 2: 10, 3: 3}


def test_stacking_challenge_of_stacked_wd4_failed_victim_draws_total_plus_2():
    game = deal(
        P3,
        {1: "W4 B1 B2", 2: "W4 R1 Y2", 3: "Y1 Y3 Y4"},
        "R5",
        " ".join(["B5"] * 12),
        stacking="same",
    )
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    game.apply(2, play("W4"))
    game.apply(2, color("Y"))
    ev = game.apply(3, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is False
    assert drawn_by(ev) == {3: 10}
    assert E.TurnSkipped(3) in ev
    assert_turn(game, 1)


def test_challenge_guilty_de_with_stacking():
    game = _stacked_wd4(challenge_guilty="de")
    ev = game.apply(3, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is True
    # the WD4 goes back to its player, the colour before it (green) is restored
    assert Card.of("W4") in game.hand(2)
    assert game.top_card == Card.of("W4") and len(game.discard) == 2
    assert game.color is G
    assert drawn_by(ev) == {2: 8}
    assert_turn(game, 3)
    # player 2 loses their next turn: 3 and 1 draw unplayable cards, 2 is passed over
    game.apply(3, A.DRAW)
    assert_turn(game, 1)
    ev = game.apply(1, A.DRAW)
    assert E.TurnSkipped(2) in ev
    assert_turn(game, 3)


def test_challenge_guilty_de():
    hands = {1: "W4 R1 G2", 2: "Y1 Y2 Y3", 3: "Y4 Y6 Y7"}
    official = deal(P3, hands, "R5", "B1 " * 12)
    official.apply(1, play("W4"))
    official.apply(1, color("G"))
    official.apply(2, A.CHALLENGE)
    assert official.top_card == Card.of("W4") and official.color is G

    game = deal(P3, hands, "R5", "B1 " * 12, challenge_guilty="de")
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    ev = game.apply(2, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is True
    # the WD4 returns to its player, the previous colour is restored, 4 cards drawn
    assert sorted_codes(game.hand(1)) == ["B1", "B1", "B1", "B1", "G2", "R1", "W4"]
    assert game.discard == [Card.of("R5")] and game.color is R
    assert drawn_by(ev) == {1: 4}
    assert_turn(game, 2)  # V plays normally
    game.apply(2, A.DRAW)  # B1: not playable on red 5
    assert_turn(game, 3)
    ev = game.apply(3, A.DRAW)
    assert E.TurnSkipped(1) in ev  # the offender loses their next turn
    assert_turn(game, 2)


def test_challenge_guilty_de_after_a_reshuffle_keeps_the_wd4_on_the_pile():
    # A catch between the WD4 and the challenge reshuffled what was under the WD4.
    game = deal(
        P3,
        {1: "W4 B1", 2: "W4 G1", 3: "Y1 Y2"},
        "R5",
        "",
        stacking="same",
        challenge_guilty="de",
    )
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    game.apply(2, play("W4"))  # no UNO call, and holds green: a bluff
    game.apply(2, color("Y"))
    ev = game.apply(3, A.Catch(2))
    assert of_type(ev, E.DeckReshuffled) == [E.DeckReshuffled(2)]
    assert game.discard == [Card.of("W4")]
    ev = game.apply(3, A.CHALLENGE)
    assert of_type(ev, E.ChallengeResolved)[0].guilty is True
    assert game.discard == [Card.of("W4")]
    assert game.color is G
    assert_turn(game, 3)
    assert game.legal_actions(3)  # the game goes on


# ------------------------------------------------------------------ deflecting (DE seed)


def test_deflect_d2_off_by_default_other_colour_draw_two_cannot_help():
    game = deal(P3, {1: "RD G1 G2", 2: "GD B1 B2", 3: "Y1 Y2 Y3"}, "R5", "B5 B6 B7 B8")
    ev = game.apply(1, play("RD"))
    assert drawn_by(ev) == {2: 2}


def test_deflect_d2_chain_wraps_around():
    game = deal(
        P3,
        {1: "RD BD G2", 2: "GD B1 B2", 3: "YD Y2 Y3"},
        "R5",
        "B5 B6 B7 B8",
        deflect_d2=True,
    )
    game.apply(1, play("RD"))
    game.apply(2, play("GD"))
    assert_turn(game, 3, Decision.RESPOND)
    game.apply(3, play("YD"))
    assert_turn(game, 1, Decision.RESPOND)
    ev = game.apply(1, A.ACCEPT)
    assert drawn_by(ev) == {1: 2}
    assert_turn(game, 2)


def test_deflect_wd4_with_draw_two_of_named_colour():
    hands = {1: "W4 B1 B2", 2: "GD YD R1", 3: "Y1 Y2 Y3"}
    game = deal(P3, hands, "R5", "B5 B6 B7 B8 B9", deflect_wd4=True)
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    assert_turn(game, 2, Decision.RESPOND)
    legal = set(game.legal_actions(2))
    assert A.Play(Card.of("GD")) in legal
    assert A.Play(Card.of("YD")) not in legal  # not the named colour
    ev = game.apply(2, play("GD"))
    assert drawn_by(ev) == {3: 2}  # the WD4 penalty is cancelled
    assert_turn(game, 1)
    assert sizes(game) == {1: 2, 2: 2, 3: 5}

    official = deal(P3, hands, "R5", "B5 B6 B7 B8 B9")
    official.apply(1, play("W4"))
    official.apply(1, color("G"))
    assert A.Play(Card.of("GD")) not in official.legal_actions(2)


def test_deflect_skip_identical_skip_passes_it_on():
    hands = {1: "RS G1 G2", 2: "RS B1 B2", 3: "Y1 Y2 Y3"}
    official = deal(P3, hands, "R5", "G7")
    official.apply(1, play("RS"))
    assert_turn(official, 3)

    game = deal(P3, hands, "R5", "G7", deflect_skip=True)
    game.apply(1, play("RS"))
    assert_turn(game, 2, Decision.RESPOND)
    assert set(game.legal_actions(2)) == {A.Play(Card.of("RS")), A.ACCEPT}
    ev = game.apply(2, play("RS"))
    assert E.TurnSkipped(3) in ev
    assert_turn(game, 1)


def test_deflect_skip_needs_the_same_colour():
    game = deal(P3, {1: "RS G1 G2", 2: "BS B1 B2", 3: "Y1 Y2 Y3"}, "R5", "G7", deflect_skip=True)
    ev = game.apply(1, play("RS"))
    assert E.TurnSkipped(2) in ev
    assert_turn(game, 3)


def test_deflect_skip_accept_loses_the_turn():
    game = deal(P3, {1: "RS G1 G2", 2: "RS B1 B2", 3: "Y1 Y2 Y3"}, "R5", "G7", deflect_skip=True)
    game.apply(1, play("RS"))
    ev = game.apply(2, A.ACCEPT)
    assert E.TurnSkipped(2) in ev
    assert drawn_by(ev) == {}
    assert_turn(game, 3)


# ------------------------------------------------------------------ going out, drawing


@pytest.mark.parametrize("last", ["RS", "RD", "W", "RR"])
def test_go_out_on_action_off(last):
    hands = {1: last, 2: "B1", 3: "Y2"}
    official = deal(P3, hands, "R5", "B7 B8 G9")
    official.apply(1, play(last))
    assert official.round_outcome.winner == 1
    game = deal(P3, hands, "R5", "B7 B8 G9", go_out_on_action=False)
    assert game.legal_actions(1) == [A.DRAW]
    game.apply(1, A.DRAW)  # B7: not playable
    assert game.card_count(1) == 2
    assert_turn(game, 2)


def test_go_out_on_action_off_number_card_may_go_out():
    game = deal(P3, {1: "R1", 2: "B1", 3: "Y2"}, "R5", "B7", go_out_on_action=False)
    game.apply(1, play("R1"))
    assert game.round_outcome.winner == 1


def test_voluntary_draw_off():
    hands = {1: "R1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}
    assert A.DRAW in deal(P3, hands, "R5", "B9").legal_actions(1)
    game = deal(P3, hands, "R5", "B9", voluntary_draw=False)
    assert A.DRAW not in game.legal_actions(1)
    assert A.Play(Card.of("R1")) in game.legal_actions(1)
    assert_rejected(game, 1, A.DRAW)
    # with nothing playable the draw is allowed
    game = deal(P3, {1: "G1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "B9", voluntary_draw=False)
    assert game.legal_actions(1) == [A.DRAW]


def test_draw_until_playable():
    hands = {1: "G1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}
    official = deal(P3, hands, "R5", "B1 G3 R9 B2")
    ev = official.apply(1, A.DRAW)
    assert drawn_by(ev) == {1: 1}
    assert_turn(official, 2)

    game = deal(P3, hands, "R5", "B1 G3 R9 B2", draw_until_playable=True)
    ev = game.apply(1, A.DRAW)
    assert of_type(ev, E.CardsDrawn) == [
        E.CardsDrawn(1, tuple(Card.of(c) for c in ("B1", "G3", "R9")), "choice")
    ]
    assert_turn(game, 1, Decision.PLAY_DRAWN)
    assert game.drawn == Card.of("R9")
    assert set(game.legal_actions(1)) == {A.Play(Card.of("R9")), A.KEEP}


def test_draw_until_playable_runs_out_of_cards():
    game = deal(P3, {1: "G1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "B1 G3", draw_until_playable=True)
    ev = game.apply(1, A.DRAW)
    assert drawn_by(ev) == {1: 2}
    assert_turn(game, 2)


def test_force_play_drawn():
    hands = {1: "G1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}
    game = deal(P3, hands, "R5", "R9 B1", force_play_drawn=True)
    game.apply(1, A.DRAW)
    assert game.legal_actions(1) == [A.Play(Card.of("R9"))]
    assert_rejected(game, 1, A.KEEP)
    game.apply(1, play("R9"))
    assert_turn(game, 2)


# ------------------------------------------------------------------ jump-in


def test_jump_in_off_by_default():
    game = deal([1, 2, 3, 4], {1: "R5 G1", 2: "B1 B2", 3: "R5 Y1", 4: "B3 B4"}, "R3", "G7 G8")
    game.apply(1, play("R5"))
    assert A.Play(Card.of("R5")) not in game.legal_actions(3)
    assert_rejected(game, 3, play("R5"), NotYourTurn)


def test_jump_in_needs_an_identical_card():
    game = deal(
        [1, 2, 3, 4],
        {1: "R5 G1", 2: "B1 B2", 3: "B5 R6", 4: "B3 B4"},
        "R3",
        "G7 G8",
        jump_in=True,
    )
    game.apply(1, play("R5"))
    assert [a for a in game.legal_actions(3) if isinstance(a, A.Play)] == []
    assert_rejected(game, 3, play("B5"))


def test_jump_in_not_on_wilds():
    game = deal([1, 2, 3], {1: "W G1", 2: "B1 B2", 3: "W Y1"}, "R3", "G7 G8", jump_in=True)
    game.apply(1, play("W"))
    game.apply(1, color("G"))
    assert [a for a in game.legal_actions(3) if isinstance(a, A.Play)] == []


def test_jump_in_not_while_a_penalty_is_pending():
    game = deal(
        P3,
        {1: "W4 G1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"},
        "R3",
        "G7 G8 G9 G6",
        jump_in=True,
        stacking="same",
    )
    game.apply(1, play("W4"))
    game.apply(1, color("G"))
    assert_turn(game, 2, Decision.RESPOND)
    assert [a for a in game.legal_actions(3) if isinstance(a, A.Play)] == []


def test_jump_in_on_a_draw_two_not_while_pending():
    game = deal(
        P3,
        {1: "RD G1 G2", 2: "RD B1 B2", 3: "RD Y2 Y3"},
        "R3",
        "G7 G8 G9 G6",
        jump_in=True,
        stacking="same",
    )
    game.apply(1, play("RD"))
    assert_turn(game, 2, Decision.RESPOND)
    # 3 holds the identical Draw Two but may not jump in on a pending penalty
    assert [a for a in game.legal_actions(3) if isinstance(a, A.Play)] == []


# ------------------------------------------------------------------ 7-0


def test_seven_o_off_seven_is_a_number():
    game = deal(P3, {1: "R7 G1", 2: "B1 B2", 3: "Y1 Y2"}, "R5", "G7")
    game.apply(1, play("R7"))
    assert_turn(game, 2)
    assert codes(game.hand(1)) == "G1"


def test_seven_o_seven_swaps_with_chosen_player():
    game = deal(P3, {1: "R7 G1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, "R5", "G7", seven_o=True)
    game.apply(1, play("R7"))
    assert_turn(game, 1, Decision.CHOOSE_TARGET)
    assert set(game.legal_actions(1)) == {A.ChooseTarget(2), A.ChooseTarget(3)}
    ev = game.apply(1, A.ChooseTarget(3))
    assert ev == [E.HandsSwapped(1, 3)]
    assert codes(game.hand(1)) == "Y1 Y2 Y3"
    assert codes(game.hand(3)) == "G1 G2"
    assert_turn(game, 2)


def test_seven_o_zero_rotates_hands_in_direction():
    hands = {1: "RR G1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3", 4: "R0 G3 G4"}
    game = deal([1, 2, 3, 4], hands, "R5", "G7", seven_o=True)
    game.apply(1, play("RR"))  # direction -1: next is 4
    ev = game.apply(4, play("R0"))
    assert E.HandsRotated(-1) in ev
    # every hand moves one seat in direction -1: 4 -> 3 -> 2 -> 1 -> 4
    assert codes(game.hand(3)) == "G3 G4"
    assert codes(game.hand(2)) == "Y1 Y2 Y3"
    assert codes(game.hand(1)) == "B1 B2 B3"
    assert codes(game.hand(4)) == "G1 G2"
    assert_turn(game, 3)


@pytest.mark.parametrize("last", ["R7", "R0"])
def test_seven_o_not_on_last_card(last):
    game = deal(P3, {1: last, 2: "B1", 3: "Y1"}, "R5", "G7", seven_o=True)
    ev = game.apply(1, play(last))
    assert of_type(ev, E.HandsSwapped) == [] and of_type(ev, E.HandsRotated) == []
    assert game.round_outcome.winner == 1


# ------------------------------------------------------------------ UNO penalties


def test_uno_penalty():
    hands = {1: "R1 R2", 2: "Y3 Y4", 3: "B3 B4"}
    for penalty in (0, 2, 4):
        game = deal(P3, hands, "R5", "G7 G8 G9 G6", uno_penalty=penalty)
        game.apply(1, play("R1"))
        ev = game.apply(2, A.Catch(1))
        assert of_type(ev, E.UnoCaught) == [E.UnoCaught(2, 1, penalty)]
        assert game.card_count(1) == 1 + penalty


def test_false_catch_penalty():
    hands = {1: "R1 R2", 2: "Y3 Y4", 3: "B3 B4"}
    official = deal(P3, hands, "R5", "G7 G8 G9 G6")
    official.apply(1, play("R1", uno=True))
    assert_rejected(official, 2, A.Catch(1))

    game = deal(P3, hands, "R5", "G7 G8 G9 G6", false_catch_penalty=1)
    game.apply(1, play("R1", uno=True))
    assert A.Catch(1) in game.legal_actions(2)
    ev = game.apply(2, A.Catch(1))
    assert ev == [E.FalseCatch(2, 1, 1), E.CardsDrawn(2, (Card.of("G7"),), "false_catch")]
    assert sizes(game) == {1: 1, 2: 3, 3: 2}


# ------------------------------------------------------------------ Swap / Shuffle as last card


def test_last_card_swap_apply_swaps_and_the_player_does_not_go_out():
    hands = {1: "WS", 2: "B1", 3: "Y2"}
    game = deal(P3, hands, "R5", "G7 G8", deck="swap112", last_card_swap="apply")
    ev = game.apply(1, play("WS"))
    assert of_type(ev, E.RoundEnded) == []
    # The one decision owed with an empty hand: the player names whom to give it to.
    assert_turn(game, 1, Decision.CHOOSE_TARGET)
    assert sizes(game) == {1: 0, 2: 1, 3: 1}
    assert game.legal_actions(1) == [A.ChooseTarget(2), A.ChooseTarget(3)]
    ev = game.apply(1, A.ChooseTarget(3))
    assert E.HandsSwapped(1, 3) in ev
    assert codes(game.hand(1)) == "Y2"
    # RULES §6: the target now holds the empty hand after a play, so the target goes out and
    # wins the round; no colour is named for the Swap Hands.
    assert of_type(ev, E.ColorChosen) == []
    assert game.round_outcome.winner == 3
    assert game.round_outcome.hand_points[1] == 2


def test_last_card_shuffle_win_ends_the_round():
    hands = {1: "WX", 2: "B1", 3: "Y2"}
    official = deal(P3, hands, "R5", "G7 G8", deck="shuffle112")
    ev = official.apply(1, play("WX"))
    assert E.HandsShuffled(1) in ev
    game = deal(P3, hands, "R5", "G7 G8", deck="shuffle112", last_card_shuffle="win")
    ev = game.apply(1, play("WX"))
    assert of_type(ev, E.HandsShuffled) == []
    assert game.round_outcome.winner == 1
    assert sizes(game) == {1: 0, 2: 1, 3: 1}


def test_shuffle_hands_last_card_too_few_cards_player_gets_none_goes_out():
    # 2 cards for 3 players, dealt from player 2: player 1 gets nothing (engine convention)
    game = deal(P3, {1: "WX", 2: "B1", 3: "Y2"}, "R5", "G7 G8", deck="shuffle112")
    game.apply(1, play("WX"))
    assert sizes(game) == {1: 0, 2: 1, 3: 1}
    assert game.round_outcome.winner == 1


# ------------------------------------------------------------------ custom_effect


def _custom(effect, hands=None, pile="G1 G2 G3 G4 G5 G6 G7 G8 G9 B9 B8 B7"):
    hands = hands or {1: "WC Y1 Y2", 2: "B1 B2 B3", 3: "R1 R2 R3"}
    game = deal(P3, hands, "R5", pile, deck="swap112", custom_effect=effect)
    game.apply(1, play("WC"))
    return game


def test_custom_effect_none_acts_as_a_wild():
    game = _custom("none")
    ev = game.apply(1, color("Y"))
    assert ev == [E.ColorChosen(1, Y)]
    assert_turn(game, 2)
    assert sizes(game) == {1: 2, 2: 3, 3: 3}


def test_custom_effect_swap_hands():
    game = _custom("swap_hands")
    game.apply(1, color("Y"))
    assert_turn(game, 1, Decision.CHOOSE_TARGET)
    game.apply(1, A.ChooseTarget(3))
    assert codes(game.hand(1)) == "R1 R2 R3"
    assert codes(game.hand(3)) == "Y1 Y2"
    assert_turn(game, 2)
    assert game.color is Y


def test_custom_effect_others_draw_2():
    game = _custom("others_draw_2")
    ev = game.apply(1, color("Y"))
    assert of_type(ev, E.CardsDrawn) == [
        E.CardsDrawn(2, (Card.of("G1"), Card.of("G2")), "effect"),
        E.CardsDrawn(3, (Card.of("G3"), Card.of("G4")), "effect"),
    ]
    assert sizes(game) == {1: 2, 2: 5, 3: 5}
    assert_turn(game, 2)


def test_custom_effect_play_again():
    game = _custom("play_again")
    ev = game.apply(1, color("Y"))
    assert E.PlayAgain(1) in ev
    assert_turn(game, 1)
    game.apply(1, play("Y1"))
    assert_turn(game, 2)


def test_custom_effect_draw_to_7():
    game = _custom("draw_to_7")
    ev = game.apply(1, color("Y"))
    assert drawn_by(ev) == {2: 4, 3: 4}
    assert sizes(game) == {1: 2, 2: 7, 3: 7}
    assert_turn(game, 2)


def test_custom_effect_draw_to_7_nobody_above_seven_draws():
    hands = {
        1: "WC Y1 Y2 Y3 Y4 Y5 Y6 Y7",
        2: "B1 B2 B3 B4 B5 B6 B7 B8",
        3: "R1 R2 R3 R4 R6 R7 R8 R9",
    }
    game = _custom("draw_to_7", hands)
    ev = game.apply(1, color("Y"))
    assert drawn_by(ev) == {}


# ------------------------------------------------------------------ scoring


def _one_round(**options):
    """Player 1 goes out; 2 holds B9 B8 + G9 (26 points, 3 cards), 3 holds Y9 Y7 + G8 (24, 3)."""
    game = deal(P3, {1: "R1 R2", 2: "B9 B8", 3: "Y9 Y7"}, "R5", "G9 G8 G7 G6", **options)
    game.apply(1, play("R1", uno=True))
    game.apply(2, A.DRAW)  # G9
    game.apply(3, A.DRAW)  # G8
    ev = game.apply(1, play("R2"))
    return game, ev


def test_scoring_standard():
    game, _ = _one_round()
    assert game.round_outcome.points == {1: 50, 2: 0, 3: 0}
    assert game.totals == {1: 50, 2: 0, 3: 0}
    assert game.decision is Decision.NEXT_ROUND


def test_scoring_standard_target_reached():
    game, ev = _one_round(target=50)
    assert game.decision is Decision.MATCH_OVER
    (ended,) = of_type(ev, E.MatchEnded)
    assert ended.outcome.termination is Termination.TARGET_REACHED
    assert ended.outcome.winners == (1,)
    assert game.legal_actions(1) == []
    assert_rejected(game, 1, A.NEXT_ROUND, GameOver)


def test_scoring_penalty():
    game, _ = _one_round(scoring="penalty")
    assert game.round_outcome.points == {1: 0, 2: 26, 3: 24}
    assert game.decision is Decision.NEXT_ROUND


def test_scoring_penalty_reacher_loses():
    game, ev = _one_round(scoring="penalty", penalty_end="reacher_loses", target=25)
    assert game.decision is Decision.MATCH_OVER
    assert of_type(ev, E.MatchEnded)[0].outcome.winners == (1, 3)


def test_scoring_penalty_lowest_wins_with_one_reacher():
    _, ev = _one_round(scoring="penalty", target=25)
    assert of_type(ev, E.MatchEnded)[0].outcome.winners == (1,)


def test_scoring_cards_count():
    game, _ = _one_round(scoring="cards_count")
    assert game.round_outcome.points == {1: 6, 2: 0, 3: 0}


def test_scoring_none_single_round():
    game, ev = _one_round(scoring="none")
    assert game.round_outcome.points == {1: 0, 2: 0, 3: 0}
    assert game.decision is Decision.MATCH_OVER
    outcome = of_type(ev, E.MatchEnded)[0].outcome
    assert outcome.termination is Termination.SINGLE_ROUND
    assert outcome.winners == (1,)


def test_scoring_elimination_reacher_out_then_head_to_head_decides():
    game, ev = _one_round(scoring="elimination", target=25)
    assert game.round_outcome.points == {1: 0, 2: 26, 3: 24}
    assert of_type(ev, E.PlayerEliminated) == [E.PlayerEliminated(2, 26)]
    assert game.decision is Decision.NEXT_ROUND
    game.apply(3, A.NEXT_ROUND)
    assert game.round_number == 2
    assert game.seats == [1, 3]
    assert game.legal_actions(2) == []
    assert_rejected(game, 2, A.DRAW, NotInGame)
    ev = autoplay_round(game)
    winner = game.round_outcome.winner
    assert game.decision is Decision.MATCH_OVER
    outcome = of_type(ev, E.MatchEnded)[0].outcome
    assert outcome.termination is Termination.LAST_STANDING
    assert outcome.winners == (winner,)


def test_next_round_dealer_passes_left():
    game, _ = _one_round()
    assert game.dealer == 3
    game.apply(2, A.NEXT_ROUND)
    assert game.round_number == 2
    assert game.dealer == 1
    assert sum(all_cards(game).values()) == 108


@pytest.mark.parametrize("target", [1, 51, 1_000_000])
def test_target(target):
    game, _ = _one_round(target=target)
    assert (game.decision is Decision.MATCH_OVER) == (target <= 50)


# ------------------------------------------------------------------ RuleSet validation


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("hand_size", 0),
        ("hand_size", 21),
        ("hand_size", "7"),
        ("hand_size", True),
        ("hand_size", 7.0),
        ("challenge_fail_draw", -1),
        ("challenge_fail_draw", 21),
        ("uno_penalty", 11),
        ("false_catch_penalty", -1),
        ("target", 0),
        ("deck", "classic"),
        ("starting_player", "right"),
        ("wd4_rule", "never"),
        ("stacking", True),
        ("scoring", "golf"),
        ("jump_in", 1),
        ("wd4_challenge", "yes"),
    ],
)
def test_invalid_values_raise_invalid_rules(option, value):
    with pytest.raises(InvalidRules) as err:
        RuleSet().with_options(**{option: value})
    assert err.value.option == option
    with pytest.raises(InvalidRules):
        RuleSet.from_dict({option: value})


def test_range_limits_are_accepted():
    for option, (low, high) in INT_RANGES.items():
        assert getattr(RuleSet().with_options(**{option: low}), option) == low
        assert getattr(RuleSet().with_options(**{option: high}), option) == high
    for option, choices in CHOICES.items():
        for choice in choices:
            try:
                RuleSet().with_options(**{option: choice})
            except InvalidRules as err:  # only combination errors are allowed here
                assert err.option != option or "not one of" not in err.reason


def test_unknown_option_raises_invalid_rules():
    with pytest.raises(InvalidRules) as err:
        RuleSet().with_options(colour_blind=True)
    assert err.value.option == "colour_blind"
    with pytest.raises(InvalidRules):
        RuleSet.from_dict({"stacking": "off", "nope": 1})
    with pytest.raises(InvalidRules):
        RuleSet.from_dict(["stacking"])


@pytest.mark.parametrize(
    "options",
    [
        {"wd4_rule": "any"},
        {"wd4_rule": "any", "wd4_challenge": True},
        {"deflect_d2": True, "stacking": "same"},
        {"deflect_wd4": True, "stacking": "mixed"},
        {"custom_effect": "play_again"},
        {"custom_effect": "swap_hands", "deck": "classic108"},
        {"penalty_end": "reacher_loses"},
        {"penalty_end": "reacher_loses", "scoring": "elimination"},
    ],
)
def test_contradictory_combinations_raise(options):
    with pytest.raises(InvalidRules):
        RuleSet(**options)
    with pytest.raises(InvalidRules):
        RuleSet.from_dict(options)


def test_valid_combinations():
    RuleSet(wd4_rule="any", wd4_challenge=False)
    RuleSet(deflect_d2=True, deflect_wd4=True, deflect_skip=True)
    RuleSet(custom_effect="draw_to_7", deck="shuffle112")
    RuleSet(scoring="penalty", penalty_end="reacher_loses", target=200)


def test_game_players_validation():
    with pytest.raises(InvalidRules):
        Game.new([1])
    with pytest.raises(InvalidRules):
        Game.new(list(range(11)))
    with pytest.raises(InvalidRules):
        Game.new([1, 1, 2])
    with pytest.raises(InvalidRules):
        Game.new([1, 2], dealer=3)


def test_rules_are_immutable():
    rules = RuleSet()
    with pytest.raises(AttributeError):
        rules.hand_size = 3


# ------------------------------------------------------------------ presets


def test_preset_official_is_the_default():
    assert RuleSet.preset("official") == RuleSet()
    assert RuleSet().changes() == {}


def test_preset_norway():
    assert RuleSet.preset("norway").changes() == {"scoring": "none"}


def test_preset_germany():
    de = RuleSet.preset("germany")
    assert de.changes() == {
        "deck": "swap112",
        "starting_player": "dealer",
        "wd4_rule": "no_playable",
        "challenge_guilty": "de",
        "two_player_reverse": "pass",
        "deflect_d2": True,
        "deflect_wd4": True,
        "deflect_skip": True,
        "go_out_on_action": False,
        "custom_effect": "swap_hands",
        "scoring": "penalty",
        "penalty_end": "reacher_loses",
        "target": 200,
    }


def test_preset_germany_cards():
    de = RuleSet.preset("germany_cards")
    assert de.scoring == "cards_count"
    assert de.penalty_end == "lowest_wins"
    assert de.target == 500
    assert de.with_options(scoring="penalty", penalty_end="reacher_loses", target=200) == (
        RuleSet.preset("germany")
    )


def test_preset_party():
    assert RuleSet.preset("party").changes() == {
        "stacking": "mixed",
        "jump_in": True,
        "seven_o": True,
        "draw_until_playable": True,
    }


def test_preset_unknown():
    with pytest.raises(InvalidRules):
        RuleSet.preset("klingon")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_plays_a_round(name):
    game = Game.new([1, 2, 3], RuleSet.preset(name), seed=3)
    autoplay_round(game)
    assert game.round_over
    assert game.round_outcome is not None


# ------------------------------------------------------------------ serialisation


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_round_trip(name):
    rules = RuleSet.preset(name)
    data = json.loads(json.dumps(rules.to_dict()))
    assert RuleSet.from_dict(data) == rules
    assert set(data) == OPTION_NAMES


def test_rules_from_dict_missing_options_take_defaults():
    assert RuleSet.from_dict({"stacking": "same"}) == RuleSet(stacking="same")
    assert RuleSet.from_dict({}) == RuleSet()


def test_game_round_trip_mid_game_continues_identically():
    game = Game.new([1, 2, 3], RuleSet.preset("party"), seed=11)
    for _ in range(15):
        if game.round_over:
            break
        p = game.current_player
        game.apply(p, game.default_action(p))
    data = json.loads(json.dumps(game.to_dict()))
    copy = Game.from_dict(data)
    assert copy == game and copy.to_dict() == game.to_dict()
    autoplay_round(game)
    autoplay_round(copy)
    assert copy.to_dict() == game.to_dict()


# ------------------------------------------------------------------ errors change nothing


def _simple():
    return deal(P3, {1: "R1 G2", 2: "Y1 Y2", 3: "Y3 Y4"}, "R5", "B9 B8")


def test_not_your_turn():
    game = _simple()
    assert_rejected(game, 2, A.DRAW, NotYourTurn)
    assert_rejected(game, 3, play("Y3"), NotYourTurn)


def test_illegal_actions():
    game = _simple()
    assert_rejected(game, 1, play("G2"))  # not playable
    assert_rejected(game, 1, play("B1"))  # not in hand
    assert_rejected(game, 1, A.KEEP)
    assert_rejected(game, 1, A.ACCEPT)
    assert_rejected(game, 1, A.CHALLENGE)
    assert_rejected(game, 1, color("R"))
    assert_rejected(game, 1, A.ChooseTarget(2))
    assert_rejected(game, 1, A.PASS)
    assert_rejected(game, 1, A.NEXT_ROUND)
    assert_rejected(game, 2, A.Catch(1))
    assert_rejected(game, 1, A.CALL_UNO)


def test_not_in_game():
    game = _simple()
    assert game.legal_actions(99) == []
    assert_rejected(game, 99, A.DRAW, NotInGame)
    assert_rejected(game, 99, A.LEAVE, NotInGame)


def test_game_over():
    game, _ = _one_round(scoring="none")
    for action in (A.DRAW, A.NEXT_ROUND, A.LEAVE, A.CALL_UNO):
        assert_rejected(game, 2, action, GameOver)


def test_errors_do_not_bump_the_version():
    game = _simple()
    version = game.version
    with pytest.raises(NotYourTurn):
        game.apply(2, A.DRAW)
    assert game.version == version
    game.apply(1, A.DRAW)
    assert game.version == version + 1


def test_rank_enum_matches_codes():
    assert Card.of("W4").rank is Rank.WILD_DRAW_FOUR
    assert sorted_codes([Card.of("r7")]) == ["R7"]
