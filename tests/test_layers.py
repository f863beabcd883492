"""The import graph of `bot/` and `cogs/`: no circles, and arrows only the way the layers allow.

Every import counts, including those under TYPE_CHECKING and inside functions: a circle that
only type hints close is still two modules that cannot be understood one without the other.
Layers (STYLE.md): `cogs -> ui, store, engine`; `ui -> engine`; `store -> engine`; `engine ->`
nothing of ours. `bot.i18n` (the catalogue) may be used by `ui` and `cogs`; the application's
entry modules (`bot.__main__`, `bot.client`, `bot.settings`) sit above everything.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs")

#: Which of our layers each layer may import (itself always).
ALLOWED: dict[str, set[str]] = {
    "bot.engine": set(),
    "bot.i18n": set(),
    "bot.store": {"bot.engine"},
    "bot.ui": {"bot.engine", "bot.i18n"},
    "cogs": {
        "bot.engine",
        "bot.i18n",
        "bot.store",
        "bot.ui",
        "bot.settings",
        "bot.host",
        "bot.child_process",
        "bot.request_budget",
    },
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module: str) -> set[str]:
    """The modules of ours that `module` imports, resolved to module (not package) names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                prefix = ".".join([*base, node.module] if node.module else base)
            else:
                prefix = node.module or ""
            found.add(prefix)
            found.update(f"{prefix}.{alias.name}" for alias in node.names)
    return {name for name in found if name.split(".")[0] in PACKAGES}


def import_graph() -> dict[str, set[str]]:
    files = {
        _module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets = {name for name in _imports(path, module) if name in files}
        graph[module] = targets - {module}
    return graph


def _layer(module: str) -> str | None:
    for layer in sorted(ALLOWED, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    return None


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def _package_parents(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph without arrows into a package's own `__init__` from inside it (re-exports)."""
    return {
        module: {t for t in targets if not module.startswith(t + ".")}
        for module, targets in graph.items()
    }


def test_the_graph_is_read() -> None:
    graph = import_graph()
    assert "bot.engine.game" in graph and "cogs.uno.commands" in graph
    assert "bot.engine.state" in graph["bot.engine.game"]
    assert "bot.store" in graph["cogs.uno.commands"] or any(
        t.startswith("bot.store") for t in graph["cogs.uno.commands"]
    )


def test_no_import_circles() -> None:
    assert _cycles(_package_parents(import_graph())) == []


def test_arrows_point_the_way_the_layers_allow() -> None:
    wrong = []
    for module, targets in import_graph().items():
        layer = _layer(module)
        if layer is None:
            continue  # the entry modules may import anything
        for target in targets:
            other = _layer(target) or target
            if other != layer and other not in ALLOWED[layer]:
                wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_nothing_outside_tests_imports_tests() -> None:
    """Benchmarks, tools and the shared test kit (`testing/`) stand on their own: what they
    need from the e2e tests lives in `testing/`, which the tests import, never the reverse."""
    wrong = []
    for folder in ("bot", "cogs", "migrations", "benchmarks", "tools", "testing"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = (
                    [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if isinstance(node, ast.ImportFrom) and not node.level
                    else []
                )
                wrong += [
                    f"{path.relative_to(ROOT)}: {name}"
                    for name in names
                    if name == "tests" or name.startswith("tests.")
                ]
    assert wrong == []


def test_settings_are_read_in_one_place() -> None:
    """The environment is read by `bot/settings.py` alone, and the settings reach the code typed
    (the app is handed the Settings object): no `os.environ`, no `getattr(bot, "settings")`."""
    wrong = []
    for folder in ("bot", "cogs", "migrations"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == ROOT / "bot" / "settings.py":
                continue
            text = path.read_text(encoding="utf-8")
            for pattern in (r"\bos\.environ\b", r"\bos\.getenv\b", r"getattr\([^)]*\"settings\""):
                wrong += [f"{path.relative_to(ROOT)}: {m}" for m in re.findall(pattern, text)]
    assert wrong == []
