"""Another revision's bot for side-by-side benchmarks (`--baseline REV`).

A directory is used as it is; a git revision is checked out into a temporary worktree that is
removed again when the benchmark ends, so repeated runs leave nothing behind.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def baseline_checkout(baseline: str) -> Iterator[Path]:
    """The directory of the baseline bot, for the duration of the `with` block."""
    path = Path(baseline)
    if path.is_dir():
        yield path.resolve()
        return
    target = Path(tempfile.mkdtemp(prefix="uno-baseline-")) / "tree"
    git = ["git", "-C", str(ROOT), "worktree"]
    subprocess.run([*git, "add", "--detach", str(target), baseline], check=True)
    try:
        yield target
    finally:
        subprocess.run([*git, "remove", "--force", str(target)], check=False)
