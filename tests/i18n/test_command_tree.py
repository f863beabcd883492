"""The command tree as Discord receives it: every localisation is valid for Discord (names match
its pattern and are lower case, descriptions and choices at most 100 characters, no two sibling
names alike in any language), and German and Norwegian are there for every command."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import EXTENSIONS, create_bot
from bot.i18n.translator import CatalogueTranslator
from bot.settings import Settings
from bot.store import open_database


@pytest.fixture
async def payloads(tmp_path: Path) -> Any:
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}")
    bot = create_bot(Settings(_env_file=None, discord_token="x"), database)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    translator = CatalogueTranslator()
    yield [await c.get_translated_payload(bot.tree, translator) for c in bot.tree.get_commands()]
    await bot.close()
    await database.close()


def valid_name(name: str) -> bool:
    """Discord's `^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, lower case where cased."""
    allowed = all(
        c in "-_" or unicodedata.category(c)[0] in "LN" or "DEVANAGARI" in unicodedata.name(c, "")
        for c in name
    )
    return 1 <= len(name) <= 32 and allowed and name == name.lower()


def _nodes(items: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every command or option with its siblings."""
    for item in items:
        yield item, items
        yield from _nodes(item.get("options") or [])


def test_the_pattern_check_itself() -> None:
    assert valid_name("gegen-uno") and valid_name("stärke") and valid_name("bli_med")
    assert not valid_name("Neu") and not valid_name("zwei wörter") and not valid_name("x" * 33)


async def test_every_localisation_is_valid(payloads: list[dict[str, Any]]) -> None:
    for node, siblings in _nodes(payloads):
        names = node.get("name_localizations") or {}
        assert valid_name(node["name"]) and all(valid_name(n) for n in names.values()), names
        descriptions = node.get("description_localizations") or {}
        assert all(1 <= len(d) <= 100 for d in [node["description"], *descriptions.values()])
        for choice in node.get("choices") or []:
            shown = [choice["name"], *(choice.get("name_localizations") or {}).values()]
            assert all(1 <= len(c) <= 100 for c in shown), choice
        for locale in names:
            taken = [(s.get("name_localizations") or {}).get(locale, s["name"]) for s in siblings]
            assert len(taken) == len(set(taken)), (locale, taken)


@pytest.mark.parametrize("locale", ["de", "no"])
async def test_german_and_norwegian_everywhere(payloads: list[dict[str, Any]], locale: str) -> None:
    for node, _ in _nodes(payloads):
        assert locale in (node.get("description_localizations") or {}), node["name"]
        assert locale in (node.get("name_localizations") or {}), node["name"]
        for choice in node.get("choices") or []:
            assert locale in (choice.get("name_localizations") or {}), choice


async def test_the_names_in_use(payloads: list[dict[str, Any]]) -> None:
    uno = next(p for p in payloads if p["name"] == "uno")
    new = next(o for o in uno["options"] if o["name"] == "new")
    assert new["name_localizations"][discord.Locale.german.value] == "neu"
    assert new["name_localizations"][discord.Locale.norwegian.value] == "ny"
    # Latin American Spanish readers get the European Spanish texts (when there are some).
    descriptions = new["description_localizations"]
    assert descriptions.get("es-419") == descriptions.get("es-ES")
