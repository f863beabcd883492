"""End-to-end fixtures: one emulator and one bot *process* for the whole e2e session.

The bot runs as `python -m bot`, pointed at the emulator by DISCORD_API_BASE/GATEWAY_URL, with a
temporary SQLite database and DEV_GUILD_ID set (commands sync to that guild at start). Each test
gets its own channel and users in that guild, so tests never see each other's games.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from testing.bot_env import bot_env
from testing.fakediscord import BotProcess, FakeDiscord, Guild
from testing.players import Table

ROOT = Path(__file__).resolve().parents[2]


class Session:
    """What e2e tests share: the emulator, the guild, the bot process and a deck file."""

    def __init__(self, emu: FakeDiscord, guild: Guild, bot: BotProcess, decks: Path) -> None:
        self.emu = emu
        self.guild = guild
        self.bot = bot
        self.decks = decks
        self._channels = 0

    def channel(self, name: str | None = None) -> int:
        self._channels += 1
        return self.emu.add_channel(self.guild, name or f"uno-{self._channels}")

    def users(self, *names: str, **kwargs: Any) -> list[Any]:
        return [self.emu.add_user(f"{n}{self._channels}", self.guild, **kwargs) for n in names]

    def fix_deal(self, channel_id: int, spec: dict[str, Any]) -> None:
        """Test hook: the next game started in this channel uses this deal (see _test_deal)."""
        data = json.loads(self.decks.read_text()) if self.decks.exists() else {}
        data[str(channel_id)] = spec
        self.decks.write_text(json.dumps(data))

    def table(self, channel_id: int) -> Table:
        return Table(self.emu, channel_id)


@pytest_asyncio.fixture(loop_scope="session", scope="session")
async def session(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Session]:
    tmp = tmp_path_factory.mktemp("e2e")
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("UNO Club")
    env = bot_env(emu, tmp, DEV_GUILD_ID=str(guild.id))
    bot = emu.bot_process(env=env, cwd=str(ROOT))
    await bot.start()
    try:
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
    except TimeoutError:
        await bot.stop()
        await emu.stop()
        raise RuntimeError("the bot did not start:\n" + bot.log_tail()) from None
    yield Session(emu, guild, bot, tmp / "decks.json")
    await bot.stop()
    await emu.stop()


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
