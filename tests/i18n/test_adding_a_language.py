"""TRANSLATING.md's promise: dropping `<code>.json` into the catalogue folder is all it takes.
The new file is offered in the server's Language setting, read by players whose Discord speaks
it, given to Discord for the commands, and checked by the same tests as the others."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

import bot.i18n as i18n
from bot.i18n import available_locales, catalogue, resolve_locale, t
from bot.i18n.translator import translation
from bot.store import GuildConfig
from bot.ui.rule_options import select_values
from cogs.uno.lobby.settings_panel import changed_config


def _clear() -> None:
    catalogue.cache_clear()
    available_locales.cache_clear()
    resolve_locale.cache_clear()


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the catalogue folder the bot reads instead of its own."""
    for file in Path(i18n.__file__).parent.glob("*.json"):
        shutil.copy(file, tmp_path / file.name)
    monkeypatch.setattr(i18n, "_DIR", tmp_path)
    _clear()
    yield tmp_path
    monkeypatch.undo()
    _clear()


def _add_finnish(folder: Path) -> None:
    messages = json.loads((folder / "en.json").read_text(encoding="utf-8"))
    messages.update(
        {
            "language.name": "suomi",
            "cmdname.new": "uusi",
            "hand.title_one": "Kätesi — {count} kortti",
            "hand.title_other": "Kätesi — {count} korttia",
        }
    )
    (folder / "fi.json").write_text(json.dumps(messages, ensure_ascii=False), encoding="utf-8")
    _clear()


def test_a_new_file_is_a_new_language(folder: Path) -> None:
    assert "fi" not in available_locales()
    assert resolve_locale(discord.Locale.finnish) == "en"
    _add_finnish(folder)
    assert "fi" in available_locales()
    assert resolve_locale(discord.Locale.finnish) == "fi"
    assert t("hand.title", "fi", count=1) == "Kätesi — 1 kortti"
    assert t("hand.title", "fi", count=1500) == "Kätesi — 1\xa0500 korttia"


def test_the_admin_can_choose_it(folder: Path) -> None:
    _add_finnish(folder)
    offered = dict(select_values("language", "auto", "en"))
    assert offered["fi"] == "suomi" and offered["auto"]
    assert changed_config(GuildConfig(1), option="language", value="fi").language == "fi"


def test_discord_gets_its_command_names(folder: Path) -> None:
    assert translation("cmdname.new", discord.Locale.finnish) is None
    _add_finnish(folder)
    assert translation("cmdname.new", discord.Locale.finnish) == "uusi"
    assert translation("cmdname.new", discord.Locale.american_english) is None


def test_only_known_languages_or_auto() -> None:
    from bot.engine import InvalidRules

    assert changed_config(GuildConfig(1), option="language", value="auto").language == "auto"
    with pytest.raises(InvalidRules):
        changed_config(GuildConfig(1), option="language", value="xx")
