"""An answered interaction lets go of the clicked message discord.py parsed for it.

Tokens keep answered interactions for up to 15 minutes; with the clicked message (rows, buttons,
emojis, embeds) each kept interaction held some 60 objects until its player's next click, and a
thousand games' worth of them filled the garbage collector's oldest generation: its full
collections paused every answer for up to 0.4 s (docs/benchmarks.md, "A thousand games per
token"). The flows read the message only while they answer.
"""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from cogs.uno import answers


class _Response:
    def is_done(self) -> bool:
        return True


def _click() -> Any:
    return SimpleNamespace(
        id=1,
        extras={},
        response=_Response(),
        created_at=discord.utils.utcnow() - timedelta(seconds=0.1),
        message=object(),  # discord.py's Message of the clicked hand
    )


async def test_the_clicked_message_is_there_while_answering_and_gone_after() -> None:
    click = _click()
    clicked = click.message
    seen: list[object] = []

    async def flow() -> str:
        seen.append(click.message)
        seen.append(await answers.in_time(click, inner()))  # a flow within a flow
        seen.append(click.message)
        return "answered"

    async def inner() -> object:
        return click.message

    assert await answers.in_time(click, flow()) == "answered"
    assert seen == [clicked, clicked, clicked]  # the inner watch kept it for the outer one
    assert click.message is None


async def test_a_failed_answer_lets_go_of_it_too() -> None:
    click = _click()

    async def fails() -> None:
        raise RuntimeError("the store fell over")

    with pytest.raises(RuntimeError):
        await answers.in_time(click, fails())
    assert click.message is None
