"""Plural forms and numbers come from CLDR (Babel) for every language: 0, 1, 2, 5 and 22 each
pick the form the language's own rule names, and the words of German and Norwegian are right."""

from __future__ import annotations

import pytest

from bot.i18n import DEFAULT_LOCALE, available_locales, catalogue, split_plural, t
from bot.i18n.plurals import format_number, plural_category

COUNTS = (0, 1, 2, 5, 22)


def _counted_keys() -> list[str]:
    return sorted({split_plural(k)[0] for k in catalogue(DEFAULT_LOCALE) if k.endswith("_other")})


@pytest.mark.parametrize("code", available_locales())
@pytest.mark.parametrize("count", COUNTS)
def test_each_count_takes_its_languages_form(code: str, count: int) -> None:
    messages = catalogue(code)
    for base in _counted_keys():
        form = messages[f"{base}_{plural_category(code, count)}"]
        params = {"count": count}
        shown = t(base, code, **params, **_dummies(base))
        assert shown == form.format(**params, **_dummies(base)), base


def _dummies(base: str) -> dict[str, str]:
    """Every other placeholder of a counted message, as plain words."""
    import string

    texts = [v for k, v in catalogue(DEFAULT_LOCALE).items() if split_plural(k)[0] == base]
    fields = {f for text in texts for _, f, _, _ in string.Formatter().parse(text) if f}
    return {f: f"<{f}>" for f in fields - {"count"}}


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en", ["0 cards", "1 card", "2 cards", "5 cards", "22 cards"]),
        ("de", ["0 Karten", "1 Karte", "2 Karten", "5 Karten", "22 Karten"]),
        ("no", ["0 kort", "1 kort", "2 kort", "5 kort", "22 kort"]),
    ],
)
def test_card_counts_in_words(code: str, expected: list[str]) -> None:
    assert [t("count.cards", code, count=n) for n in COUNTS] == expected


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en", ["0 points", "1 point", "2 points", "5 points", "22 points"]),
        ("de", ["0 Punkte", "1 Punkt", "2 Punkte", "5 Punkte", "22 Punkte"]),
        ("no", ["0 poeng", "1 poeng", "2 poeng", "5 poeng", "22 poeng"]),
    ],
)
def test_points_in_words(code: str, expected: list[str]) -> None:
    assert [t("count.points", code, count=n) for n in COUNTS] == expected


def test_never_one_cards() -> None:
    for code in available_locales():
        assert t("hand.title", code, count=1) == catalogue(code)["hand.title_one"].format(count=1)
    assert t("hand.title", "en", count=1) == "Your hand — 1 card"
    assert t("turn.drew", "de", count=1) == "zieht 1 Karte"
    assert t("turn.drew", "de", count=4) == "zieht 4 Karten"
    assert t("turn.timed_out", "no", count=1) == "gikk tom for tid ⏰"


def test_cldr_rules_not_hand_written() -> None:
    # Polish has a "few" form (2-4, 22-24) and a "many" one (5-21): Babel knows, we don't.
    assert [plural_category("pl", n) for n in COUNTS] == ["many", "one", "few", "many", "few"]
    assert [plural_category("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]


@pytest.mark.parametrize(
    ("code", "shown"),
    [("en", "12,500"), ("de", "12.500"), ("no", "12\xa0500"), ("es-419", "12,500")],
)
def test_numbers_are_written_the_readers_way(code: str, shown: str) -> None:
    assert format_number(12500, code) == shown
    assert t("count.points", code, count=12500).startswith(shown)


def test_es_419_reads_the_european_spanish_catalogue_when_there_is_one() -> None:
    from bot.i18n import resolve_locale

    expected = "es-ES" if catalogue("es-ES") else "en"
    assert resolve_locale("es-419") == expected
    assert resolve_locale("nb") == "no"
    assert resolve_locale("de-AT") == "de"
    assert resolve_locale("fi") == "en"
