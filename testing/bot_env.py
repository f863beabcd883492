"""The environment the bot process runs with against the emulator, in tests and benchmarks.

Why one place: every end-to-end test and benchmark must start the bot the same way (a temporary
SQLite file, seeded deals, the test hooks), and nothing but what a test asks for may leak in from
the caller's environment.
"""

from __future__ import annotations

import os
from pathlib import Path

from testing.fakediscord import FakeDiscord


def bot_env(emu: FakeDiscord, tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(emu.env())
    env.update(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp / 'uno.db'}",
            "DATA_DIR": str(tmp / "data"),
            "UNO_TEST_SEED": "1",
            "UNO_TEST_DECKS": str(tmp / "decks.json"),
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            # Computer players move almost at once in tests (0.6-1.5 s in production).
            "COMPUTER_DELAY_MIN": "0.02",
            "COMPUTER_DELAY_MAX": "0.06",
            # Tests that follow the table turn by turn would wait a second per turn otherwise;
            # test_table_rate runs the bot with the production interval.
            "TABLE_EDIT_INTERVAL": "0",
        }
    )
    env.update(extra)
    return env
