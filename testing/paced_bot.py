"""`python -m testing.paced_bot`: the bot (`python -m bot`), with discord.py's fixed pauses between
the tries of a request Discord answered 5xx scaled by UNO_TEST_DISCORD_RETRY_SCALE.

Why: discord.py tries a request Discord answers 500, 502, 504 or 524 (a webhook request: any
5xx) five times, sleeping 1, 3, 5, 7 and 9 s, then raises, and has no setting for it. The bad-day
tests (tests/e2e/test_table_heal.py, test_hand_heal.py) need discord.py to give up exactly as it
does in production, five tries and then an error, but not 25 s later. Only that schedule's
pauses are scaled, recognised as discord.py writes them (`1 + tries * 2`: an int): a rate
limit's pause (Discord's `retry_after` or reset time, a float) keeps its length, since the
emulator enforces its limits in real time. Everything else is the bot as deployed.
"""

from __future__ import annotations

import asyncio
import os
import runpy
import sys
from typing import Any

import discord.http
import discord.webhook.async_

#: The environment variable with the scale (a float > 0; 1 or unset: discord.py's own pauses).
SCALE_VARIABLE = "UNO_TEST_DISCORD_RETRY_SCALE"


class PacedAsyncio:
    """`asyncio` as discord.py's HTTP modules see it: the same module, but an int-second sleep
    (the 5xx retry schedule) lasts `scale` times as long."""

    def __init__(self, scale: float) -> None:
        self.scale = scale

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float, result: Any = None) -> Any:
        if type(delay) is int:
            delay = delay * self.scale
        return await asyncio.sleep(delay, result)


def pace_discord_retries(scale: float) -> None:
    """Scale the 5xx retry pauses of discord.py's REST client and of its webhooks (interaction
    answers and hand edits go through the latter)."""
    paced = PacedAsyncio(scale)
    for module in (discord.http, discord.webhook.async_):
        vars(module)["asyncio"] = paced


def paced_bot_args() -> list[str]:
    """The command of a bot process with paced retries (run from the repository's root)."""
    return [sys.executable, "-m", "testing.paced_bot"]


def main() -> None:
    scale = float(os.environ.get(SCALE_VARIABLE) or 1)
    if scale <= 0:
        raise SystemExit(f"{SCALE_VARIABLE} must be > 0, not {scale}")
    if scale != 1:
        pace_discord_retries(scale)
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
