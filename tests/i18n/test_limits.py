"""Every text that goes into a label, a select option, a title or a command fits Discord's limits
in every language, filled with the longest values it can be given (no truncation relied on)."""

from __future__ import annotations

import string
from collections.abc import Iterator

import pytest

from bot.engine import ALL_CARDS
from bot.engine.rules import OPTION_NAMES
from bot.i18n import available_locales, catalogue, split_plural, t
from bot.store import GuildConfig
from bot.ui.cards import card_name
from bot.ui.rule_options import (
    RULE_GROUPS,
    SERVER_OPTIONS,
    option_choices,
    option_label,
    select_values,
)
from cogs.uno.lobby.settings_panel import server_values

LOCALES = available_locales()
NAME = "W" * 32  # Discord display names are at most 32 characters
BUTTON, OPTION, PLACEHOLDER, TITLE, FIELD, DESCRIPTION = 80, 100, 150, 256, 256, 100

#: (key prefixes or keys, limit): what each piece of the catalogue is shown in.
LIMITS: tuple[tuple[tuple[str, ...], int], ...] = (
    (
        (
            "hand.accept", "hand.catch", "hand.catch_named", "hand.challenge", "hand.draw",
            "hand.keep", "hand.next", "hand.pass", "hand.play_drawn", "hand.play_uno",
            "hand.previous", "hand.refresh", "hand.uno", "lobby.add_computer", "lobby.cancel",
            "lobby.join", "lobby.leave", "lobby.rules", "lobby.start", "table.catch",
            "table.draw", "table.next_round", "table.show_hand", "table.uno", "table.log",
            "card.colored", "hand.card_count", "card.times",
        ),
        BUTTON,
    ),
    (
        (
            "settings.group.", "rules.option.", "settings.option.", "rules.value.", "rules.on",
            "rules.off", "settings.start_policy.", "settings.language_auto", "language.name",
            "settings.now", "settings.official", "settings.timer_off", "settings.ping_now",
            "settings.ping_after", "settings.seconds", "computer.name",
        ),
        OPTION,
    ),
    (("settings.pick_", "hand.target_placeholder"), PLACEHOLDER),
    (
        (
            "table.title", "table.log_title", "result.title", "rules.title", "settings.title",
            "leaderboard.title", "stats.title", "help.title", "lobby.title", "hand.title",
        ),
        TITLE,
    ),
    (("table.players",), FIELD),
    (("cmd.",), DESCRIPTION),
    (("preset.", "scoring.", "color.", "leaderboard.sort.", "computer.level."), OPTION),
)  # fmt: skip


def _longest(texts: Iterator[str]) -> str:
    return max(texts, key=len)


def _samples(code: str) -> dict[str, object]:
    """The longest value each placeholder can take in `code`."""
    cards = _longest(card_name(c, code) for c in ALL_CARDS)
    options = _longest(option_label(o, code) for o in (*OPTION_NAMES, *SERVER_OPTIONS))
    values = _longest(
        label
        for o, current in server_values(GuildConfig(1)).items()
        for _, label in select_values(o, current, code)
    )
    return {
        "card": cards,
        "color": _longest(t(f"color.{c}", code) for c in "RYGB"),
        "rank": _longest(t(f"rank.{c.rank.value}", code) for c in ALL_CARDS),
        "option": options,
        "value": values,
        "official": values,
        "level": _longest(t(f"computer.level.{v}", code) for v in ("easy", "normal", "hard")),
        "preset": _longest(t(f"preset.{p}", code) for p in ("custom", "germany_cards")),
        "sort": _longest(t(f"leaderboard.sort.{s}", code) for s in ("points", "wins", "win_rate")),
        "count": 22,
        "round": 999,
        "page": 999,
        "pages": 999,
    }


def _covers(pattern: str, key: str, base: str) -> bool:
    """A pattern ending in "." or "_" is a prefix; any other names one message."""
    return key.startswith(pattern) if pattern.endswith((".", "_")) else base == pattern


def _cases() -> Iterator[tuple[str, str, int]]:
    for code in LOCALES:
        for key in catalogue(code):
            for prefixes, limit in LIMITS:
                base = split_plural(key)[0]
                if any(_covers(p, key, base) for p in prefixes):
                    yield code, key, limit
                    break


@pytest.mark.parametrize(("code", "key", "limit"), list(_cases()))
def test_fits(code: str, key: str, limit: int) -> None:
    text = catalogue(code)[key]
    samples = _samples(code)
    fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
    filled = text.format(**{f: samples.get(f, NAME) for f in fields})
    assert 1 <= len(filled) <= limit, filled


@pytest.mark.parametrize("code", LOCALES)
def test_every_settings_select_fits_without_truncation(code: str) -> None:
    current = server_values(GuildConfig(1))
    for group, names in [*RULE_GROUPS.items(), ("table", SERVER_OPTIONS)]:
        assert len(t(f"settings.group.{group}", code)) <= OPTION
        for option in names:
            assert len(option_label(option, code)) <= OPTION
            for value, label in select_values(option, current[option], code):
                assert len(label) <= OPTION and len(value) <= OPTION
    assert all(len(label) <= OPTION for label, _ in option_choices("", code))


@pytest.mark.parametrize("code", LOCALES)
def test_every_card_button_fits(code: str) -> None:
    for card in ALL_CARDS:
        name = card_name(card, code)
        assert len(t("hand.play_uno", code, card=name)) <= BUTTON
        assert len(t("hand.card_count", code, card=name, count=22)) <= BUTTON
