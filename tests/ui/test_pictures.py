"""Which picture a message carries (bot/ui/pictures.py) and the card emojis (card_emojis.py)."""

from __future__ import annotations

import random
from collections import Counter

from bot.engine import Card, Color, Game, RuleSet, build_deck
from bot.ui.art import PAGE_SIZE
from bot.ui.card_emojis import CARD_EMOJIS, NAME, button_emoji, color_emoji, wanted_emojis
from bot.ui.hand_message import hand_layout, render_hand
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


def _page_cards(game: Game, page: int) -> list[Card]:
    layout = hand_layout(game, 1, NAMES, page=page)
    # A Wild's four colour buttons are one card; "+ UNO!" buttons repeat a card.
    cards = (s.card for s in layout.cards if s.card is not None and ":uno" not in s.action)
    return list(dict.fromkeys(cards))


def test_each_hand_page_pictures_its_own_buttons_every_copy_in_order() -> None:
    cards = random.Random(5).sample(build_deck("classic108"), 40)
    game = _game_with_hand(cards)
    counts = Counter(cards)
    pages = hand_layout(game, 1, NAMES).pages
    assert pages > 1
    pictured: list[Card] = []
    for page in range(pages):
        kwargs = render_hand(game, 9, 1, NAMES, page=page, pictures=True)
        shown, playable, top, color = kwargs["picture"].key
        assert (top, color) == (game.discard[-1], game.color)
        assert kwargs["embed"].image.url == f"attachment://{HAND_FILE}"
        distinct = _page_cards(game, page)
        every = [c for c in distinct for _ in range(counts[c])]
        assert list(shown) == (every if len(every) <= PAGE_SIZE else distinct)
        assert playable <= set(shown)
        pictured += list(dict.fromkeys(shown))
    assert sorted(pictured) == sorted(counts)  # every kind of card on some page, once


def test_pictures_off_means_no_picture_and_plain_emojis() -> None:
    game = _game_with_hand([Card.of("R7"), Card.of("W")])
    kwargs = render_hand(game, 9, 1, NAMES)
    assert "picture" not in kwargs and kwargs["embed"].image.url is None


def test_the_table_picture_shows_what_the_table_says() -> None:
    game = Game.new([1, 2, 3], RuleSet(), seed=3, dealer=3)
    picture = table_picture(game, NAMES, None)
    assert picture is not None and picture.filename == TABLE_FILE
    state = picture.key
    assert state.top == game.discard[-1] and [s.name for s in state.seats] == ["Ann", "Ben", "Cat"]
    assert [s.current for s in state.seats].count(True) == 1
    assert picture.render().startswith(b"\x89PNG")


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
