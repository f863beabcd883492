"""The catalogue: every key the code uses exists, and every message formats."""

from __future__ import annotations

import re
import string
from pathlib import Path

from bot.engine import PRESETS, Card, Rank
from bot.engine.rules import CHOICES, OPTION_NAMES
from bot.i18n import catalogue, has_key, t

ROOT = Path(__file__).resolve().parents[2]
KEY = re.compile(
    r"""["']((?:cmd|cmdname|count|computer|settings|ping|language|error|notice|hand|table|lobby|log|result|rules|leaderboard|stats|help|card|color|rank|preset|scoring)\.[a-z0-9_.]+)["']"""
)


def _used_keys() -> set[str]:
    keys = set()
    for folder in ("bot/ui", "bot/i18n", "cogs", "bot/client.py"):
        path = ROOT / folder
        files = [path] if path.is_file() else path.rglob("*.py")
        for file in files:
            keys |= set(KEY.findall(file.read_text()))
    return keys


def test_every_literal_key_exists() -> None:
    missing = sorted(k for k in _used_keys() if not has_key(k) and not k.endswith("."))
    assert missing == []


def test_dynamic_keys_exist() -> None:
    needed = {f"rank.{r.value}" for r in Rank} | {f"color.{c}" for c in "RYGB"}
    needed |= {f"preset.{p}" for p in PRESETS} | {f"scoring.{s}" for s in CHOICES["scoring"]}
    needed |= {f"rules.option.{o}" for o in OPTION_NAMES}
    needed |= {f"rules.value.{o}.{v}" for o, values in CHOICES.items() for v in values}
    needed |= {
        f"error.{k}"
        for k in (
            "not_in_game",
            "not_your_turn",
            "illegal_action",
            "game_over",
            "catch_nobody",
            "uno_not_needed",
            "round_over",
            "eliminated",
            "no_jump_in",
            "card_not_in_hand",
            "uno_too_early",
            "card_not_playable",
            "not_now",
        )
    }
    assert sorted(k for k in needed if not has_key(k)) == []


def test_every_message_formats_with_its_own_placeholders() -> None:
    for key, text in catalogue("en").items():
        fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
        assert t(key, "en", **{**dict.fromkeys(fields, "x"), "count": 2}) != key


def test_locales_fall_back_to_english() -> None:
    assert t("table.draw", "pt-BR") == "Draw"
    assert t("card.colored", "en-US", color="Red", rank="7") == "Red 7"


def test_card_names() -> None:
    from bot.ui.cards import card_name

    assert card_name(Card.of("R7")) == "Red 7"
    assert card_name(Card.of("W4")) == "Wild Draw Four"
    assert card_name(Card.of("GD")) == "Green Draw Two"
