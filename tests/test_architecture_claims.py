"""docs/architecture.md's claims about the code, checked against the code: who writes a running
game's rows, that the composition root binds nothing late, and that tests/ mirrors the layers.

Each test reads the source (ast), so a new writer, a late-bound callback or a misplaced test
fails here and is either fixed or, if it is right, written into the page and this file together.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNO = ROOT / "cogs" / "uno"

#: The store's writes of a game that only a running game has: the owner's (its change's save,
#: its end, its deadlines) and its ping's own message id.
RUNNING_WRITES = {
    "save_action": {"game/saving.py"},
    "finish": {"game/saving.py"},
    "finish_round": {"game/saving.py"},
    "move_deadline": {"game/saving.py"},
    "set_timeouts": {"game/saving.py"},
    "set_turn_deadline": {"game/owner.py"},
    "set_ping_message": {"game/pings.py"},
    "clear_ping_messages": {"game/pings.py"},
}
#: Writes a lobby has too: outside the owner only in the lobby's flows, on a lobby.
LOBBY_OR_RUNNING_WRITES = {
    "abandon": {"game/owner.py", "lobby/lobbies.py"},
    "unseat": {"game/saving.py", "lobby/lobbies.py"},
    "set_table_message": {
        "game/owner.py",
        "game/requests.py",
        "lobby/lobbies.py",
        "lobby/rematch.py",
    },
}


def _store_calls() -> dict[str, set[str]]:
    """Which module of cogs/uno calls each `unit.games.<method>`."""
    callers: dict[str, set[str]] = defaultdict(set)
    for path in UNO.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "games"
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id == "unit"
            ):
                callers[node.attr].add(str(path.relative_to(UNO)))
    return callers


@pytest.mark.parametrize("writes", [RUNNING_WRITES, LOBBY_OR_RUNNING_WRITES])
def test_a_running_game_is_written_only_through_its_owner(writes: dict[str, set[str]]) -> None:
    """architecture.md: "Every write to a running game goes through its owner"."""
    callers = _store_calls()
    assert {method: callers.get(method, set()) for method in writes} == writes


def test_the_list_of_writes_is_the_stores() -> None:
    """Every method named above is one the store has (a rename would leave this test blind)."""
    from bot.store.games import GameRepository

    methods = set(RUNNING_WRITES) | set(LOBBY_OR_RUNNING_WRITES)
    assert {m for m in methods if not hasattr(GameRepository, m)} == set()


def test_the_composition_root_binds_nothing_late() -> None:
    """architecture.md: UnoApp builds every flow once, in order, with no callbacks bound late:
    its constructor assigns only its own attributes, never one of another object."""
    tree = ast.parse((UNO / "app.py").read_text(encoding="utf-8"))
    init = next(
        node
        for cls in tree.body
        if isinstance(cls, ast.ClassDef) and cls.name == "UnoApp"
        for node in cls.body
        if isinstance(node, ast.FunctionDef) and node.name == "__init__"
    )
    late = []
    for node in ast.walk(init):
        targets = node.targets if isinstance(node, ast.Assign) else []
        targets += [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and not (
                    isinstance(part.value, ast.Name) and part.value.id == "self"
                ):
                    late.append(ast.unparse(target))
    assert late == []


@pytest.mark.parametrize(
    ("folder", "package"),
    [
        ("engine", "bot.engine"),
        ("store", "bot.store"),
        ("ui", "bot.ui"),
        ("i18n", "bot.i18n"),
        ("cogs", "cogs"),
    ],
)
def test_tests_mirror_the_layers(folder: str, package: str) -> None:
    """architecture.md: a layer's tests sit in its folder of tests/ and test that layer (they
    import it); the process's own modules (bot/*.py) are tested in tests/ itself."""
    strays = []
    for path in sorted((ROOT / "tests" / folder).glob("test_*.py")):
        if path.name == "test_purity.py":  # imports the engine in a child interpreter
            continue
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        if not any(name == package or name.startswith(package + ".") for name in imported):
            strays.append(path.name)
    assert strays == []


def test_a_long_file_says_why() -> None:
    """architecture.md: a file over 500 lines says why in its docstring ("on purpose"), or is
    generated data."""
    unexplained = []
    for folder in ("bot", "cogs", "testing", "tools", "benchmarks", "migrations"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            if text.count("\n") <= 500 or "/tests/" in path.as_posix():
                continue
            docstring = (ast.get_docstring(ast.parse(text)) or "").lower()
            if "on purpose" not in docstring and "generated" not in docstring:
                unexplained.append(str(path.relative_to(ROOT)))
    assert unexplained == []
