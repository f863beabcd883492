"""The type checker's house rules: it runs in CI, and its ignore comments stay rare and explained.

mypy itself (configured in pyproject.toml) requires an error code on every ignore comment and
reports the ones no longer needed; this adds what it cannot: at most MAX_IGNORES in the whole
repository, each with a reason on its line (`# type<colon> ignore[code]  # why`).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_IGNORES = 10
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")
SKIPPED = {".venv", ".git", ".mypy_cache", "build"}


def _ignores() -> list[tuple[str, str]]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if SKIPPED & set(path.relative_to(ROOT).parts):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if IGNORE.search(line):
                found.append((f"{path.relative_to(ROOT)}:{number}", line.strip()))
    return found


def test_few_type_ignores() -> None:
    ignores = _ignores()
    assert len(ignores) <= MAX_IGNORES, "\n".join(f"{where}: {line}" for where, line in ignores)


def test_every_type_ignore_names_its_error_and_why() -> None:
    unexplained = []
    for where, line in _ignores():
        match = IGNORE.search(line)
        assert match is not None
        reason = match["rest"].strip().lstrip("#-: ").strip()
        if not match["codes"] or not reason:
            unexplained.append(f"{where}: {line}")
    assert not unexplained, "an error code and a reason each:\n" + "\n".join(unexplained)


def test_ci_runs_the_type_checker() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ".venv/bin/mypy &&" in ci.splitlines()[-1]
