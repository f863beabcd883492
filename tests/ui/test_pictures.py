"""Which picture a message carries (bot/ui/pictures.py) and the card emojis
(cogs/uno/drawing/emoji_upload.py)."""

from __future__ import annotations

import random
from collections import Counter

from bot.engine import COLORS, Card, Color, Game, RuleSet, build_deck
from bot.ui.art import EVERY_COPY
from bot.ui.card_emojis import (
    CARD_EMOJIS,
    NAME,
    button_emoji,
    card_image_url,
    card_key,
    color_emoji,
    wanted_emojis,
)
from bot.ui.hand_buttons import hand_layout
from bot.ui.hand_message import render_hand
from bot.ui.pictures import HAND_FILE, TABLE_FILE, table_picture

NAMES = {1: "Ann", 2: "Ben", 3: "Cat"}


def _game_with_hand(cards: list[Card]) -> Game:
    """A game where player 1 is to play (whatever the deal's starter card does) with `cards`."""
    game = next(
        g
        for seed in range(100)
        if (g := Game.new([1, 2, 3], RuleSet(), seed=seed, dealer=3)).current_player == 1
    )
    game.hands[1] = list(cards)
    return game


def test_the_hand_picture_is_the_whole_hand_on_every_page_every_copy_in_button_order() -> None:
    for size in (12, 40):  # every copy fits; too many copies: each kind once
        cards = random.Random(5).sample(build_deck("classic108"), size)
        game = _game_with_hand(cards)
        counts = Counter(cards)
        every = [c for c in sorted(counts) for _ in range(counts[c])]
        pages = hand_layout(game, 1, NAMES).pages
        assert pages > 1 or size == 12
        for page in range(pages):
            kwargs = render_hand(game, 9, 1, NAMES, page=page, pictures=True)
            _, shown, _ = kwargs.picture.key
            assert kwargs.embed.image.url == f"attachment://{HAND_FILE}"
            assert list(shown) == (every if len(every) <= EVERY_COPY else sorted(counts))


def test_the_hand_picture_changes_only_when_the_hand_or_the_turn_does() -> None:
    """Other players' moves change the card to match, never a waiting player's picture: so an
    edit of a waiting player's hand keeps its file (issue 23). It changes with the hand, and
    as the player's turn begins or ends (the cards they may play stand up)."""
    rng = random.Random(3)
    game = Game.new([1, 2, 3], RuleSet(), seed=7, dealer=3)
    pictures = {p: render_hand(game, 9, p, NAMES, pictures=True).picture for p in (1, 2, 3)}
    for _ in range(60):
        player = game.current_player
        if player is None:
            break
        hands = {p: list(game.hands[p]) for p in (1, 2, 3)}
        game.apply(player, rng.choice(game.legal_actions(player)))
        for p in (1, 2, 3):
            now = render_hand(game, 9, p, NAMES, pictures=True).picture
            if now is None:  # an empty hand: the round is over
                continue
            same_hand = sorted(game.hands[p]) == sorted(hands[p])
            waiting = p != player and p != game.current_player  # not their turn, before or after
            if waiting:
                assert (now.key == pictures[p].key) == same_hand
            elif not same_hand:
                assert now.key != pictures[p].key
            pictures[p] = now


def test_pictures_off_means_no_picture_and_plain_emojis() -> None:
    game = _game_with_hand([Card.of("R7"), Card.of("W")])
    kwargs = render_hand(game, 9, 1, NAMES)
    assert kwargs.picture is None and kwargs.embed.image.url is None


def test_the_table_picture_shows_what_the_table_says() -> None:
    game = Game.new([1, 2, 3], RuleSet(), seed=3, dealer=3)
    picture = table_picture(game, NAMES, None)
    assert picture is not None and picture.filename == TABLE_FILE
    state = picture.key
    assert state.top == game.discard[-1] and [s.name for s in state.seats] == ["Ann", "Ben", "Cat"]
    assert [s.current for s in state.seats].count(True) == 1
    assert picture.render().startswith(b"\x89PNG")


def test_the_card_to_match_is_the_hand_embeds_thumbnail_from_its_emoji() -> None:
    game = _game_with_hand([Card.of("R7"), Card.of("B2")])
    top, color = game.discard[-1], game.color
    assert top is not None and color is not None
    key = card_key(top, color)
    assert render_hand(game, 9, 1, NAMES, pictures=True).embed.thumbnail.url is None
    try:
        CARD_EMOJIS.use([(key, 77, f"uno_{key}_0badc0de")])
        embed = render_hand(game, 9, 1, NAMES, pictures=True).embed
        assert embed.thumbnail.url == "https://cdn.discordapp.com/emojis/77.png"
        assert render_hand(game, 9, 1, NAMES).embed.thumbnail.url is None  # pictures off
    finally:
        CARD_EMOJIS.use([])


def test_a_wild_to_match_is_shown_in_its_chosen_colour() -> None:
    wild = Card.of("W4")
    assert card_key(wild, Color.GREEN) == "W4cG" and card_key(Card.of("R7"), Color.RED) == "R7"
    keys = {a.key for a in wanted_emojis()}
    assert {card_key(c, k) for c in (wild, Card.of("W")) for k in Color if k in COLORS} <= keys
    try:
        CARD_EMOJIS.use([("W4", 1, "uno_W4_0badc0de"), ("W4cG", 2, "uno_W4cG_0badc0de")])
        assert card_image_url(wild, Color.GREEN) == "https://cdn.discordapp.com/emojis/2.png"
        assert card_image_url(wild, Color.BLUE) == "https://cdn.discordapp.com/emojis/1.png"
    finally:
        CARD_EMOJIS.use([])


def test_emojis_have_discord_names_and_fall_back_until_known() -> None:
    wanted = wanted_emojis()
    assert len({a.name for a in wanted}) == len(wanted)
    assert all(NAME.match(a.name) and 2 <= len(a.name) <= 32 for a in wanted)
    assert all(len(a.image) <= 256 * 1024 for a in wanted)
    red7 = Card.of("R7")
    assert button_emoji(red7, True) == "🟥" and color_emoji(Color.RED, True) == "🟥"
    try:
        CARD_EMOJIS.use([("R7", 123, "uno_R7_0badc0de"), ("cR", 124, "uno_cR_0badc0de")])
        assert button_emoji(red7, True) == {"id": "123", "name": "uno_R7_0badc0de"}
        assert color_emoji(Color.RED, True) == {"id": "124", "name": "uno_cR_0badc0de"}
        assert button_emoji(red7, False) == "🟥"  # card pictures off: the plain emoji
    finally:
        CARD_EMOJIS.use([])
