"""docs/architecture.md's map names every module of `bot/` and `cogs/`, each under its package,
so the page a newcomer reads first does not fall behind the code."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _the_map() -> tuple[dict[str, str], str]:
    """The map's row of each package of `bot/` (by its first cell), and the text of `cogs/`."""
    page = (ROOT / "docs" / "architecture.md").read_text()
    section = page.split("\n### The map\n", 1)[1].split("\n## ", 1)[0]
    bot_part, cogs_part = section.split("`cogs/` (the Discord layer)", 1)
    rows = {}
    for line in bot_part.splitlines():
        if line.startswith("| `"):
            first, rest = line[3:].split("`", 1)
            rows[first] = rest
    return rows, cogs_part


def _modules(folder: str) -> list[Path]:
    return [p for p in sorted((ROOT / folder).glob("*.py")) if p.name != "__init__.py"]


@pytest.mark.parametrize(
    ("folder", "row"),
    [
        ("bot/engine", "engine/"),
        ("bot/store", "store/"),
        ("bot/ui", "ui/"),
        ("bot/ui/art", "ui/"),
        ("bot/i18n", "i18n/"),
    ],
)
def test_every_module_of_a_layer_is_on_the_map(folder: str, row: str) -> None:
    text = _the_map()[0][row]
    assert [p.name for p in _modules(folder) if f"`{p.name}`" not in text] == []


def test_every_module_of_the_process_is_on_the_map() -> None:
    rows = _the_map()[0]
    assert [p.name for p in _modules("bot") if p.name not in rows] == []


def test_every_module_of_the_discord_layer_is_on_the_map() -> None:
    text = _the_map()[1]
    modules = [p for p in sorted((ROOT / "cogs").rglob("*.py")) if p.name != "__init__.py"]
    named = [
        str(p.relative_to(ROOT / "cogs" / "uno")) if "uno" in p.parts else p.name for p in modules
    ]
    assert [name for name in named if f"`{name}`" not in text] == []
