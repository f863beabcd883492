"""The rules engine imports only the standard library (STYLE.md: it knows no chat platform)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_engine_imports_only_the_standard_library():
    probe = textwrap.dedent(
        """
        import sys
        before = set(sys.modules)
        import bot.engine, bot.engine.ai, bot.engine.view
        added = set(sys.modules) - before
        stdlib = sys.stdlib_module_names
        foreign = sorted(
            m for m in added
            if m.split(".")[0] not in stdlib and m.split(".")[0] != "bot"
        )
        print(",".join(foreign))
        print(",".join(sorted(m for m in added if m.startswith("bot.") and
                              not m.startswith("bot.engine"))))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out[0] == "", f"third-party modules imported by bot.engine: {out[0]}"
    assert out[1] == "", f"bot.engine imports other parts of the bot: {out[1]}"
