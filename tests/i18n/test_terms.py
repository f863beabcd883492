"""Each catalogue speaks of the cards and the commands one way: the card names are its glossary's,
every rule text that names a card uses that name, the examples it gives for typing a card are
cards the bot understands, the commands it mentions are ones Discord shows its readers, and
the buttons it tells them to press are the buttons they see.
Plus the counted words of the eight languages beyond German and Norwegian, as natives say them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.i18n import DEFAULT_LOCALE, available_locales, catalogue, t
from bot.i18n.plurals import format_number
from cogs.uno.commands import parse_card_input

DIR = Path(__file__).resolve().parents[2] / "bot" / "i18n"
TRANSLATIONS = [code for code in available_locales() if code != DEFAULT_LOCALE]
#: The English card names a glossary translates, and the rank each names.
CARD_TERMS = {"Skip": "S", "Reverse": "R", "Draw Two": "D", "Wild": "W", "Wild Draw Four": "W4"}
#: English names whose whole-word use in a text means that card (bare "Wild" is left out: it
#: also means "wild cards" in general, which inflecting languages decline).
NAMED_IN_TEXTS = {
    "Wild Draw Four": re.compile(r"\bWild Draw Four\b"),
    "Draw Two": re.compile(r"\bDraw Two\b"),
    "Skip": re.compile(r"\bSkip\b"),
    "Reverse": re.compile(r"\bReverse\b"),
}
MENTION = re.compile(r"`/(\S+) ([^`\s]+)`")


def _glossary(code: str) -> dict[str, str]:
    with (DIR / f"{code}.json").open(encoding="utf-8") as fh:
        glossary = json.load(fh).get("_glossary", {})
    return glossary if isinstance(glossary, dict) else {}


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_card_names_are_the_glossarys(code: str) -> None:
    glossary, messages = _glossary(code), catalogue(code)
    named = {term: rank for term, rank in CARD_TERMS.items() if term in glossary}
    assert named == CARD_TERMS, "the glossary names every card"
    assert {term: messages[f"rank.{rank}"] for term, rank in named.items()} == {
        term: glossary[term] for term in named
    }


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_rule_texts_name_cards_as_the_cards_do(code: str) -> None:
    english, messages = catalogue(DEFAULT_LOCALE), catalogue(code)
    unnamed = []
    for key, text in english.items():
        for term, pattern in NAMED_IN_TEXTS.items():
            if not pattern.search(text):
                continue
            name = messages[f"rank.{CARD_TERMS[term]}"]
            if name.casefold() not in messages[key].casefold():
                unnamed.append((key, term, name))
    assert unnamed == []


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_the_typing_examples_are_cards(code: str) -> None:
    examples = re.findall(r"`([^`]+)`", catalogue(code)["error.unknown_card"])
    assert examples, "the refusal shows how to type a card"
    assert [parse_card_input(example, code) for example in examples] == ["R7"] * len(examples)


def _command_names(code: str) -> dict[str, set[str]]:
    """Group name -> subcommand names, as readers of `code` and of English see them."""
    groups: dict[str, set[str]] = {}
    for messages in (catalogue(DEFAULT_LOCALE), catalogue(code)):
        uno, admin = messages["cmdname.uno"], messages["cmdname.admin"]
        for key, name in messages.items():
            if not key.startswith("cmdname.") or key.startswith("cmdname.option."):
                continue
            if key in ("cmdname.uno", "cmdname.admin"):
                continue
            group = admin if key.startswith("cmdname.admin.") else uno
            groups.setdefault(group, set()).add(name)
    return groups


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_mentioned_commands_exist(code: str) -> None:
    groups = _command_names(code)
    mentions = {m for text in catalogue(code).values() for m in MENTION.findall(text)}
    assert mentions, "the help and refusals name commands"
    assert sorted(m for m in mentions if m[1] not in groups.get(m[0], set())) == []


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("fr", ["0 carte", "1 carte", "2 cartes", "5 cartes", "22 cartes"]),
        ("es-ES", ["0 cartas", "1 carta", "2 cartas", "5 cartas", "22 cartas"]),
        ("pt-BR", ["0 carta", "1 carta", "2 cartas", "5 cartas", "22 cartas"]),
        ("it", ["0 carte", "1 carta", "2 carte", "5 carte", "22 carte"]),
        ("pl", ["0 kart", "1 karta", "2 karty", "5 kart", "22 karty"]),
        ("nl", ["0 kaarten", "1 kaart", "2 kaarten", "5 kaarten", "22 kaarten"]),
        ("sv-SE", ["0 kort", "1 kort", "2 kort", "5 kort", "22 kort"]),
        ("da", ["0 kort", "1 kort", "2 kort", "5 kort", "22 kort"]),
    ],
)
def test_card_counts_in_words(code: str, expected: list[str]) -> None:
    assert [t("count.cards", code, count=n) for n in (0, 1, 2, 5, 22)] == expected


@pytest.mark.parametrize(
    ("code", "word"),
    [("fr", "de cartes"), ("es-ES", "de cartas"), ("pt-BR", "de cartas"), ("it", "di carte")],
)
def test_a_million_takes_the_many_form(code: str, word: str) -> None:
    assert t("count.cards", code, count=10**6) == f"{format_number(10**6, code)} {word}"


def test_polish_declines_what_is_drawn() -> None:
    drawn = [t("turn.drew", "pl", count=n) for n in (1, 2, 5, 22)]
    assert drawn == ["dobiera 1 kartę", "dobiera 2 karty", "dobiera 5 kart", "dobiera 22 karty"]
    points = [t("count.points", "pl", count=n) for n in (1, 3, 12, 24)]
    assert points == ["1 punkt", "3 punkty", "12 punktów", "24 punkty"]


def test_latin_american_spanish_reads_the_spanish_catalogue() -> None:
    assert t("rank.W4", "es-419") == catalogue("es-ES")["rank.W4"] == "Comodín roba cuatro"
    assert t("count.cards", "es-419", count=2) == "2 cartas"


#: Texts that tell the reader which button to press, in bold.
POINTING_TEXTS = (
    "help.buttons",
    "help.intro",
    "lobby.how",
    "error.not_your_hand",
    "ping.next_round",
)


@pytest.mark.parametrize("code", available_locales())
def test_the_buttons_a_text_names_are_the_buttons_shown(code: str) -> None:
    messages = catalogue(code)
    labels = {
        text
        for key, text in messages.items()
        if key.split(".")[0] in ("table", "lobby", "hand", "result")
    }
    named = {
        (key, bold)
        for key in POINTING_TEXTS
        for bold in re.findall(r"\*\*(.+?)\*\*", messages[key])
    }
    assert named, "the help points at buttons"
    assert sorted((key, bold) for key, bold in named if bold not in labels) == []
    rematch = messages["notice.rematch_opened"]
    assert messages["result.rematch"] in rematch and messages["lobby.join"] in rematch
