"""A storm at a full table for two minutes, then every screen held against the database.

The real bot process against the emulator (testing/storm.py): seven people and three computers,
a 1.5-s turn timer, double clicks and hands reopened while a click is on its way, for
`--seconds`; then the table and every person's hand must show the game as the database has it,
every ended round must have exactly one results message, and the bot must have logged no ERROR.
Prints what happened, or the first thing that disagreed.

    .venv/bin/python benchmarks/storm.py                                  # SQLite, 120 s
    .venv/bin/python benchmarks/storm.py --database-url postgresql+asyncpg://u:p@127.0.0.1/db

A PostgreSQL database given here must be empty (the bot creates its tables in it).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.bot_env import bot_env  # noqa: E402
from testing.fakediscord import FakeDiscord  # noqa: E402
from testing.storm import check_after_storm, open_full_table, storm  # noqa: E402


async def run(args: argparse.Namespace) -> None:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Storm")
    tmp = Path(tempfile.mkdtemp(prefix="uno-storm-"))
    url = args.database_url or f"sqlite+aiosqlite:///{tmp / 'uno.db'}"
    env = bot_env(
        emu, tmp, DEV_GUILD_ID=str(guild.id), UNO_TEST_TIMER_SCALE="0.05", DATABASE_URL=url
    )
    bot = emu.bot_process(env=env, cwd=str(ROOT))
    await bot.start()
    try:
        await emu.wait_for_bot(timeout=60)
        await emu.wait_for_commands(guild, timeout=60)
        await emu.wait_for(lambda: "ready as" in bot.output, 60, what="the bot's on_ready")
        channel = emu.add_channel(guild, "storm")
        # A match to 100,000 points: the storm never ends it.
        decks = tmp / "decks.json"
        people, game_id = await open_full_table(emu, guild, channel, decks, target=100_000)
        report = await storm(emu, channel, people, args.seconds, random.Random(args.seed))
        print(f"storm of {args.seconds:.0f} s on {url.split(':')[0]}: {report.summary()}")
        print(await check_after_storm(emu, channel, game_id, people, url, bot.output))
        print(
            f"failed interactions: {len(emu.failed_interactions)}, violations: "
            f"{len(emu.violations)} {[v.kind for v in emu.violations][:5]}"
        )
    finally:
        await bot.stop()
        await emu.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default SQLite)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
