"""A round's replay is posted once in a channel for a while: later asks find the post (one under
way is waited for), another channel, game or round does not, and a failed post is forgotten."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord
import pytest

from cogs.uno.records.replay_posts import ReplayPosts

pytestmark = pytest.mark.asyncio


async def test_a_post_is_found_for_its_channel_game_and_round_until_it_is_stale() -> None:
    now = [100.0]
    posts = ReplayPosts(fresh_for=600, clock=lambda: now[0])
    message = cast(discord.Message, object())
    assert await posts.earlier((1, 7, 1), wait=0) is None
    posts.begin((1, 7, 1))
    posts.done((1, 7, 1), message)
    assert await posts.earlier((1, 7, 1), wait=0) is message
    for other in ((2, 7, 1), (1, 8, 1), (1, 7, 2)):
        assert await posts.earlier(other, wait=0) is None
    now[0] += 601
    assert await posts.earlier((1, 7, 1), wait=0) is None


async def test_an_ask_during_a_post_waits_for_it_and_a_failed_post_is_forgotten() -> None:
    posts = ReplayPosts()
    message: Any = object()
    posts.begin((1, 7, 1))
    waiting = asyncio.ensure_future(posts.earlier((1, 7, 1), wait=5))
    await asyncio.sleep(0)
    assert not waiting.done()
    posts.done((1, 7, 1), message)
    assert await waiting is message

    posts.begin((1, 7, 2))
    late = asyncio.ensure_future(posts.earlier((1, 7, 2), wait=5))
    await asyncio.sleep(0)
    posts.done((1, 7, 2), None)  # (the bot may not post there)
    assert await late is None
    assert await posts.earlier((1, 7, 2), wait=0) is None
