"""The README's promise to a newcomer: two commands, one that installs and runs the bot and one
that installs and runs the whole test suite, and `.ci/run` runs exactly the second."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _shell_blocks(text: str) -> list[str]:
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", text, re.DOTALL)]


def test_the_readme_has_the_two_commands() -> None:
    blocks = _shell_blocks((ROOT / "README.md").read_text())
    assert len(blocks) == 2, blocks
    run, test = blocks
    assert "\n" not in run and "\n" not in test  # one line each, to copy and paste
    assert run.startswith("python3 -m venv .venv && ") and run.endswith(".venv/bin/uno-bot")
    assert test.startswith("python3 -m venv .venv && ") and test.endswith(".venv/bin/pytest -q")
    assert '-e ".[test]"' in test


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    test = _shell_blocks((ROOT / "README.md").read_text())[1]
    script = (ROOT / ".ci" / "run").read_text()
    last = [line for line in script.splitlines() if line.strip()][-1]
    assert last.strip() == test
