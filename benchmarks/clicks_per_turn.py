"""Clicks per turn when every player keeps the hand of their last click (issue 11, point 1).

The real bot process against the emulator: `--games` seeded games of `--players` scripted
players each (one round). Everybody opens their hand once at the start and never again; on
their turn a player uses the hand they hold if it shows their turn (one click), else clicks
Refresh first (`--habit refresh`) or the table's Show my hand (`--habit show`: a new private
message each time). See testing/clicks.py. Prints, per bot: turns, clicks per turn, the share
of turns taken in one click, and the private messages each player received and still has open.

    .venv/bin/python benchmarks/clicks_per_turn.py                      # this checkout
    .venv/bin/python benchmarks/clicks_per_turn.py --baseline 06d90e9   # and an older bot

`--patience` is how long a player waits for their hand to show the turn before clicking (the
bot edits it in the background); with a bot whose hands never follow, every turn waits it out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.baseline import baseline_checkout  # noqa: E402
from testing.bot_env import bot_env  # noqa: E402
from testing.clicks import ClickStats, play_keeping_hands  # noqa: E402
from testing.fakediscord import FakeDiscord  # noqa: E402
from testing.players import open_game  # noqa: E402


async def run(args: argparse.Namespace, bot_root: Path) -> ClickStats:
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Clicks")
    tmp = Path(tempfile.mkdtemp(prefix="uno-clicks-"))
    env = bot_env(emu, tmp, DEV_GUILD_ID=str(guild.id), LOG_LEVEL="WARNING")
    bot = emu.bot_process(env=env, cwd=str(bot_root))
    await bot.start()
    total = ClickStats()
    try:
        await emu.wait_for_bot(timeout=60)
        await emu.wait_for_commands(guild, timeout=60)
        decks: dict[str, object] = {}
        for n in range(args.games):
            channel = emu.add_channel(guild, f"clicks-{n}")
            users = [emu.add_user(f"g{n}p{i}", guild) for i in range(args.players)]
            decks[str(channel)] = {"dealer_seat": args.players - 1, "seed": args.seed + n}
            (tmp / "decks.json").write_text(json.dumps(decks))
            await open_game(emu, channel, users[0], users[1:])
            stats = await play_keeping_hands(
                emu, channel, users, patience=args.patience, habit=args.habit
            )
            total.turns += stats.turns
            total.clicks += stats.clicks
            total.per_turn += stats.per_turn
            total.opens += stats.opens
            total.private_messages.update(stats.private_messages)
            total.live_private_messages.update(stats.live_private_messages)
        problems = len(emu.violations) + len(emu.failed_interactions)
        if problems:
            print(f"  ({problems} Discord-rule violations or failed interactions)")
    finally:
        await bot.stop()
        await emu.stop()
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 11))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--patience", type=float, default=1.0)
    parser.add_argument("--habit", choices=("refresh", "show"), default="refresh")
    parser.add_argument("--baseline", help="a git revision or a checkout: measured first")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        bots = [("this bot", ROOT)]
        if args.baseline:
            baseline = stack.enter_context(baseline_checkout(args.baseline))
            bots.insert(0, (f"baseline {args.baseline}", baseline))
        for name, root in bots:
            stats = asyncio.run(run(args, root))
            print(f"{name}: {stats.summary()}")
            most = Counter(stats.private_messages.values()).most_common()
            print(f"  players by private messages received: {dict(most)}")


if __name__ == "__main__":
    main()
