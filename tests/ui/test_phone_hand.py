"""A live hand is the player's whole view in one phone screen: at most 640 px tall in a 380-px
client for a 7-card hand (a wild among them), at most 800 px at 16 cards, by the estimate of
tests/ui/phone.py, with 2, 4 and 10 players and 1, 7, 16 and 30 cards. With card pictures on
(the default, once the card emojis are uploaded), and the figures printed (`-s`) for the docs.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from PIL import Image

from bot.engine import COLORS, Card, Game, RuleSet, view_for
from bot.ui.card_emojis import CARD_EMOJIS, wanted_emojis
from bot.ui.hand_message import render_hand
from tests.ui.phone import phone_height

PHONE_MAX = 640
LARGE_MAX = 800
NAMES = {
    1: "Alexandra Petrova",
    2: "Bjørn Ødegård",
    3: "Jürgen Weiß",
    4: "Dana",
    5: "Emilia Kowalska",
    6: "François Gonçalves",
    7: "Giulia",
    8: "Hendrik van Dijk",
    9: "Ingrid Ærø",
    10: "José María",
}
RECENT = [
    "**Hendrik van Dijk** played 🟩 Green 4",
    "**Ingrid Ærø** drew 2 cards and lost a turn",
]


@pytest.fixture(autouse=True)
def card_emojis() -> Iterator[None]:
    """The card emojis as the bot has them once uploaded (the buttons show the cards)."""
    CARD_EMOJIS.use([(art.key, 1000 + n, art.name) for n, art in enumerate(wanted_emojis())])
    yield
    CARD_EMOJIS.use([])


def _hand(players: int, cards: int) -> tuple[dict, tuple[int, int]]:
    """Player 1's turn with `cards` cards, a Wild Draw Four among them and playable (no card
    matches the one on top), the turn timer on, the others' counts in the strip."""
    ids = list(range(1, players + 1))
    game = next(
        g
        for seed in range(200)
        if (g := Game.new(ids, RuleSet(), seed=seed, dealer=ids[-1])).current_player == 1
        and (top := view_for(g, 1).top_card) is not None
        and top.color is not None
        and top.rank.value not in range(10)
    )
    top = view_for(game, 1)
    others = [c for c in COLORS if c is not top.color]
    hand = [Card.of("W4")] + [
        Card.of(f"{others[k % 3].value}{k % 9 + 1}") for k in range(max(0, cards - 1))
    ]
    game.hands[1] = hand
    kwargs = render_hand(
        game,
        123456789012345678,
        1,
        NAMES,
        "en-US",
        pictures=True,
        deadline=datetime(2030, 1, 1, tzinfo=UTC),
        recent=RECENT,
    )
    picture = kwargs.picture
    size = Image.open(io.BytesIO(picture.render())).size
    return kwargs, size


@pytest.mark.parametrize("players", [2, 4, 10])
@pytest.mark.parametrize("cards", [1, 7, 16, 30])
def test_a_turn_fits_a_phone(players: int, cards: int) -> None:
    kwargs, size = _hand(players, cards)
    height = phone_height(kwargs, size)
    print(f"\n{players} players, {cards} cards: hand {height} px")
    assert height <= (PHONE_MAX if cards <= 7 else LARGE_MAX), kwargs.embed.description


def test_the_hand_shows_the_whole_view() -> None:
    kwargs, _ = _hand(4, 7)
    text = kwargs.embed.description
    assert "Your turn" in text and "<t:1893456000:R>" in text  # whose turn, its countdown
    assert "Top card:" in text  # the card to match and its colour
    for name in ("Bjørn", "Jürgen", "Dana"):  # every opponent, with their count
        assert name in text
    assert "Green 4" in text and "drew 2 cards" in text  # the last moves
    rows = kwargs.view.rows
    wild = [c for row in rows for c in row if c.get("custom_id", "").count(":play:W4:") == 1]
    assert len(wild) == 4 and len({id(r) for r in rows for c in r if c in wild}) == 1, rows
