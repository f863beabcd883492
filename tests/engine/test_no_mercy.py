"""Show 'Em No Mercy (rule preset `no_mercy`, docs/playing.md): one test per card, rule and
decision on the sheet's silent points, whole games of every computer level, snapshots and
provable records of a No Mercy game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.engine import Card, Color, Decision, Game, RoundEnd, RuleSet, Termination, build_deck
from bot.engine import actions as A
from bot.engine import events as E
from bot.engine.ai import make_player
from bot.engine.cards import COLORS, Rank
from bot.engine.record import build_record
from bot.engine.rules import InvalidRules
from bot.engine.search import ExpertPlayer
from bot.engine.verify import verify
from bot.engine.view import view_for
from tests.engine.matches import recorded_match

from .scenario import color, deal, drawn_by, of_type, play, sizes, start

NO_MERCY = RuleSet.preset("no_mercy")
P3 = [1, 2, 3]
#: Twenty harmless cards for a hand that must be big (the mercy rule's tests).
TWENTY = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y1 Y2 Y3 Y4 Y5 Y6 Y8 Y9 B1 B2 B3"


def nm(players, hands, starter, pile="", **options):
    """A No Mercy game dealt exactly so (scenario.deal under the preset)."""
    return deal(players, hands, starter, pile, rules=NO_MERCY, **options)


# ------------------------------------------------------------------ the deck and the preset


def test_the_deck_has_the_cited_168_cards():
    deck = build_deck("no_mercy168")
    assert len(deck) == 168
    per_color = Counter(c.rank for c in deck if c.color is Color.RED)
    assert per_color == {
        **{Rank(str(n)): 2 for n in range(10)},
        Rank.DRAW_TWO: 3,
        Rank.DRAW_FOUR: 2,
        Rank.SKIP: 3,
        Rank.SKIP_EVERYONE: 2,
        Rank.REVERSE: 3,
        Rank.DISCARD_ALL: 3,
    }
    assert {c: Counter(x.color for x in deck)[c] for c in COLORS} == dict.fromkeys(COLORS, 36)
    wilds = Counter(c.rank for c in deck if c.is_wild)
    assert wilds == {
        Rank.WILD_REVERSE_DRAW_FOUR: 8,
        Rank.WILD_DRAW_SIX: 4,
        Rank.WILD_DRAW_TEN: 4,
        Rank.WILD_COLOR_ROULETTE: 8,
    }
    assert Rank.WILD not in wilds and Rank.WILD_DRAW_FOUR not in wilds


def test_card_values_for_the_optional_scoring():
    assert [Card.of(c).points for c in ("R7", "RD4", "RSE", "RDA", "RD", "RS", "RR")] == [
        7,
        20,
        20,
        20,
        20,
        20,
        20,
    ]
    assert {Card.of(c).points for c in ("WR4", "W6", "W10", "WCR")} == {50}


def test_the_preset_is_the_sheet():
    assert NO_MERCY.deck == "no_mercy168" and NO_MERCY.hand_size == 7
    assert NO_MERCY.stacking == "mixed" and NO_MERCY.seven_o
    assert NO_MERCY.draw_until_playable and NO_MERCY.force_play_drawn
    assert NO_MERCY.mercy_limit == 25 and NO_MERCY.knockout_bonus == 250
    assert NO_MERCY.scoring == "none" and NO_MERCY.target == 1000
    assert RuleSet.from_dict(NO_MERCY.to_dict()) == NO_MERCY


def test_a_mercy_limit_that_a_deal_could_reach_is_refused():
    with pytest.raises(InvalidRules) as exc:
        RuleSet(mercy_limit=11)
    assert exc.value.option == "mercy_limit"
    assert RuleSet(mercy_limit=12).mercy_limit == 12


# ------------------------------------------------------------------ the deal and drawing


def test_an_opening_action_card_is_ignored_and_the_next_one_turned():
    game, events = start(
        P3, {1: "G1", 2: "G2", 3: "G3"}, "RSE", "W6 B5 Y1 Y2", rules=NO_MERCY, hand_size=1
    )
    assert of_type(events, E.StarterIgnored) == [
        E.StarterIgnored(Card.of("RSE")),
        E.StarterIgnored(Card.of("W6")),
    ]
    assert [c.code for c in game.discard] == ["RSE", "W6", "B5"]
    assert game.color is Color.BLUE
    assert game.current_player == 1 and game.decision is Decision.PLAY  # no skip happened


def test_with_no_match_you_draw_until_you_can_play_and_then_must_play_it():
    game = nm(P3, {1: "G1 G2", 2: "G3 G4", 3: "G5 G6"}, "R5", "B1 Y2 R9 B3")
    ev = game.apply(1, A.DRAW)
    assert drawn_by(ev) == {1: 3}
    assert game.decision is Decision.PLAY_DRAWN and game.drawn == Card.of("R9")
    assert game.legal_actions(1) == [play("R9")]  # no keeping it


def test_a_playable_card_may_be_declined_by_drawing():
    game = nm(P3, {1: "R1 G2", 2: "G3 G4", 3: "G5 G6"}, "R5", "B1 R9")
    assert A.DRAW in game.legal_actions(1)
    game.apply(1, A.DRAW)
    assert game.legal_actions(1) == [play("R9")]


# ------------------------------------------------------------------ stacking


def test_stacking_adds_a_draw_card_of_equal_or_higher_value_of_any_colour():
    hands = {1: "RD G1 G7 G8", 2: "BD YD4 W6 G2", 3: "G3 G4 G5 G6"}
    game = nm(P3, hands, "R5", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 B9")
    game.apply(1, play("RD"))
    assert game.current_player == 2 and game.decision is Decision.RESPOND
    legal = game.legal_actions(2)
    assert {a for a in legal if isinstance(a, A.Play)} == {play("BD"), play("YD4"), play("W6")}
    game.apply(2, play("W6"))
    ev = game.apply(2, color("G"))
    assert drawn_by(ev) == {3: 8}  # nothing to stack: takes the total and loses the turn
    assert game.current_player == 1 and game.penalty == 0


def test_a_lower_draw_card_cannot_be_stacked():
    game = nm(P3, {1: "W6 G1 G7", 2: "RD RD4 G2", 3: "G3 G4 G5"}, "R5", "Y1 Y2 Y3 Y4 Y5 Y6 B7")
    game.apply(1, play("W6"))
    ev = game.apply(1, color("R"))
    # Player 2 holds only lower draw cards: no decision to make, they draw 6 at once.
    assert drawn_by(ev) == {2: 6}
    assert game.current_player == 3


def test_skip_reverse_and_roulette_do_not_answer_a_stack():
    game = nm(P3, {1: "RD G1 G7", 2: "RS RR WCR", 3: "G3 G4 G5"}, "R5", "Y1 Y2 B3")
    ev = game.apply(1, play("RD"))
    assert drawn_by(ev) == {2: 2}  # none of them is a response: the penalty is taken
    assert game.current_player == 3


def test_stack_deflect_a_reverse_sends_the_stack_back():
    hands = {1: "RD G1 G7", 2: "RR G2 G3", 3: "G4 G5 G6"}
    game = nm(P3, hands, "R5", "Y1 Y2 Y3 Y4 B7", stack_deflect=True)
    game.apply(1, play("RD"))
    assert game.decision is Decision.RESPOND and play("RR") in game.legal_actions(2)
    ev = game.apply(2, play("RR"))
    assert game.direction == -1
    assert drawn_by(ev) == {1: 2}  # player 1 cannot answer: takes the stack, loses the turn
    assert game.current_player == 3


def test_stack_deflect_a_skip_passes_the_stack_on_and_it_can_still_be_stacked():
    hands = {1: "W6 G1 G7", 2: "BS G2 G3", 3: "W10 G5 G6"}
    pile = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 B7"
    game = nm(P3, hands, "R5", pile, stack_deflect=True)
    game.apply(1, play("W6"))
    game.apply(1, color("B"))
    game.apply(2, play("BS"))
    assert game.current_player == 3 and game.decision is Decision.RESPOND
    assert game.penalty == 6
    game.apply(3, play("W10"))  # stacked on the Wild Draw Six under the Skip
    ev = game.apply(3, color("G"))
    assert drawn_by(ev) == {1: 16}
    assert game.current_player == 2


def test_without_stack_deflect_a_skip_does_not_answer_a_stack():
    game = nm(P3, {1: "RD G1 G7", 2: "RS G2 G3", 3: "G4 G5 G6"}, "R5", "Y1 Y2 B7")
    ev = game.apply(1, play("RD"))
    assert drawn_by(ev) == {2: 2}


def test_wild_reverse_draw_four_turns_the_direction_and_the_player_before_draws():
    game = nm(P3, {1: "WR4 G1", 2: "G2 G3", 3: "B3 B4"}, "R5", "Y1 Y2 Y3 Y4 B7")
    game.apply(1, play("WR4"))
    ev = game.apply(1, color("G"))
    assert game.direction == -1
    assert drawn_by(ev) == {3: 4}
    assert game.current_player == 2 and game.color is Color.GREEN


def test_a_wild_reverse_draw_four_stacked_sends_the_total_back():
    game = nm(P3, {1: "WR4 G1", 2: "G2 G3", 3: "WR4 B4"}, "R5", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 B7")
    game.apply(1, play("WR4"))
    game.apply(1, color("G"))
    assert game.current_player == 3 and game.decision is Decision.RESPOND
    game.apply(3, play("WR4"))
    ev = game.apply(3, color("B"))
    assert game.direction == 1
    assert drawn_by(ev) == {1: 8}
    assert game.current_player == 2


# ------------------------------------------------------------------ the other action cards


def test_skip_everyone_gives_the_player_another_turn():
    game = nm(P3, {1: "RSE G1", 2: "G2 G3", 3: "G4 G5"}, "R5", "Y1")
    ev = game.apply(1, play("RSE"))
    assert of_type(ev, E.TurnSkipped) == [E.TurnSkipped(2), E.TurnSkipped(3)]
    assert game.current_player == 1 and game.decision is Decision.PLAY


def test_reverse_skips_with_two_players():
    game = nm([1, 2], {1: "RR G1", 2: "G2 G3"}, "R5", "Y1")
    game.apply(1, play("RR"))
    assert game.current_player == 1


def test_discard_all_discards_every_card_of_its_colour():
    game = nm(P3, {1: "RDA R1 R7 B2", 2: "G2 G3 G4 G5", 3: "G6 G7 G8 G9"}, "R5", "Y1")
    ev = game.apply(1, play("RDA"))
    assert of_type(ev, E.CardsDiscarded) == [E.CardsDiscarded(1, (Card.of("R1"), Card.of("R7")))]
    assert [c.code for c in game.hand(1)] == ["B2"]
    assert [c.code for c in game.discard] == ["R5", "R1", "R7", "RDA"]
    assert game.top_card == Card.of("RDA") and game.color is Color.RED
    assert game.current_player == 2
    assert 1 in game.at_risk  # down to one card: UNO may still be called
    assert A.CALL_UNO in game.legal_actions(1)


def test_discard_all_that_empties_the_hand_goes_out():
    game = nm(P3, {1: "RDA R1 R7", 2: "G2 G3 G4", 3: "G6 G7 G8"}, "R5", "Y1", scoring="standard")
    game.apply(1, play("RDA"))
    assert game.round_outcome is not None and game.round_outcome.winner == 1


def test_colour_roulette_the_next_player_names_a_colour_and_turns_cards_until_it_comes():
    game = nm(P3, {1: "WCR G1", 2: "G2 G3", 3: "G4 G5"}, "R5", "R1 W6 B2 G3 Y4")
    game.apply(1, play("WCR", uno=True))
    assert game.current_player == 2 and game.decision is Decision.CHOOSE_COLOR
    assert game.legal_actions(1) == []
    ev = game.apply(2, color("G"))
    assert [c.code for e in of_type(ev, E.CardsDrawn) for c in e.cards] == ["R1", "W6", "B2", "G3"]
    assert sizes(game) == {1: 1, 2: 6, 3: 2}
    assert game.color is Color.GREEN and game.top_card == Card.of("WCR")
    assert game.current_player == 3  # the victim lost the turn


def test_roulette_with_two_players():
    game = nm([1, 2], {1: "WCR G1", 2: "G2 G3"}, "R5", "B4 Y2")
    game.apply(1, play("WCR"))
    game.apply(2, color("Y"))
    assert sizes(game) == {1: 1, 2: 4} and game.current_player == 1


# ------------------------------------------------------------------ 7-0


def test_seven_swaps_with_a_chosen_player():
    game = nm(P3, {1: "R7 G1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, "R5", "G7")
    game.apply(1, play("R7"))
    assert game.decision is Decision.CHOOSE_TARGET
    game.apply(1, A.ChooseTarget(3))
    assert [c.code for c in game.hand(1)] == ["Y1", "Y2", "Y3"]
    assert game.current_player == 2


def test_zero_passes_every_hand_in_the_direction_of_play():
    game = nm(P3, {1: "R0 G1 G2", 2: "B1 B2 B3", 3: "Y1 Y2 Y3"}, "R5", "G7")
    game.apply(1, play("R0"))
    assert [c.code for c in game.hand(2)] == ["G1", "G2"]
    assert [c.code for c in game.hand(3)] == ["B1", "B2", "B3"]
    assert [c.code for c in game.hand(1)] == ["Y1", "Y2", "Y3"]


@pytest.mark.parametrize("last", ["R7", "R0"])
def test_a_seven_or_zero_as_the_last_card_wins_without_swapping(last):
    game = nm(P3, {1: last, 2: "B1", 3: "Y1"}, "R5", "G7")
    ev = game.apply(1, play(last))
    assert not of_type(ev, E.HandsSwapped) and not of_type(ev, E.HandsRotated)
    assert game.round_outcome is not None and game.round_outcome.winner == 1


def test_a_draw_card_as_the_last_card_still_makes_the_next_player_draw():
    game = nm(P3, {1: "W6", 2: "B1", 3: "Y1"}, "R5", "G1 G2 G3 G4 G5 G6")
    ev = game.apply(1, play("W6"))
    assert drawn_by(ev) == {2: 6}
    assert game.round_outcome is not None and game.round_outcome.winner == 1


# ------------------------------------------------------------------ the mercy rule


def test_reaching_25_cards_knocks_out_mid_penalty_and_the_rest_is_not_drawn():
    hands = {1: "W10 " + TWENTY[3:], 2: TWENTY, 3: TWENTY}
    pile = "G1 G2 G3 G4 G5 G6 G7 G8 G9 R1 R2"
    game = nm(P3, hands, "R5", pile, hand_size=20)
    game.apply(1, play("W10"))
    ev = game.apply(1, color("B"))
    assert drawn_by(ev) == {2: 5}  # the 25th card knocks them out: the other 5 stay
    assert of_type(ev, E.PlayerKnockedOut) == [E.PlayerKnockedOut(2, 25)]
    assert game.seats == [1, 3] and game.knocked_out == [2]
    assert 2 not in game.held
    assert len(game.draw_pile) == 6 + 25  # their hand went face down under the draw pile
    assert sorted(c.code for c in game.draw_pile[:25]) == sorted(
        [*TWENTY.split(), "G1", "G2", "G3", "G4", "G5"]
    )
    assert game.current_player == 3
    total = sum(len(h) for h in game.hands.values()) + len(game.draw_pile) + len(game.discard)
    assert total == 60 + 1 + len(pile.split())


def test_the_mercy_check_happens_mid_draw_even_on_a_playable_card():
    hands = {1: "G1 " + TWENTY[3:], 2: TWENTY, 3: TWENTY}
    game = nm(P3, hands, "R5", "G2 G3 G4 G6 R9 R8", hand_size=20)
    ev = game.apply(1, A.DRAW)  # 20 cards, no red: four greens, then the red 9 is the 25th
    assert drawn_by(ev) == {1: 5}
    assert of_type(ev, E.PlayerKnockedOut) == [E.PlayerKnockedOut(1, 25)]
    assert game.seats == [2, 3] and game.current_player == 2


def test_the_last_player_left_wins_the_round_and_scores_each_knock_out():
    hands = {1: "W10 " + TWENTY[3:], 2: TWENTY}
    game = nm([1, 2], hands, "R5", "G1 G2 G3 G4 G5 G6", hand_size=20, scoring="standard")
    game.apply(1, play("W10"))
    ev = game.apply(1, color("B"))
    outcome = game.round_outcome
    assert outcome is not None and outcome.reason is RoundEnd.LAST_STANDING
    assert outcome.winner == 1
    assert outcome.points == {1: 250, 2: 0}  # the knock-out, not the cards they held
    assert of_type(ev, E.RoundEnded)


def test_one_round_decides_by_default():
    hands = {1: "W10 " + TWENTY[3:], 2: TWENTY}
    game = nm([1, 2], hands, "R5", "G1 G2 G3 G4 G5 G6", hand_size=20)
    game.apply(1, play("W10"))
    game.apply(1, color("B"))
    assert game.outcome is not None and game.outcome.termination is Termination.SINGLE_ROUND
    assert game.outcome.winners == (1,)


def test_knocked_out_players_are_back_for_the_next_round():
    hands = {1: "W10 " + TWENTY[3:], 2: TWENTY, 3: TWENTY}
    game = nm(P3, hands, "R5", "G1 G2 G3 G4 G5 G6 G7 G8 G9 G1", hand_size=20, scoring="standard")
    game.apply(1, play("W10"))
    game.apply(1, color("B"))
    assert game.knocked_out == [2] and game.current_player == 3
    game.hands[3] = [Card.of("B5")]  # (a shortcut to the end of the round)
    game.apply(3, play("B5"))
    outcome = game.round_outcome
    assert outcome is not None and outcome.winner == 3
    assert set(outcome.hand_points) == {1, 3}
    assert outcome.points == {1: 0, 2: 0, 3: outcome.hand_points[1] + 250}
    game.apply(1, A.NEXT_ROUND)
    assert game.seats == P3 and game.knocked_out == []


def test_a_leave_that_leaves_one_player_in_the_round_ends_it():
    hands = {1: "W10 " + TWENTY[3:], 2: TWENTY, 3: TWENTY}
    game = nm(P3, hands, "R5", "G1 G2 G3 G4 G5 G6 G7 G8 G9 G1", hand_size=20)
    game.apply(1, play("W10"))
    game.apply(1, color("B"))
    assert game.knocked_out == [2] and game.seats == [1, 3]
    ev = game.apply(3, A.LEAVE)
    outcome = game.round_outcome
    assert outcome is not None and outcome.winner == 1
    assert outcome.reason is RoundEnd.LAST_STANDING
    assert of_type(ev, E.RoundEnded)
    assert game.outcome is not None and game.outcome.winners == (1,)  # one round decides


def test_a_knocked_out_game_survives_a_snapshot():
    hands = {1: "W10 " + TWENTY[3:], 2: TWENTY, 3: TWENTY}
    game = nm(P3, hands, "R5", "G1 G2 G3 G4 G5 G6 G7 G8 G9 R1 R2", hand_size=20)
    game.apply(1, play("W10"))
    game.apply(1, color("B"))
    restored = Game.from_dict(game.to_dict())
    assert restored == game and restored.knocked_out == [2]
    assert view_for(restored, 1).seat(2).knocked_out


# ------------------------------------------------------------------ whole games


def _whole_game(seed: int, kinds: list[str]) -> Game:
    ids = list(range(1, len(kinds) + 1))
    players: dict[int, object] = {}
    for pid, kind in zip(ids, kinds, strict=True):
        if kind == "expert":  # a small budget: legality, not strength, is tested here
            players[pid] = ExpertPlayer(playouts=24, budget=10.0, rng=random.Random(seed + pid))
        else:
            players[pid] = make_player(kind, seed=seed + pid)
    game = Game.new(ids, NO_MERCY, seed=seed)
    for _ in range(3000):
        if game.round_over:
            return game
        # Anyone may act out of turn (UNO calls, catches) before the player to move.
        for pid in ids:
            if pid in game.seats and pid != game.current_player:
                action = players[pid].choose(view_for(game, pid))
                if action is not None:
                    assert action in game.legal_actions(pid)
                    game.apply(pid, action)
                    break
        if game.round_over:
            return game
        current = game.current_player
        assert current is not None
        view = view_for(game, current)
        action = players[current].choose(view)
        assert action is not None and action in view.legal, (action, view.legal)
        game.apply(current, action)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", range(4))
def test_every_level_plays_whole_no_mercy_games_legally(seed):
    kinds = ["easy", "normal", "hard", "expert"]
    kinds = kinds[seed:] + kinds[:seed]  # each level in each seat
    game = _whole_game(seed, kinds)
    assert game.outcome is not None and game.outcome.winners
    assert sum(len(h) for h in game.hands.values()) + len(game.pile) + len(game.discards) == 168


# ------------------------------------------------------------------ records


@pytest.fixture(scope="module")
def no_mercy_record():
    rules = NO_MERCY.with_options(scoring="standard", target=300)
    return build_record(**recorded_match(5, rules))


def test_a_no_mercy_record_verifies(no_mercy_record):
    assert no_mercy_record["rules"]["deck"] == "no_mercy168"
    assert len(no_mercy_record["rounds"][0]["deck"]) == 168
    verdict = verify(no_mercy_record)
    assert verdict.ok, verdict.message


def test_an_altered_no_mercy_record_fails(no_mercy_record):
    import copy

    bad = copy.deepcopy(no_mercy_record)
    first = bad["rounds"][0]
    first["deck"][0], first["deck"][-1] = first["deck"][-1], first["deck"][0]
    if first["deck"][0] == first["deck"][-1]:
        first["deck"][0] = "W10" if first["deck"][0] != "W10" else "WCR"
    assert not verify(bad).ok
