"""Typed cards: codes, every catalogue's names, each language's common words; autocomplete order."""

from __future__ import annotations

import pytest

from bot.engine import ALL_CARDS
from bot.i18n import available_locales, t
from bot.ui.card_input import fold, matches, ordered_choices, parse_card_input
from bot.ui.cards import card_name


@pytest.mark.parametrize(
    ("typed", "locale", "code"),
    [
        ("skip red", "en", "RS"),
        ("Red Reverse", "en", "RR"),
        ("draw two blue", "en", "BD"),
        ("+2 green", "en", "GD"),
        ("wild four", "en", "W4"),
        ("WD4", "en", "W4"),
        ("y 9", "en", "Y9"),
        ("Rot Aussetzen", "de", "RS"),
        ("Richtungswechsel gelb", "de", "YR"),
        ("Zieh zwei Blau", "de", "BD"),
        ("+2 grün", "de", "GD"),
        ("grun 7", "de", "G7"),
        ("+4", "de", "W4"),
        ("Farbwahl", "de", "W"),
        ("Rød hopp over", "no", "RS"),
        ("trekk to gul", "no", "YD"),
        ("Grønn snu", "no", "GR"),
        ("rod 5", "no", "R5"),
        ("Fargevalg", "no", "W"),
        ("trekk fire", "no", "W4"),
        ("Weź dwie (Zielony)", "pl", "GD"),
        ("Rouge +2", "fr", "RD"),
        ("r7:uno", "en", "R7:uno"),
        ("Red 7", "de", "R7"),
        ("blue banana", "en", None),
        ("Wild red", "en", None),
    ],
)
def test_aliases_resolve(typed: str, locale: str, code: str | None) -> None:
    assert parse_card_input(typed, locale) == code


@pytest.mark.parametrize("locale", available_locales())
def test_every_card_name_of_every_catalogue_resolves(locale: str) -> None:
    assert [parse_card_input(card_name(c, locale), locale) for c in ALL_CARDS] == [
        c.code for c in ALL_CARDS
    ]


def test_matching_is_by_word_prefix_without_case_or_accents() -> None:
    assert fold("Grün  Aussetzen") == "grun aussetzen" and fold("Rød (Blå)") == "rod bla"
    assert matches("r", "Red 7", "R7") and matches("r", "Blue Reverse", "BR")
    assert not matches("r", "Wild Draw Four", "W4")  # "r" inside "Draw" is no word start
    assert matches("gru", "Grün 7", "G7") and matches("ROD 7", "Rød 7", "R7")
    assert matches("red 7", "Red 7", "R7") and not matches("red 8", "Red 7", "R7")


def test_playable_cards_come_first_and_the_rest_follow_once() -> None:
    playable = [("Red 7", "R7"), ("Red 7 + UNO!", "R7:uno")]
    held = [("Red 7", "R7"), ("Blue Reverse", "BR"), ("Blue Reverse", "BR"), ("Wild", "W")]
    first, later = ordered_choices(playable, held, "")
    assert first == playable and later == [("Blue Reverse", "BR"), ("Wild", "W")]
    assert ordered_choices(playable, held, "r") == (playable, [("Blue Reverse", "BR")])
    assert ordered_choices([], held, "") == (
        [],
        [("Red 7", "R7"), ("Blue Reverse", "BR"), ("Wild", "W")],
    )
    assert "not playable now" in t("cmd.play.not_playable", "en", card="Wild")
