"""The settings table of docs/operating.md names every setting the bot reads from the environment,
and no other."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
#: The page whose "Settings" table an operator reads (the README links to it).
SETTINGS_PAGE = ROOT / "docs" / "operating.md"


def _documented() -> set[str]:
    """The variables named in the first column of the page's "## Settings" table."""
    section = SETTINGS_PAGE.read_text().split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    table = [line for line in section.splitlines() if line.startswith("| `")]
    return {
        name for line in table for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", line.split("|")[1])
    }


def _read_by_the_code() -> set[str]:
    names = {name.upper() for name in Settings.model_fields}
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            names |= set(
                re.findall(r"(?:environ\.get|getenv)\(\s*\"([A-Z0-9_]+)\"", path.read_text())
            )
    return names


def test_every_variable_the_bot_reads_is_in_the_settings_table() -> None:
    read = _read_by_the_code()
    assert "UNO_TEST_SEED" in read and "DISCORD_TOKEN" in read  # the scan finds both kinds
    assert read - _documented() == set()


def test_the_settings_table_names_only_variables_the_bot_reads() -> None:
    documented = _documented()
    assert "DATABASE_URL" in documented  # the table was found
    assert documented - _read_by_the_code() == set()


def test_the_readme_sends_operators_to_the_settings_table() -> None:
    assert "(docs/operating.md)" in (ROOT / "README.md").read_text()
