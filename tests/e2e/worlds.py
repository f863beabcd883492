"""A bot process of a test module's own against an emulator guild: `BotWorld`, `running_world`.

Why: the shared e2e session (conftest.py) runs one bot with the default settings; a module that
needs others (a faster turn clock, a short lobby life) or that restarts the bot gets a world of
its own. Every such world starts, checks and stops the same way, and hands each test fresh
channels and users, so tests in one world never see each other's games.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal, TypeVar

from testing.bot_env import bot_env
from testing.fakediscord import MANAGE_GUILD, BotProcess, FakeDiscord, Guild
from testing.players import Table, answer

ROOT = Path(__file__).resolve().parents[2]


class BotWorld:
    """The emulator, one guild, the bot process and its files (database, fixed deals)."""

    #: Channel names of this world: "<prefix>-1", "<prefix>-2", ...
    prefix = "uno"

    def __init__(self, emu: FakeDiscord, guild: Guild, bot: BotProcess, tmp: Path) -> None:
        self.emu, self.guild, self.bot = emu, guild, bot
        self.db = tmp / "uno.db"
        self.decks = tmp / "decks.json"
        self.n = 0

    @property
    def proc(self) -> BotProcess:
        return self.bot

    def channel(self, name: str | None = None) -> int:
        self.n += 1
        return self.emu.add_channel(self.guild, name or f"{self.prefix}-{self.n}")

    def users(self, *names: str, **kwargs: Any) -> list[Any]:
        """New members, named after the latest channel so that tests never share one."""
        return [self.emu.add_user(f"{n}{self.n}", self.guild, **kwargs) for n in names]

    def fix_deal(self, channel_id: int, spec: dict[str, Any]) -> None:
        """Test hook: the next game started in this channel uses this deal
        (cogs/uno/lobby/lobbies.py)."""
        data = json.loads(self.decks.read_text()) if self.decks.exists() else {}
        data[str(channel_id)] = spec
        self.decks.write_text(json.dumps(data))

    def table(self, channel_id: int) -> Table:
        return Table(self.emu, channel_id)

    async def set_option(self, channel: int, option: str, value: str) -> None:
        """A server setting changed by a new member with Manage Server, as `/uno-admin set`."""
        (admin,) = self.users("admin", permissions=MANAGE_GUILD)
        done = await answer(
            await self.emu.slash(admin, channel, "uno-admin set", option=option, value=value)
        )
        assert "changed" in done.text, done.text

    async def restart(self, *, kill: bool) -> None:
        """The bot stopped (SIGTERM) or killed (SIGKILL), then started again and connected."""
        await (self.bot.kill() if kill else self.bot.stop())
        await self.bot.start()
        await self.emu.wait_for_bot(timeout=30, new=True)


World = TypeVar("World", bound=BotWorld)


@asynccontextmanager
async def running_world(
    world: type[World],
    tmp: Path,
    guild_name: str,
    *,
    checked: Literal["all", "violations", "per test"] = "all",
    **env: str,
) -> AsyncIterator[World]:
    """An emulator and a bot process with `env` over the test environment, ready (commands
    synced, on_ready done: its start-up work is over). Afterwards no failed interaction and no
    emulator violation ("all"), only no violation (a world that makes interactions fail on
    purpose), or nothing ("per test": the tests' own fixture checks each test as it ends)."""
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild(guild_name)
    bot = emu.bot_process(env=bot_env(emu, tmp, DEV_GUILD_ID=str(guild.id), **env), cwd=str(ROOT))
    try:
        await bot.start()
        try:
            await emu.wait_for_bot(timeout=30)
            await emu.wait_for_commands(guild, timeout=30)
            await emu.wait_for(lambda: "ready as" in bot.output, 30, what="the bot's on_ready")
        except TimeoutError:
            raise RuntimeError("the bot did not start:\n" + bot.log_tail()) from None
        yield world(emu, guild, bot, tmp)
        if checked == "all":
            assert not emu.failed_interactions, emu.failed_interactions
        if checked in ("all", "violations"):
            assert not emu.violations, emu.violations
    finally:
        await bot.stop()
        await emu.stop()
