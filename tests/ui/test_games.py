"""The games players tell apart (bot/engine/game_kinds.py) as the bot shows them: the lobby's
game select and its player cap, a lobby panel without the options that mean nothing in its game,
boards named by their game, and `/uno stats` split by game."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import PRESETS, RuleSet
from bot.engine.game_kinds import (
    decks_of,
    game_keys,
    game_kind,
    game_of,
    player_range,
    unused_options,
)
from bot.i18n import available_locales, t
from bot.store import LeaderboardPage, PlayerStats
from bot.store.rating_model import PlayerRating, RatingBoard, RatingEntry
from bot.ui.config_panel import config_view
from bot.ui.ids import matches_exactly_one
from bot.ui.stats import render_leaderboard, render_rating_board, render_stats
from bot.ui.table_message import render_lobby
from testing.fakediscord.markdown import plain

NO_MERCY = RuleSet.preset("no_mercy")


def _item(outgoing: Any, suffix: str) -> Any:
    return next(i.item for i in outgoing.view.children if i.item.custom_id.endswith(suffix))


def test_each_match_has_one_game_derived_from_its_deck() -> None:
    assert game_keys()[:2] == ("classic", "no_mercy")
    assert game_of(RuleSet()) == game_of(RuleSet.preset("germany")) == "classic"
    assert game_of(NO_MERCY) == game_of(RuleSet(deck="no_mercy168")) == "no_mercy"
    assert decks_of("classic") == ("classic108", "swap112", "shuffle112")
    assert decks_of("no_mercy") == ("no_mercy168",)
    assert player_range("classic") == (2, 10) and player_range("no_mercy") == (2, 6)
    assert game_kind("chess") is None and decks_of("chess") == ()
    assert "wd4_challenge" in unused_options("no_mercy") and unused_options("classic") == ()


def test_a_new_game_is_offered_once_the_engine_has_its_preset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Flip is one entry in game_kinds.py: offered (lobby, boards) as soon as its preset is."""
    if "flip" not in PRESETS:
        assert "flip" not in game_keys()
        monkeypatch.setitem(PRESETS, "flip", RuleSet(deck="shuffle112"))  # (a stand-in deck)
    flip = PRESETS["flip"]
    assert game_keys() == ("classic", "no_mercy", "flip") and game_of(flip) == "flip"
    assert player_range("flip") == (2, 10)
    lobby = render_lobby(1, 1, [(1, "Ann")], flip)
    options = _item(lobby, ":lobby:game").options
    assert [(o.value, o.label, o.default) for o in options] == [
        ("classic", "Classic UNO", False),
        ("no_mercy", "Show 'Em No Mercy", False),
        ("flip", "UNO Flip", True),
    ]


def test_the_lobby_offers_the_games_with_their_players() -> None:
    lobby = render_lobby(7, 1, [(1, "Ann"), (2, "Ben")], RuleSet())
    select = _item(lobby, ":lobby:game")
    assert select.custom_id == "uno:7:lobby:game" and matches_exactly_one(select.custom_id)
    assert [(o.value, o.default, o.description) for o in select.options] == [
        ("classic", True, "2 to 10 players"),
        ("no_mercy", False, "2 to 6 players"),
        ("flip", False, "2 to 10 players"),
    ]
    assert "Players (2/10)" in plain(lobby.embed.description or "")
    mercy = render_lobby(7, 1, [(1, "Ann"), (2, "Ben")], NO_MERCY, "de")
    assert [o.default for o in _item(mercy, ":lobby:game").options] == [False, True, False]
    assert _item(mercy, ":lobby:game").options[0].label == "Klassisches UNO"
    assert "(2/6)" in plain(mercy.embed.description or "")
    full = render_lobby(7, 1, [(p, f"P{p}") for p in range(1, 7)], NO_MERCY)
    assert _item(full, ":lobby:addbot").disabled and _item(full, ":lobby:addexpert").disabled
    assert not _item(render_lobby(7, 1, [(1, "A")] * 6, RuleSet()), ":lobby:addbot").disabled


@pytest.mark.parametrize("code", available_locales())
def test_every_language_names_the_games(code: str) -> None:
    """Brand names stay as Mattel prints them; the classic game in each language's words."""
    assert t("game.no_mercy", code) == "Show 'Em No Mercy"
    assert t("game.flip", code) == "UNO Flip"
    assert "UNO" in t("game.classic", code)


def test_a_no_mercy_lobby_panel_offers_only_what_means_something_in_it() -> None:
    current = NO_MERCY.to_dict()
    hidden, decks = unused_options("no_mercy"), decks_of("no_mercy")
    groups = config_view("5", current, "en-US", hidden=hidden, decks=decks)
    offered = [o.value for o in groups.children[0].item.options]
    assert "wd4" not in offered and "deck" in offered  # (every option of the group is hidden)
    special = config_view("5", current, "en-US", group="special", hidden=hidden, decks=decks)
    options = [o.value for o in special.children[1].item.options]
    assert "custom_effect" not in options and "mercy_limit" in options
    deck = config_view(
        "5", current, "en-US", group="deck", option="deck", hidden=hidden, decks=decks
    )
    assert [o.value for o in deck.children[2].item.options] == ["no_mercy168"]
    forged = config_view("5", current, "en-US", option="custom_effect", hidden=hidden)
    assert len(forged.children) == 1  # (a hidden option named in a custom_id: no values)


def _stats(game: str, points: int, won: int) -> PlayerStats:
    return PlayerStats(
        guild_id=1,
        user_id=2,
        display_name="Ann",
        points=points,
        games_played=2,
        games_won=won,
        rank=1,
        game=game,
    )


def test_stats_are_split_by_game() -> None:
    classic = _stats("classic", 120, 1)
    rating = PlayerRating(1, 1040, 1, 3, (40,), False, "no_mercy")
    only_classic = render_stats(None, "Ann", games=[("classic", classic, None)])
    assert only_classic.fields == [] and "120 points" in (only_classic.description or "")
    both = render_stats(
        None,
        "Ann",
        practice=2,
        games=[("classic", classic, None), ("no_mercy", _stats("no_mercy", 75, 2), rating)],
    )
    assert [f.name for f in both.fields] == ["Classic UNO", "Show 'Em No Mercy"]
    assert "120 points" in both.fields[0].value and "Rating" not in both.fields[0].value
    assert "75 points" in both.fields[1].value and "**1,040**" in both.fields[1].value
    assert "Practice games" in (both.description or "")  # once, not per game
    rated_only = render_stats(None, "Ann", games=[("no_mercy", None, rating)])
    assert rated_only.fields[0].name == "Show 'Em No Mercy"
    assert "No games" in rated_only.fields[0].value and "1,040" in rated_only.fields[0].value


def test_every_board_names_its_game() -> None:
    board = LeaderboardPage("points", 1, 10, 1, (_stats("no_mercy", 75, 2),), "no_mercy")
    assert render_leaderboard(board).author.name == "Show 'Em No Mercy"
    rated = RatingBoard(1, 1, 10, 1, (RatingEntry(2, "Ann", 1040, 3, 1),), game="classic")
    assert render_rating_board(rated, "fr").author.name == "UNO classique"
