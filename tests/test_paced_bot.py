"""testing/paced_bot.py scales discord.py's 5xx retry pauses and nothing else: the schedule it
recognises is still the one discord.py writes, and a rate limit's pause keeps its length."""

from __future__ import annotations

import asyncio
import inspect
import re

import discord.http
import discord.webhook.async_
import pytest

from testing.paced_bot import PacedAsyncio


@pytest.mark.parametrize("module", [discord.http, discord.webhook.async_])
def test_discord_py_still_pauses_between_5xx_tries_by_an_int_schedule(module: object) -> None:
    """The pauses the hook scales: `1 + tries * 2` (an int) after a 5xx, in both HTTP clients;
    a rate limit's pause is a `retry_after` read from Discord's answer (a float)."""
    source = inspect.getsource(module)
    assert re.findall(r"await asyncio\.sleep\(1 \+ (?:tries|attempt) \* 2\)", source)
    assert "await asyncio.sleep(retry_after)" in source


async def test_an_int_pause_is_scaled_and_a_float_pause_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slept: list[float] = []

    async def sleep(delay: float, result: object = None) -> object:
        slept.append(delay)
        return result

    monkeypatch.setattr(asyncio, "sleep", sleep)
    paced = PacedAsyncio(0.01)
    assert await paced.sleep(3, "done") == "done"  # discord.py's second pause: 3 s
    await paced.sleep(2.0)  # a rate limit's retry_after, as Discord's JSON gives it
    assert slept == [pytest.approx(0.03), 2.0]


def test_everything_else_is_asyncio() -> None:
    paced = PacedAsyncio(0.5)
    assert paced.Lock is asyncio.Lock and paced.Event is asyncio.Event
