"""The type checker's house rules: it runs in CI, strict on every package but `tests/`, and its
ignore comments stay rare and explained.

mypy itself (configured in pyproject.toml) requires an error code on every ignore comment and
reports the ones no longer needed; this adds what it cannot: at most MAX_IGNORES in the whole
repository, each with a reason on its line (`# type<colon> ignore[code]  # why`), the strict
configuration kept, and no message crossing from a renderer to Discord as a dict.
"""

from __future__ import annotations

import ast
import re
import tomllib
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


#: Every folder of Python the repository ships or runs, checked by mypy (tests/ excepted).
CHECKED = {"bot", "cogs", "migrations", "benchmarks", "tools", "testing"}


def test_the_checker_is_strict_on_everything_but_the_tests() -> None:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True
    assert set(mypy["files"]) == CHECKED
    folders = {p.name for p in ROOT.iterdir() if p.is_dir() and any(p.glob("*.py"))}
    assert folders - CHECKED == {"tests"}  # a new folder of code is checked too
    for override in mypy.get("overrides", []):  # one may only excuse a library without types
        assert set(override) <= {"module", "ignore_missing_imports"}, override


#: Functions of the Discord layer that return a `dict[str, Any]` that is no message: a server's
#: setting values, a deal's test hooks, a game record's parts.
NOT_MESSAGES = {"server_values", "deal_options", "record_parts", "_replay_parts", "_tiny_parts"}


def test_no_message_crosses_from_a_renderer_to_discord_as_a_dict() -> None:
    """Renderers return an `Outgoing` (bot/ui/outgoing.py) and cogs/uno/delivery.py alone makes
    discord.py's (typed) keyword arguments of it: no function of bot/ui or cogs returns a
    `dict[str, Any]` of message keyword arguments, nor reads a "picture" out of one."""
    found = []
    for path in sorted([*(ROOT / "bot" / "ui").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns:
                returns = ast.unparse(node.returns)
                if "dict[str, Any]" in returns and node.name not in NOT_MESSAGES:
                    found.append(f"{where} {node.name} -> {returns}")
            if _picture_key(node):
                found.append(f"{where} {ast.unparse(node)}")
    assert found == []


def _picture_key(node: ast.AST) -> bool:
    """`x["picture"]`, `x.get("picture")` / `.pop` / `.setdefault`, or `{"picture": ...}`."""
    key = ast.Constant("picture")
    if isinstance(node, ast.Subscript):
        return ast.dump(node.slice) == ast.dump(key)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
        named = node.func.attr in {"get", "pop", "setdefault"}
        return named and ast.dump(node.args[0]) == ast.dump(key)
    if isinstance(node, ast.Dict):
        return any(k is not None and ast.dump(k) == ast.dump(key) for k in node.keys)
    return False
