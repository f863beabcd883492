"""End-to-end fixtures: one emulator and one bot *process* for the whole e2e session.

The bot runs as `python -m bot`, pointed at the emulator by DISCORD_API_BASE/GATEWAY_URL, with a
temporary SQLite database and DEV_GUILD_ID set (commands sync to that guild at start). Each test
gets its own channel and users in that guild, so tests never see each other's games.

Under pytest-xdist (pyproject.toml: `-n 2 --dist loadfile`) each worker has a session of its own
(its own emulator on a port of its own, its own bot and temporary files), and each module runs
whole on one worker, so a module's own bot is started once. (The tests that use PostgreSQL's one
schema per role take turns: tests/e2e/postgres.py.) The e2e tests come first, the longest modules
first (`LONGEST_FIRST`), so that a worker has played all its e2e tests before it turns to the
in-process ones: a synchronous test stops the event loop the session's emulator serves from,
which its bot, still connected, must not meet in the middle of a test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.e2e.worlds import BotWorld, running_world

ROOT = Path(__file__).resolve().parents[2]

#: The e2e modules that take longest (docs/benchmarks.md, "The test suite"), longest first: the
#: two workers start with them, and the short ones fill in. Only the balance depends on it.
LONGEST_FIRST = [
    "test_resume",
    "test_results_outbox",
    "test_table_heal",
    "test_storm",
    "test_replay_stuck",
    "test_owner_moves_on",
    "test_absent_players",
    "test_matches",
    "test_timers",
    "test_stuck_workers",
    "test_turn_pings",
]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The e2e tests first, the longest modules first (xdist hands out modules in this order)."""
    here = Path(__file__).parent
    e2e = [item for item in items if Path(str(item.path)).parent == here]
    others = [item for item in items if Path(str(item.path)).parent != here]
    rank = {module: n for n, module in enumerate(LONGEST_FIRST)}
    e2e.sort(key=lambda item: rank.get(Path(str(item.path)).stem, len(rank)))
    items[:] = e2e + others


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
