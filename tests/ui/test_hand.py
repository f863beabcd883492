"""The private hand: paging never drops a card, and every Discord limit is respected."""

from __future__ import annotations

import random
import re

import discord
import pytest

from bot.engine import ALL_CARDS, Card, Decision, Game, Play, RuleSet, build_deck, view_for
from bot.ui.cards import card_name
from bot.ui.hand_buttons import SLOTS, hand_layout
from bot.ui.hand_message import render_hand
from bot.ui.ids import MAX_CUSTOM_ID, MAX_LABEL, matches_exactly_one

NAMES = {1: "Ann", 2: "Ben", 3: "Cat"}
BIG_ID = 2**63 - 1


def _game_with_hand(cards: list[Card], players: tuple[int, ...] = (1, 2)) -> Game:
    game = Game.new(list(players), RuleSet(), seed=3, dealer=players[-1])
    game.hands[1] = list(cards)
    return game


def _check_limits(kwargs: dict) -> None:
    rows = kwargs.view.to_components()
    items = [c for row in rows for c in row["components"]]
    assert len(rows) <= 5 and len(items) <= 25
    for row in rows:
        kinds = [c["type"] for c in row["components"]]
        assert kinds == [3] or (set(kinds) == {2} and len(kinds) <= 5), kinds
    for item in items:
        custom_id = item["custom_id"]
        assert len(custom_id) <= MAX_CUSTOM_ID
        assert matches_exactly_one(custom_id), custom_id
        assert len(item.get("label", "")) <= MAX_LABEL
        assert all(len(o["label"]) <= 100 for o in item.get("options", ()))
    assert len({i["custom_id"] for i in items}) == len(items), "custom_ids must be unique"
    embed = kwargs.embed
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed) <= 6000


def test_sixty_cards_page_without_dropping_any() -> None:
    rng = random.Random(7)
    cards = rng.sample(build_deck("classic108"), 60)
    game = _game_with_hand(cards)
    first = hand_layout(game, 1, NAMES)
    assert first.pages > 1
    seen = []
    for page in range(first.pages):
        layout = hand_layout(game, 1, NAMES, page=page)
        assert len(layout.controls) + len(layout.cards) <= SLOTS
        seen += [slot for slot in layout.cards]
        _check_limits(render_hand(game, BIG_ID, 1, NAMES, page=page))
    assert {slot.card for slot in seen} == set(cards)
    actions = [slot.action for slot in seen]
    assert len(actions) == len(set(actions))


def test_every_distinct_card_face_fits() -> None:
    game = _game_with_hand(list(ALL_CARDS) * 2)
    layout = hand_layout(game, 1, NAMES)
    slots = [s for p in range(layout.pages) for s in hand_layout(game, 1, NAMES, page=p).cards]
    assert {s.card for s in slots} == set(ALL_CARDS)
    for p in range(layout.pages):
        _check_limits(render_hand(game, BIG_ID, 1, NAMES, page=p))


def test_duplicates_show_a_count_and_unplayable_cards_are_disabled() -> None:
    game = _game_with_hand([Card.of("R7"), Card.of("R7"), Card.of("B1")])
    game.discard = [Card.of("R3")]
    game.color = game.discard[-1].color
    game.turn = game.seats.index(1)
    game.decision = Decision.PLAY
    layout = hand_layout(game, 1, NAMES)
    by_action = {s.action: s for s in layout.cards}
    assert by_action["play:R7"].label == "Red 7 ×2"
    assert not by_action["play:R7"].disabled
    assert by_action["play:B1"].disabled
    assert any(s.action == "draw" for s in layout.controls)


def test_next_to_last_card_offers_play_and_uno() -> None:
    game = _game_with_hand([Card.of("R7"), Card.of("B1")])
    game.discard = [Card.of("R3")]
    game.color = game.discard[-1].color
    game.turn = game.seats.index(1)
    game.decision = Decision.PLAY
    actions = [s.action for s in hand_layout(game, 1, NAMES).cards]
    assert "play:R7:uno" in actions and "play:R7" in actions


def test_colour_choice_after_a_wild() -> None:
    game = _game_with_hand([Card.of("W"), Card.of("B1"), Card.of("G2")])
    game.turn = game.seats.index(1)
    game.decision = Decision.CHOOSE_COLOR
    layout = hand_layout(game, 1, NAMES)
    assert [s.action for s in layout.controls][:4] == ["color:R", "color:Y", "color:G", "color:B"]
    assert layout.cards == ()


def test_target_select_for_swap_hands() -> None:
    game = _game_with_hand([Card.of("B1"), Card.of("G2")], players=(1, 2, 3))
    game.turn = game.seats.index(1)
    game.decision = Decision.CHOOSE_TARGET
    kwargs = render_hand(game, BIG_ID, 1, NAMES)
    selects = [c for c in kwargs.view.components if c["type"] == 3]
    assert len(selects) == 1
    assert {o["value"] for o in selects[0]["options"]} == {"2", "3"}
    _check_limits(kwargs)


@pytest.mark.parametrize("seed", range(20))
def test_random_states_respect_limits(seed: int) -> None:
    rng = random.Random(seed)
    players = list(range(1, rng.randint(2, 10) + 1))
    game = Game.new(players, RuleSet(), seed=seed)
    names = {p: "N" * 100 for p in players}
    for _ in range(rng.randint(0, 150)):
        player = game.current_player
        if player is None:
            break
        legal = game.legal_actions(player)
        game.apply(player, rng.choice(legal))
    for p in players:
        layout = hand_layout(game, p, names)
        for page in range(layout.pages):
            _check_limits(render_hand(game, BIG_ID, p, names, page=page, notice="x" * 500))


def test_custom_id_scheme() -> None:
    from bot.ui.ids import game_id_for, hand_id, lobby_id, parse_game

    assert hand_id(5) == "uno:5:hand"
    assert lobby_id(5, "join") == "uno:5:lobby:join"
    ref = parse_game(game_id_for(5, 12, "play:W4:uno"))
    assert ref is not None and (ref.game_id, ref.version, ref.action) == (5, 12, "play:W4:uno")
    assert parse_game("uno:5:12:play:<script>") is None
    for cid in ("uno:1:2:catch", "uno:1:2:catch:3", "uno:1:2:target", "uno:1:2:target:9"):
        assert matches_exactly_one(cid), cid
    assert re.fullmatch(r".{1,100}", game_id_for(BIG_ID, 999_999_999, f"target:{BIG_ID}"))


def test_the_hand_pictures_alt_text_names_the_whole_hand_on_every_page() -> None:
    rng = random.Random(8)
    cards = rng.sample(build_deck("classic108"), 20)
    game = _game_with_hand(cards)
    pages = hand_layout(game, 1, NAMES).pages
    assert pages > 1
    texts = {
        render_hand(game, BIG_ID, 1, NAMES, page=p, pictures=True).picture.description
        for p in range(pages)
    }
    names = ", ".join(card_name(c) for c in sorted(cards))
    assert texts == {f"Your hand, 20 cards: {names}."}


def _my_turn(cards: str, top: str = "R3", **rules: object) -> Game:
    game = Game.new([1, 2], RuleSet(**rules), seed=3, dealer=2)
    game.hands[1] = [Card.of(c) for c in cards.split()]
    game.discard = [Card.of(top)]
    game.color = game.discard[-1].color
    game.turn = game.seats.index(1)
    game.decision = Decision.PLAY
    return game


def test_a_playable_wild_gets_a_button_per_colour_that_plays_it_with_that_colour() -> None:
    game = _my_turn("W W4 R1 B2")
    kwargs = render_hand(game, BIG_ID, 1, NAMES)
    _check_limits(kwargs)
    by_action = {s.action: s for s in hand_layout(game, 1, NAMES).cards}
    for wild in ("W", "W4"):
        assert f"play:{wild}" not in by_action
        colours = [by_action[f"play:{wild}:{c}"] for c in "RYGB"]
        assert [s.style for s in colours] == [
            discord.ButtonStyle.danger,
            discord.ButtonStyle.secondary,
            discord.ButtonStyle.success,
            discord.ButtonStyle.primary,
        ]
    assert by_action["play:W:Y"].label == "Wild → Yellow"
    assert by_action["play:W4:B"].label == "Wild Draw Four → Blue"
    # Each wild's colour buttons stand together, so a page never splits them.
    actions = [s.action for s in hand_layout(game, 1, NAMES).cards]
    start = actions.index("play:W:R")
    assert actions[start : start + 4] == ["play:W:R", "play:W:Y", "play:W:G", "play:W:B"]


def test_a_wild_keeps_one_button_when_the_colour_cannot_come_with_it() -> None:
    # Its last card: playing it ends the round, no colour is chosen.
    (last,) = hand_layout(_my_turn("W"), 1, NAMES).cards
    assert last.action == "play:W" and not last.disabled
    # Not playable now (waiting): one disabled button, not four.
    waiting = _my_turn("W R1 B2")
    waiting.turn = waiting.seats.index(2)
    wilds = [s for s in hand_layout(waiting, 1, NAMES).cards if s.card == Card.of("W")]
    assert [(s.action, s.disabled) for s in wilds] == [("play:W", True)]
    # Swap Hands asks for a target before the colour: it keeps the two steps.
    swap = _my_turn("WS R1 B2", deck="swap112")
    assert "play:WS" in [s.action for s in hand_layout(swap, 1, NAMES).cards]


def test_the_wilds_given_one_click_are_those_the_engine_asks_a_colour_for_at_once() -> None:
    """colour_follows (the UI's promise) against the engine, for every wild of every deck."""
    from bot.engine import ChooseColor, Play
    from bot.engine.cards import COLORS
    from bot.ui.hand_buttons import colour_follows

    for deck in ("classic108", "swap112", "shuffle112"):
        for wild in sorted({c for c in build_deck(deck) if c.is_wild}):
            for hand in (f"{wild.code}", f"{wild.code} R1 B2"):
                game = _my_turn(hand, deck=deck)
                view = view_for(game, 1)
                game.apply(1, Play(wild))
                asks_now = game.decision is Decision.CHOOSE_COLOR
                if wild.code in ("W", "W4"):  # the plain wilds: one click unless going out
                    assert colour_follows(wild, view) == asks_now == (len(view.hand) > 1)
                else:  # a target or a shuffle first, or going out: the two steps stay
                    assert not colour_follows(wild, view)
                if colour_follows(wild, view):
                    game.apply(1, ChooseColor(COLORS[2]))
                    assert game.color is COLORS[2]


def test_the_next_to_last_wild_offers_its_colours_with_an_uno_call() -> None:
    game = _my_turn("W4 B2")
    layout = hand_layout(game, 1, NAMES)
    actions = {s.action: s for s in layout.cards}
    assert {f"play:W4:uno:{c}" for c in "RYGB"} <= set(actions)
    assert actions["play:W4:uno:G"].label == "Wild Draw Four → Green + UNO!"
    # With two cards the sensible move is a play with the call: the plain plays go grey.
    assert actions["play:W4:G"].style is discord.ButtonStyle.secondary
    assert actions["play:W4:uno:G"].style is discord.ButtonStyle.success
    _check_limits(render_hand(game, BIG_ID, 1, NAMES))


def test_button_styles_point_at_the_next_move() -> None:
    playable = hand_layout(_my_turn("R7 B1 G2"), 1, NAMES)
    cards = {s.action: s for s in playable.cards}
    assert cards["play:R7"].style is discord.ButtonStyle.danger  # playable: its colour
    assert cards["play:B1"].style is discord.ButtonStyle.secondary  # not playable: grey
    (draw,) = [s for s in playable.controls if s.action == "draw"]
    assert draw.style is discord.ButtonStyle.secondary  # a card can be played instead
    stuck = hand_layout(_my_turn("B1 G2"), 1, NAMES)
    (draw,) = [s for s in stuck.controls if s.action == "draw"]
    assert draw.style is discord.ButtonStyle.primary  # nothing to play: drawing is the move


def test_the_round_winners_hand_says_they_won() -> None:
    game = _my_turn("R7")
    game.apply(1, Play(Card.of("R7")))
    assert game.decision is Decision.NEXT_ROUND
    mine = render_hand(game, BIG_ID, 1, NAMES).embed.description
    theirs = render_hand(game, BIG_ID, 2, NAMES).embed.description
    assert "You won the round!" in mine and "You won" not in theirs
    assert "Ann\u2069** won round 1!" in theirs  # who won, then everyone's total
    assert "Totals: \u2068Ann\u2069 60 (+60) · **\u2068Ben\u2069 0**" in theirs


def test_the_match_winners_hand_says_so_and_a_finished_hand_has_no_buttons() -> None:
    game = _my_turn("R7", target=1)
    game.apply(1, Play(Card.of("R7")))
    assert game.decision is Decision.MATCH_OVER
    mine = render_hand(game, BIG_ID, 1, NAMES)
    theirs = render_hand(game, BIG_ID, 2, NAMES)
    assert "You won the match!" in mine.embed.description
    assert "The match is over." in theirs.embed.description
    assert "You won" not in theirs.embed.description
    for kwargs in (mine, theirs):
        assert kwargs.view.to_components() == []  # no Refresh, no cards, nothing enabled


@pytest.mark.parametrize("name", ["山田太郎", "محمد علي", "Sam 🎲🔥", "🤖 Bot Ada (normal)"])
def test_a_name_no_picture_font_draws_is_written_exactly_in_the_hand(name: str) -> None:
    """Whose turn it is, in the hand's text: the exact name, whatever the pictures draw of it."""
    game = Game.new([1, 2, -3], RuleSet(), seed=3)
    current = view_for(game, None).current_player
    viewer = next(p for p in (1, 2) if p != current)
    names = {1: "Ann", 2: "Ben", -3: "Cid", current: name}
    embed = render_hand(game, BIG_ID, viewer, names).embed.to_dict()
    text = " ".join(str(v) for v in embed.values())
    assert name in text, text  # (between its bidi isolate marks: names.py)
