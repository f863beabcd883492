"""End-to-end fixtures: one emulator and one bot *process* for the whole e2e session.

The bot runs as `python -m bot`, pointed at the emulator by DISCORD_API_BASE/GATEWAY_URL, with a
temporary SQLite database and DEV_GUILD_ID set (commands sync to that guild at start). Each test
gets its own channel and users in that guild, so tests never see each other's games.

Under pytest-xdist (pyproject.toml: `-n 2 --dist loadgroup`) each worker has a session of its own
(its own emulator on a port of its own, its own bot and temporary files), and each e2e module
runs whole on one worker (`xdist_group`), so a module's own bot is started once. The modules that
use PostgreSQL's role schema (tests/e2e/postgres.py: one schema per database role, dropped by
every test) share one group, so two of them never run at once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.e2e.worlds import BotWorld, running_world

ROOT = Path(__file__).resolve().parents[2]

#: Modules whose tests empty the database role's PostgreSQL schema (tests/e2e/postgres.py).
ROLE_SCHEMA_MODULES = {"test_resume", "test_sharding", "test_storm"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """One xdist group per e2e module (one for all that use the role's PostgreSQL schema); before
    xdist's own hook, which names each test after its group."""
    for item in items:
        path = Path(str(item.path))
        if path.parent != Path(__file__).parent:
            continue
        group = "e2e-postgres" if path.stem in ROLE_SCHEMA_MODULES else f"e2e-{path.stem}"
        item.add_marker(pytest.mark.xdist_group(group))


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
