"""Click custom_ids to game actions (bot/ui/items.py): a Wild with its colour is two actions."""

from __future__ import annotations

import re

import pytest

from bot.ui.ids import GAME_TEMPLATE, game_id_for, matches_exactly_one
from bot.ui.items import Click, action_texts


@pytest.mark.parametrize(
    ("action", "texts"),
    [
        ("play:W:R", ["play:W", "color:R"]),
        ("play:W4:B", ["play:W4", "color:B"]),
        ("play:W4:uno:G", ["play:W4:uno", "color:G"]),
        ("play:W:uno:Y", ["play:W:uno", "color:Y"]),
        ("play:W", ["play:W"]),
        ("play:R7:uno", ["play:R7:uno"]),
        ("color:R", ["color:R"]),
        ("draw", ["draw"]),
    ],
)
def test_a_click_is_the_actions_it_stands_for(action: str, texts: list[str]) -> None:
    custom_id = game_id_for(12, 34, action)
    match = re.fullmatch(GAME_TEMPLATE, custom_id)
    assert match is not None and matches_exactly_one(custom_id)
    assert Click("game", 12, 34, match["action"]).texts == texts


@pytest.mark.parametrize(
    "action", ["play:R7:R", "play:WS:R", "play:W:X", "play:W:R:uno", "play:W:R:G", "play:W:uno:"]
)
def test_a_colour_only_follows_a_wild_that_takes_one(action: str) -> None:
    """Forged custom_ids: no DynamicItem matches them (the bot answers "not one of this bot's
    buttons"), and the parse refuses them too rather than guessing."""
    assert not matches_exactly_one(game_id_for(12, 34, action))
    with pytest.raises(ValueError):
        action_texts(action)
