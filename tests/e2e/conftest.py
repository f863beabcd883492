"""End-to-end fixtures: one emulator and one bot *process* for the whole e2e session.

The bot runs as `python -m bot`, pointed at the emulator by DISCORD_API_BASE/GATEWAY_URL, with a
temporary SQLite database and DEV_GUILD_ID set (commands sync to that guild at start). Each test
gets its own channel and users in that guild, so tests never see each other's games.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.e2e.worlds import BotWorld, running_world

ROOT = Path(__file__).resolve().parents[2]


class Session(BotWorld):
    """What e2e tests share: the emulator, the guild, the bot process and its files."""


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def session(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Session]:
    tmp = tmp_path_factory.mktemp("e2e")
    async with running_world(Session, tmp, "UNO Club", checked="per test") as world:
        yield world


@pytest.fixture
def s(session: Session, request: pytest.FixtureRequest) -> Any:
    """The session, checked after the test: no new violations, failures or unknown routes."""
    emu = session.emu
    before = (len(emu.violations), len(emu.failed_interactions), len(emu.unknown_routes))
    yield session
    problems = [str(v) for v in emu.violations[before[0] :]]
    problems += [
        f"failed interaction {i.id} {i.data}" for i in emu.failed_interactions[before[1] :]
    ]
    problems += [f"unknown route {r.method} {r.path}" for r in emu.unknown_routes[before[2] :]]
    if problems:
        pytest.fail(
            "emulator problems:\n"
            + "\n".join(problems)
            + "\n--- bot log ---\n"
            + session.bot.log_tail()
        )
