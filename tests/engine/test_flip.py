"""UNO Flip (preset `flip`, deck `flip112`): its two-sided cards, the round's pairing of the
sides, turning over, its cards, scoring on the side in play, the first card, every decision on
the sheet's silent points (docs/playing.md, "UNO Flip"), snapshots, records and what each
player may see of the cards' other sides."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Card, Color, Decision, Game, RuleSet, build_deck
from bot.engine import actions as A
from bot.engine import events as E
from bot.engine.ai import make_player
from bot.engine.cards import COLORS, DARK_COLORS, Rank, flip_side_deck
from bot.engine.errors import IllegalAction
from bot.engine.faces import CARDS
from bot.engine.flip import light_pairs, pairing, pairing_of
from bot.engine.record import build_record
from bot.engine.search import ExpertPlayer
from bot.engine.verify import verify
from bot.engine.view import view_for
from tests.conftest import examples
from tests.engine.matches import recorded_match

from .scenario import color, deal, drawn_by, of_type, play, sizes, start

FLIP = RuleSet.preset("flip")
P2 = [1, 2]
P3 = [1, 2, 3]
_SAME_PLACE = {
    Rank.DRAW_ONE: Rank.DRAW_FIVE,
    Rank.SKIP: Rank.SKIP_EVERYONE,
    Rank.WILD: Rank.DARK_WILD,
    Rank.WILD_DRAW_TWO: Rank.WILD_DRAW_COLOR,
}
#: A pairing to read positions by: each light card with the dark card in its place (Red 7 with
#: Pink 7, Draw One with Draw Five, Skip with Skip Everyone, Wild with Dark Wild, Wild Draw Two
#: with Wild Draw Colour; pink stands by red, teal by yellow, orange by green, purple by blue).
PARALLEL = pairing_of(
    {
        c: Card.of(
            (DARK_COLORS[COLORS.index(c.color)].value if c.color else "")
            + _SAME_PLACE.get(c.rank, c.rank).value
        )
        for c in set(build_deck("flip112"))
    }
)


def fl(players, hands, starter, pile="", **options) -> Game:
    """A Flip game dealt exactly so, its sides paired by PARALLEL."""
    game = deal(players, hands, starter, pile, rules=FLIP, **options)
    game.flip_pairs = PARALLEL
    game.touch()
    return game


def codes(cards) -> list[str]:
    return [c.code for c in cards]


# ------------------------------------------------------------------ the deck and the pairing


def test_each_side_has_the_sheets_112_cards():
    for dark, colors, actions, wilds in (
        (False, COLORS, (Rank.DRAW_ONE, Rank.REVERSE, Rank.SKIP, Rank.FLIP), ("W", "W2")),
        (
            True,
            DARK_COLORS,
            (Rank.DRAW_FIVE, Rank.REVERSE, Rank.SKIP_EVERYONE, Rank.FLIP),
            ("WK", "WDC"),
        ),
    ):
        deck = flip_side_deck(dark=dark)
        assert len(deck) == 112
        for col in colors:
            per_color = Counter(c.rank for c in deck if c.color is col)
            assert per_color == {
                **{Rank(str(n)): 2 for n in range(1, 10)},
                **dict.fromkeys(actions, 2),
            }
        assert Counter(c.code for c in deck if c.is_wild) == dict.fromkeys(wilds, 4)
    assert build_deck("flip112") == flip_side_deck(dark=False)


def test_dark_cards_have_codes_and_names_of_their_own():
    assert Card.of("PD5").name == "Pink Draw Five" and Card.of("V7").color is Color.PURPLE
    assert Card.of("TSE").name == "Teal Skip Everyone" and Card.of("OF").name == "Orange Flip"
    assert (Card.of("WK").name, Card.of("WDC").name) == ("Dark Wild", "Wild Draw Color")
    assert (Card.of("RD1").name, Card.of("YF").name) == ("Red Draw One", "Yellow Flip")
    light = {c.code for c in flip_side_deck(dark=False)}
    dark = {c.code for c in flip_side_deck(dark=True)}
    assert not light & dark and len(light) == len(dark) == 54


def test_card_values_on_each_side():
    # (Card.points; the light Wild, a classic face, scores 40 in Flip: scoring.hand_value)
    values = {c: Card.of(c).points for c in ("R7", "RD1", "RR", "RS", "RF", "W2")}
    assert values == {"R7": 7, "RD1": 10, "RR": 20, "RS": 20, "RF": 20, "W2": 50}
    values = {c: Card.of(c).points for c in ("P7", "PD5", "PR", "PSE", "PF", "WK", "WDC")}
    assert values == {"P7": 7, "PD5": 20, "PR": 20, "PSE": 30, "PF": 20, "WK": 40, "WDC": 60}
    assert Card.of("RSE").points == 20  # No Mercy's Skip Everyone keeps its 20


def test_the_pairing_comes_from_the_round_seed_and_pairs_kinds_of_the_same_sort():
    seed = bytes(range(32))
    other = pairing(seed)
    assert other == pairing(seed) and other != pairing(bytes(32))
    pairs = light_pairs(other)
    assert len(pairs) == 54 and len(set(pairs.values())) == 54
    assert all(light.is_wild == dark.is_wild for light, dark in pairs.items())
    assert all(dark.color in DARK_COLORS for dark in pairs.values() if not dark.is_wild)
    assert pairing_of(pairs) == other
    game = Game.new(P3, FLIP, seed=3)
    assert game.flip_pairs == pairing(game.round_seed)


def test_the_preset_is_the_sheet():
    assert FLIP.deck == "flip112" and FLIP.hand_size == 7 and FLIP.target == 500
    assert FLIP.scoring == "standard" and FLIP.stacking == "off" and FLIP.wd4_challenge
    assert FLIP.two_player_reverse == "skip" and FLIP.voluntary_draw
    assert not FLIP.force_play_drawn and not FLIP.draw_until_playable


# ------------------------------------------------------------------ turning over


def test_a_flip_turns_hands_and_both_piles_over():
    game = fl(P3, {1: "RF R1", 2: "Y2 Y3", 3: "G4 B5"}, "R9", "B1 B2 W")
    game.discard = [Card.of("Y7"), Card.of("R9")]  # a pile of two, then the Flip on top
    events = game.apply(1, play("RF"))
    assert game.dark
    # The discard pile turned over: the Flip at the bottom, the old bottom card (Y7) on top as
    # its other side (T7); teal is now the colour.
    assert codes(game.discard) == ["T7", "P9", "PF"][::-1] and game.color is Color.TEAL
    assert codes(game.hands[1]) == ["P1"] and codes(game.hands[3]) == ["O4", "V5"]
    # The draw pile turned over too: its order reversed (its bottom card is now on top).
    # (B1 was to be drawn first, then B2, then the Wild: now the Dark Wild comes first)
    assert codes(game.draw_pile) == ["V1", "V2", "WK"]
    assert of_type(events, E.SidesFlipped) == [E.SidesFlipped(1, True, Card.of("T7"))]
    assert game.current_player == 2 and codes(game.hands[2]) == ["T2", "T3"]
    game.apply(2, A.DRAW)
    assert Card.of("WK") in game.hands[2]


def test_flipping_twice_gives_the_light_side_back():
    game = fl(P2, {1: "RF R1 R2", 2: "RF Y3 Y4"}, "R9", "B1 B2")
    game.apply(1, play("RF"))  # two players: the turn passes to 2
    assert game.current_player == 2 and game.dark and codes(game.discard) == ["PF", "P9"]
    game.apply(2, play("PF"))
    assert not game.dark and game.current_player == 1
    # [PF, P9, PF] turned over: the first Flip, at the bottom since, is on top again.
    assert codes(game.discard) == ["RF", "R9", "RF"] and game.color is Color.RED
    assert codes(game.hands[1]) == ["R1", "R2"] and codes(game.hands[2]) == ["Y3", "Y4"]


def test_a_flip_revealing_a_wild_lets_the_flipper_name_the_colour():
    game = fl(P3, {1: "RF R1", 2: "Y2 Y3", 3: "G4 B5"}, "R9", "B1 B2")
    game.discard = [Card.of("W2"), Card.of("R9")]  # a Wild Draw Two at the bottom
    game.apply(1, play("RF"))
    assert game.top_card == Card.of("WDC") and game.decision is Decision.CHOOSE_COLOR
    assert game.current_player == 1 and game.card_count(2) == 2  # nobody draws: no effect
    assert A.ChooseColor(Color.ORANGE) in game.legal_actions(1)
    with pytest.raises(IllegalAction):
        game.apply(1, color("G"))  # a light colour on the dark side
    game.apply(1, color("O"))
    assert game.color is Color.ORANGE and game.current_player == 2


def test_a_flip_revealing_an_action_card_has_no_effect():
    game = fl(P3, {1: "RF R1", 2: "Y2 Y3", 3: "G4 B5"}, "R9", "B1 B2")
    game.discard = [Card.of("GS"), Card.of("R9")]  # a Skip underneath: Skip Everyone above
    game.apply(1, play("RF"))
    assert game.top_card == Card.of("OSE") and game.current_player == 2
    assert sizes(game) == {1: 1, 2: 2, 3: 2}


def test_a_flip_as_the_last_card_is_carried_out_and_scored_on_the_new_side():
    game = fl(P2, {1: "RF", 2: "W"}, "R9", "B1")
    events = game.apply(1, play("RF"))
    outcome = game.round_outcome
    assert of_type(events, E.SidesFlipped) and game.dark
    assert outcome is not None and outcome.winner == 1
    assert outcome.hand_points == {1: 0, 2: 40} and outcome.points[1] == 40  # a Dark Wild


# ------------------------------------------------------------------ the cards


def test_draw_one_and_draw_five():
    game = fl(P3, {1: "RD1 R1", 2: "Y2 Y3", 3: "G4 B5"}, "R9", "B1 B2 B3 B4 B5 B6 B7")
    events = game.apply(1, play("RD1"))
    assert drawn_by(events) == {2: 1} and game.current_player == 3
    game = fl(P3, {1: "RF R1 R2", 2: "Y2 Y3 Y4", 3: "G4 B5 B6"}, "R9", "B1 B2 B3 B4 B5 B6 B7")
    game.discard = [Card.of("RD1"), Card.of("R9")]
    game.apply(1, play("RF"))  # now pink Draw Five's face... is at the bottom: PD5 on top
    assert game.top_card == Card.of("PD5")
    game.hands[2] = [Card.of("PD5"), Card.of("T1")]
    events = game.apply(2, play("PD5"))
    assert drawn_by(events) == {3: 5} and game.current_player == 1


def test_skip_everyone_gives_the_player_another_turn():
    game = fl(P3, {1: "RS R1", 2: "Y2 Y3", 3: "G4 B5"}, "R9", "B1 B2")
    game.apply(1, play("RS"))
    assert game.current_player == 3  # light side: a plain Skip
    game = fl(P3, {1: "RF R1 R2", 2: "Y2 Y3 Y4", 3: "G4 B5 B6"}, "R9", "B1 B2")
    game.apply(1, play("RF"))
    game.hands[2] = [Card.of("PSE"), Card.of("P3")]
    events = game.apply(2, play("PSE"))
    assert game.current_player == 2
    assert [e.player for e in of_type(events, E.TurnSkipped)] == [3, 1]


def test_reverse_with_two_players_acts_as_a_skip():
    game = fl(P2, {1: "RR R1", 2: "Y2 Y3"}, "R9", "B1 B2")
    game.apply(1, play("RR"))
    assert game.current_player == 1


@pytest.mark.parametrize(("guilty", "drawn"), [(True, {1: 2}), (False, {2: 4})])
def test_wild_draw_two_is_challenged_as_a_wild_draw_four(guilty, drawn):
    hand = "W2 R1 B3" if guilty else "W2 B3 B4"
    game = fl(P3, {1: hand, 2: "Y2 Y3 Y4", 3: "G4 B5 B6"}, "R9", "B1 B2 B3 B4 B5 B6 B7")
    game.apply(1, play("W2"))
    game.apply(1, color("B"))
    assert A.CHALLENGE in game.legal_actions(2) and game.penalty == 2
    events = game.apply(2, A.CHALLENGE)
    assert drawn_by(events) == drawn
    assert game.current_player == (2 if guilty else 3)


def test_an_unchallenged_wild_draw_two():
    game = fl(P3, {1: "W2 B3 B4", 2: "Y2 Y3 Y4", 3: "G4 B5 B6"}, "R9", "B1 B2 B3 B4")
    game.apply(1, play("W2"))
    game.apply(1, color("B"))
    events = game.apply(2, A.ACCEPT)
    assert drawn_by(events) == {2: 2} and game.current_player == 3


def test_a_wild_draw_two_is_legal_only_without_the_colour_when_drawn():
    game = fl(P3, {1: "R1 B3", 2: "Y2 Y3", 3: "G4 B5"}, "R9", "W2")
    game.apply(1, A.DRAW)  # a drawn Wild Draw Two, holding red: not playable
    assert game.decision is Decision.PLAY and game.current_player == 2


def _on_the_dark_side(hands: dict[int, str], pile: str) -> Game:
    """A game turned to its dark side by player 3's Flip, player 1 to play; `hands` and `pile`
    given as dark cards (set after the flip)."""
    game = fl(P3, {1: "R1 R2", 2: "Y2 Y3", 3: "RF G4"}, "R9", "B1", dealer=2)
    game.apply(3, play("RF"))
    assert game.dark and game.current_player == 1
    for p, cards in hands.items():
        game.hands[p] = [Card.of(c) for c in cards.split()]
    game.draw_pile = [Card.of(c) for c in pile.split()][::-1]  # the first one drawn first
    return game


def test_wild_draw_colour_draws_until_the_colour_named():
    game = _on_the_dark_side({1: "WDC T1", 2: "T2 T3"}, "P1 O2 V3 T4 P5")
    game.apply(1, play("WDC"))
    game.apply(1, color("V"))
    assert game.decision is Decision.RESPOND and A.CHALLENGE in game.legal_actions(2)
    events = game.apply(2, A.ACCEPT)
    assert codes(of_type(events, E.CardsDrawn)[0].cards) == ["P1", "O2", "V3"]
    assert game.current_player == 3


@pytest.mark.parametrize("guilty", [True, False])
def test_wild_draw_colour_challenged(guilty):
    hand = "WDC P4 T1" if guilty else "WDC T1 T5"
    game = _on_the_dark_side({1: hand, 2: "T2 T3"}, "O1 O2 V3 T4 P5 V6 V7")
    game.discard = [Card.of("P9")]
    game.color = Color.PINK
    game.apply(1, play("WDC"))
    game.apply(1, color("V"))
    events = game.apply(2, A.CHALLENGE)
    if guilty:  # the player draws until violet... purple: O1 O2 V3
        assert drawn_by(events) == {1: 3} and game.current_player == 2
    else:  # the challenger draws until purple (3) and two more, and misses the turn
        assert drawn_by(events) == {2: 5} and game.current_player == 3


def test_wild_draw_colour_without_that_colour_left_draws_what_there_is():
    game = _on_the_dark_side({1: "WDC T1", 2: "T2 T3"}, "P1 O2 T4")
    game.apply(1, play("WDC"))
    game.apply(1, color("V"))
    events = game.apply(2, A.ACCEPT)
    # The pile (3) and the discards under the top card (the Flip and the old starter) are all
    # drawn: the cards that exist are the cap.
    assert drawn_by(events) == {2: 5} and not game.draw_pile and len(game.discard) == 1
    assert game.current_player == 3


def test_wild_draw_colour_as_the_last_card_just_ends_the_round():
    game = _on_the_dark_side({1: "WDC", 2: "T2 T3"}, "P1 O2 V3")
    game.apply(1, play("WDC"))
    assert game.round_outcome is not None and game.round_outcome.winner == 1
    assert game.card_count(2) == 2


def test_scores_are_counted_on_the_side_the_round_ended_on():
    game = _on_the_dark_side({1: "P1", 2: "WDC PSE PD5 P7", 3: "WK PF PR"}, "P1")
    game.apply(1, play("P1"))
    outcome = game.round_outcome
    assert outcome is not None
    assert outcome.hand_points == {1: 0, 2: 60 + 30 + 20 + 7, 3: 40 + 20 + 20}
    game = fl(P2, {1: "R1 B2 B3 B4", 2: "W W2 RD1 RF"}, "R9", "B1")
    game.hands[1] = [Card.of("R1")]
    game.apply(1, play("R1"))
    assert game.round_outcome is not None
    assert game.round_outcome.hand_points[2] == 40 + 50 + 10 + 20


def test_colours_are_named_in_the_side_in_play():
    game = _on_the_dark_side({1: "WK T1"}, "P1")
    game.apply(1, play("WK"))
    named = [a.color for a in game.legal_actions(1) if isinstance(a, A.ChooseColor)]
    assert named == list(DARK_COLORS)
    assert game.default_action(1) == A.ChooseColor(Color.TEAL)
    events = game.apply(1, color("T"))
    assert of_type(events, E.ColorChosen) == [E.ColorChosen(1, Color.TEAL)]


# ------------------------------------------------------------------ the first card


def _first_card(card: str, **options) -> tuple[Game, list[E.Event]]:
    game, events = start(
        P3, {1: "R1 R2", 2: "Y2 Y3", 3: "G4 G5"}, card, "B1 B2 B3 W2 B4", rules=FLIP, **options
    )
    return game, events


def test_a_flip_as_the_first_card_starts_the_round_on_the_dark_side():
    game, events = _first_card("RF")
    assert game.dark and game.current_player == 1
    assert of_type(events, E.SidesFlipped) == [E.SidesFlipped(None, True, game.top_card)]
    assert game.color is game.top_card.color and game.top_card.color in DARK_COLORS
    assert sizes(game) == {1: 2, 2: 2, 3: 2}


def test_a_draw_one_first_card_and_a_wild_draw_two_first_card():
    game, events = _first_card("RD1")
    assert drawn_by(events) == {1: 1} and game.current_player == 2
    game, events = _first_card("W2")
    assert of_type(events, E.StarterReturned) and game.top_card != Card.of("W2")


# ------------------------------------------------------------------ what each player sees


def test_each_player_sees_the_other_side_of_the_others_cards_never_their_own():
    game = fl(P3, {1: "R1 R2", 2: "Y2 W2", 3: "G4 B5"}, "R9", "B1 B2")
    view = view_for(game, 1)
    assert dict(view.other_sides) == {
        2: (Card.of("T2"), Card.of("WDC")),
        3: (Card.of("O4"), Card.of("V5")),
    }
    assert 1 not in dict(view.other_sides) and view.pile_back == Card.of("V1")
    assert codes(view.hand) == ["R1", "R2"] and not view.dark
    spectator = view_for(game, None)
    assert set(dict(spectator.other_sides)) == {1, 2, 3}


def _with_my_hidden_sides_changed(game: Game, me: int) -> Game:
    """The same game but for the other side of a kind of card only `me` holds, swapped with
    that of a kind nobody can see (deep in the draw pile): a position a person in `me`'s seat
    cannot tell from the original (the others can: they see the other side of `me`'s cards)."""
    others = {c for p in game.players if p != me for c in game.hands[p]}
    visible = others | set(game.discard) | ({game.draw_pile[-1]} if game.draw_pile else set())
    mine = [c for c in game.hands[me] if not c.is_wild and c not in visible]
    unseen = {c for c in flip_side_deck(dark=game.dark) if not c.is_wild}
    unseen -= visible | set(game.hands[me])
    assert mine and unseen, "the test needs a kind only `me` holds and one nobody sees"
    a, c = mine[0], min(unseen)
    other = list(game.flip_pairs)
    oa, oc = other[a.face], other[c.face]
    other[a.face], other[c.face] = oc, oa
    other[oa], other[oc] = c.face, a.face
    changed = game.copy()
    changed.flip_pairs = tuple(other)
    changed.touch()
    return changed


@pytest.mark.parametrize("seed", range(6))
def test_an_expert_cannot_read_the_hidden_side_of_its_own_cards(seed):
    """Two games that differ only in the hidden side of the expert's own cards: the same view,
    the same decisions (the search samples from the view alone)."""
    game = Game.new(P3, FLIP, seed=seed)
    me = game.current_player
    assert me is not None
    try:
        changed = _with_my_hidden_sides_changed(game, me)
    except AssertionError:
        pytest.skip("this deal gives the viewer no kind nobody else shows")
    assert changed.to_dict() != game.to_dict()
    view, changed_view = view_for(game, me), view_for(changed, me)
    assert view == changed_view
    choices = []
    for g in (game, changed):
        expert = ExpertPlayer(playouts=60, budget=10.0, rng=random.Random(seed))
        choices.append(expert.choose(view_for(g, me)))
    assert choices[0] == choices[1]


def test_the_views_of_others_do_show_what_changed():
    """The control of the test above: the change is real, and the others see it."""
    game = Game.new(P3, FLIP, seed=0)
    me = game.current_player
    assert me is not None
    changed = _with_my_hidden_sides_changed(game, me)
    someone = next(p for p in game.players if p != me)
    assert view_for(game, someone) != view_for(changed, someone)


# ------------------------------------------------------------------ saving, records, whole games


def test_a_game_on_the_dark_side_survives_a_snapshot():
    game = _on_the_dark_side({1: "WDC T1", 2: "T2 T3"}, "P1 O2 V3 T4 P5")
    game.apply(1, play("WDC"))
    game.apply(1, color("V"))
    restored = Game.from_dict(game.to_dict())
    assert restored == game and restored.dark and restored.flip_pairs == PARALLEL
    assert restored.color is Color.PURPLE and restored.legal_actions(2) == game.legal_actions(2)
    assert restored.apply(2, A.ACCEPT) == game.apply(2, A.ACCEPT)


@pytest.fixture(scope="module")
def flip_record():
    return build_record(**recorded_match(5, FLIP.with_options(target=200)))


def test_a_flip_record_verifies(flip_record):
    assert flip_record["rules"]["deck"] == "flip112"
    first = flip_record["rounds"][0]
    assert len(first["deck"]) == len(first["other_sides"]) == 112
    verdict = verify(flip_record)
    assert verdict.ok, verdict.message


def test_a_flip_record_with_other_sides_not_the_seeds_fails(flip_record):
    bad = copy.deepcopy(flip_record)
    sides = bad["rounds"][0]["other_sides"]
    k = next(i for i in range(1, 112) if sides[i] != sides[0])
    sides[0], sides[k] = sides[k], sides[0]
    verdict = verify(bad)
    assert not verdict.ok and "other sides" in verdict.message


def _whole_game(seed: int, kinds: list[str]) -> Game:
    ids = list(range(1, len(kinds) + 1))
    players: dict[int, object] = {}
    for pid, kind in zip(ids, kinds, strict=True):
        if kind == "expert":  # a small budget: legality, not strength, is tested here
            players[pid] = ExpertPlayer(playouts=24, budget=10.0, rng=random.Random(seed + pid))
        else:
            players[pid] = make_player(kind, seed=seed + pid)
    game = Game.new(ids, FLIP, seed=seed)
    for _ in range(3000):
        if game.round_over:
            return game
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
def test_every_level_plays_whole_flip_rounds_legally(seed):
    kinds = ["easy", "normal", "hard", "expert"]
    kinds = kinds[seed:] + kinds[:seed]  # each level in each seat
    game = _whole_game(seed, kinds)
    assert game.round_outcome is not None
    assert sum(len(h) for h in game.hands.values()) + len(game.pile) + len(game.discards) == 112


# ------------------------------------------------------------------ properties


def _two_sided_cards(game: Game) -> Counter[tuple[str, str]]:
    """Every card in the round as (light side, dark side), wherever it is."""
    other = game.flip_pairs
    faces = [f for h in game.held.values() for f in h.faces()] + game.pile + game.discards
    sides = [(f, other[f]) if not game.dark else (other[f], f) for f in faces]
    return Counter((CARDS[light].code, CARDS[dark].code) for light, dark in sides)


@settings(max_examples=examples(30), deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), resume_every=st.integers(1, 30))
def test_random_flip_matches_keep_both_sides_of_every_card_and_end(
    players: int, seed: int, resume_every: int
):
    """Card conservation across both sides (every card keeps its pair wherever it goes, through
    flips, reshuffles and snapshots), every legal move applies, rounds and matches end."""
    rules = FLIP.with_options(target=150)
    game = Game.new(list(range(1, players + 1)), rules, seed=seed)
    rng = random.Random(seed)
    deal = _two_sided_cards(game)
    assert sum(deal.values()) == 112
    for step in range(200_000):
        if game.decision is Decision.MATCH_OVER:
            break
        if game.decision is Decision.NEXT_ROUND:
            game.apply(game.players[0], A.NEXT_ROUND)
            deal = _two_sided_cards(game)
            assert sum(deal.values()) == 112  # (dark already if a Flip was turned first)
            continue
        if step % resume_every == 0:
            game = Game.from_dict(game.to_dict())
        player = game.current_player
        assert player is not None
        legal = game.legal_actions(player)
        assert legal
        plays = [a for a in legal if isinstance(a, A.Play)]
        action = rng.choice(plays if plays and rng.random() < 0.9 else legal)
        game.apply(player, action)
        if not game.round_over:
            assert _two_sided_cards(game) == deal
            dark = DARK_COLORS if game.dark else COLORS
            assert all(c.color in (*dark, None) for h in game.hands.values() for c in h)
    else:
        raise AssertionError("the match did not end")
    assert game.outcome is not None and max(game.totals.values()) >= 150


def test_the_pairings_known_answer_in_records_md():
    """docs/records.md: seed 000102...1f pairs R1 with P8, R2 with P7, R3 with VR, RF with O7
    and the Wild with the Wild Draw Colour (the reference verifier is held to it too)."""
    pairs = {a.code: b.code for a, b in light_pairs(pairing(bytes(range(32)))).items()}
    assert [pairs[c] for c in ("R1", "R2", "R3", "RF", "W")] == ["P8", "P7", "VR", "O7", "WDC"]
    from tools.reference_verifier import flip_pairing

    assert flip_pairing(bytes(range(32))) == {
        **pairs,
        **{dark: light for light, dark in pairs.items()},
    }


@settings(max_examples=examples(20), deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_the_heuristic_levels_only_ever_choose_legal_flip_actions(players: int, seed: int):
    """Random tables of easy, normal and hard players (and random ones) on both sides: every
    choice, in turn or out of it, is among the legal actions."""
    ids = list(range(1, players + 1))
    kinds = ["easy", "normal", "hard", "random"]
    table = {p: make_player(kinds[(p + seed) % 4], seed=seed + p) for p in ids}
    game = Game.new(ids, FLIP, seed=seed)
    for _ in range(3000):
        if game.round_over:
            break
        for pid in ids:
            action = table[pid].choose(view_for(game, pid))
            if action is not None:
                assert action in game.legal_actions(pid), (pid, action)
                game.apply(pid, action)
                break
    assert game.round_over


def test_a_playable_card_may_be_declined_and_a_drawn_one_played_or_kept():
    game = fl(P2, {1: "R1 B2", 2: "Y2 Y3"}, "R9", "R5 B1")
    assert A.DRAW in game.legal_actions(1) and play("R1") in game.legal_actions(1)
    game.apply(1, A.DRAW)  # R5 fits: play it or keep it
    assert game.decision is Decision.PLAY_DRAWN
    assert set(game.legal_actions(1)) >= {play("R5"), A.KEEP}
    game.apply(1, A.KEEP)
    assert game.current_player == 2 and game.card_count(1) == 3
