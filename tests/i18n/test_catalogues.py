"""Every catalogue is complete: the English keys exactly (a counted message in the plural forms
its own language needs, per CLDR), the same placeholders, and a glossary for translators."""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from bot.i18n import DEFAULT_LOCALE, available_locales, catalogue, split_plural
from bot.i18n.plurals import needed_categories

DIR = Path(__file__).resolve().parents[2] / "bot" / "i18n"
TRANSLATIONS = [code for code in available_locales() if code != DEFAULT_LOCALE]


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def _families(messages: dict[str, str]) -> dict[str, dict[str | None, str]]:
    """Base key -> {plural category (None: not counted): text}."""
    families: dict[str, dict[str | None, str]] = {}
    for key, text in messages.items():
        base, category = split_plural(key)
        if category is not None and f"{base}_other" not in messages:
            base, category = key, None  # a key that merely ends like a plural form
        families.setdefault(base, {})[category] = text
    return families


def _expected_keys(code: str) -> set[str]:
    keys = set()
    for base, forms in _families(catalogue(DEFAULT_LOCALE)).items():
        if None in forms:
            keys.add(base)
        else:
            keys |= {f"{base}_{category}" for category in needed_categories(code)}
    return keys


def test_german_and_norwegian_are_there() -> None:
    assert {"de", "no"} <= set(TRANSLATIONS)


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_every_english_key_and_no_other(code: str) -> None:
    keys = set(catalogue(code))
    expected = _expected_keys(code)
    assert sorted(expected - keys) == [], "missing"
    assert sorted(keys - expected) == [], "not in English (or a plural form the language lacks)"


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_same_placeholders_as_english(code: str) -> None:
    english = _families(catalogue(DEFAULT_LOCALE))
    wrong = []
    for base, forms in _families(catalogue(code)).items():
        wanted = set().union(*(_placeholders(t) for t in english[base].values()))
        for category, text in forms.items():
            # A plural form may say its number in words ("ran out of time", "drew 🟥 Red 7").
            have = _placeholders(text) | ({"count"} if category else set())
            if have != wanted | ({"count"} if category else set()):
                wrong.append((base, category, sorted(_placeholders(text)), sorted(wanted)))
    assert wrong == []


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_every_text_is_translated_text(code: str) -> None:
    messages = catalogue(code)
    assert all(isinstance(v, str) and v.strip() for v in messages.values())
    assert messages["language.name"] != catalogue(DEFAULT_LOCALE)["language.name"]


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_a_glossary_for_translators(code: str) -> None:
    data = json.loads((DIR / f"{code}.json").read_text(encoding="utf-8"))
    glossary = data.get("_glossary")
    assert isinstance(glossary, dict) and len(glossary) >= 10
    assert {"draw pile", "discard pile", "Wild Draw Four", "call UNO"} <= set(glossary)


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("de", ["Aussetzen", "Richtungswechsel", "+2", "Farbwechsel", "+4", "UNO!", "Gegen-UNO!",
                "Nachziehstapel", "Ablagestapel", "Passe"]),
        ("no", ["trekkbunke", "kastebunken", "rope UNO", "straffekort", "pilleretningen",
                "Draw Two", "Reverse", "Skip", "Wild", "Wild Draw Four"]),
    ],
)  # fmt: skip
def test_the_rule_sheets_words_are_used(code: str, words: list[str]) -> None:
    text = "\n".join(catalogue(code).values()).casefold()
    assert [w for w in words if w.casefold() not in text] == []


def test_the_rule_sheet_card_names() -> None:
    de, no = catalogue("de"), catalogue("no")
    assert (de["rank.S"], de["rank.R"], de["rank.D"], de["rank.W"], de["rank.W4"]) == (
        "Aussetzen", "Richtungswechsel", "+2", "Farbwechsel", "+4",
    )  # fmt: skip
    english = catalogue(DEFAULT_LOCALE)
    assert all(no[f"rank.{r}"] == english[f"rank.{r}"] for r in ("S", "R", "D", "W", "W4"))


@pytest.mark.parametrize("code", available_locales())
def test_commands_are_named_as_the_readers_client_shows_them(code: str) -> None:
    """A text that says `/uno neu` must name a command the German client really lists."""
    import re

    messages = catalogue(code)
    names = {k.removeprefix("cmdname."): v for k, v in messages.items() if k.startswith("cmdname.")}
    uno = {v for k, v in names.items() if "." not in k and k not in ("uno", "admin")}
    admin = {v for k, v in names.items() if k.startswith("admin.")}
    known = {f"/{names['uno']} {n}" for n in uno} | {f"/{names['admin']} {n}" for n in admin}
    used = {m for text in messages.values() for m in re.findall(r"`(/[^` ]+ [^` ]+)`", text)}
    assert sorted(used - known) == []


def test_no_catalogue_names_a_key_twice() -> None:
    """A key written twice in one file is read as its last value: the first text is lost without
    a word (two changes adding the same key, each with its own meaning, merge that way)."""
    from collections import Counter
    from pathlib import Path

    import bot.i18n

    for path in sorted(Path(bot.i18n.__file__).parent.glob("*.json")):
        keys: list[str] = []

        def collect(pairs: list[tuple[str, object]], keys: list[str] = keys) -> dict:
            keys.extend(key for key, _ in pairs)
            return dict(pairs)

        json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=collect)
        twice = [key for key, count in Counter(keys).items() if count > 1]
        assert twice == [], (path.name, twice)
