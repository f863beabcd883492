"""An answer Discord does not confirm in time is cut short, and its interaction is never
answered again: the cut request may have arrived all the same, and a second answer would be
refused (40060 "already acknowledged") and count against the bot."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.ui.errors import ANSWER_CUT, AnswerLate, send_ephemeral, token_is_dead
from bot.ui.items import answer_failure
from bot.ui.outgoing import Outgoing
from cogs.uno import answers as answer_in_time


class _Response:
    def is_done(self) -> bool:
        return False

    async def send_message(self, *args: Any, **kwargs: Any) -> None:
        raise AssertionError("answered a second time")


def _interaction(age: float) -> Any:
    return SimpleNamespace(
        id=1,
        extras={},
        response=_Response(),
        created_at=discord.utils.utcnow() - timedelta(seconds=age),
        locale="en-US",
    )


async def test_an_answer_past_discords_window_is_cut_and_never_sent_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def hangs(*args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(60)  # Discord's answer never comes back

    monkeypatch.setattr(answer_in_time, "_send_answer", hangs)
    interaction = _interaction(age=2.9)  # 0.1 s of Discord's 3 s left: given MIN_ANSWER_TIME
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(AnswerLate) as cut:
        await answer_in_time.respond(interaction, Outgoing(content="hand"), ephemeral=True)
    assert loop.time() - started < 10  # not the 60 s it hangs, nor discord.py's 25 s of retries
    assert token_is_dead(cut.value) and interaction.extras[ANSWER_CUT]
    await send_ephemeral(interaction, "something went wrong")  # neither tries again
    await answer_failure(interaction)
