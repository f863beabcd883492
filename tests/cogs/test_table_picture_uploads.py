"""The table's picture is uploaded only when what it shows changed (cogs/uno/game/table.py)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import discord
import pytest

from bot.engine import Card, Color
from bot.ui.art import SeatState, TableState, table_file
from bot.ui.outgoing import Outgoing
from bot.ui.pictures import TABLE_FILE, Picture
from cogs.uno import delivery
from cogs.uno.drawing.renderer import PictureLate
from cogs.uno.game import table as game_table
from cogs.uno.game.table import GameTable, Renderer, TableUpdater

CHANNEL, GAME = 10, 7
MESSAGE = discord.utils.time_snowflake(discord.utils.utcnow())  # young: edited, not re-posted


class _Http:
    """Records what each edit of the table message sent (as discord.py's HTTP client's
    `edit_message`, which `PartialMessage.edit` calls), and answers as Discord does."""

    def __init__(self) -> None:
        self.edits: list[tuple[list[str], dict[str, Any]]] = []

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any) -> Any:
        payload = params.payload
        if params.multipart:  # with files the JSON goes as the multipart's payload_json
            payload = json.loads(params.multipart[0]["value"])
        self.edits.append(([f.filename for f in params.files or []], payload))
        return {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "type": 0,
            "content": "",
            "embeds": payload.get("embeds", []),
            "attachments": [],
            "author": {"id": "1", "username": "uno", "discriminator": "0", "avatar": None},
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "tts": False,
            "timestamp": "2026-12-04T00:00:00+00:00",
            "edited_timestamp": None,
            "mention_everyone": False,
            "flags": 0,
        }


def _bot(http: _Http) -> Any:
    """A real discord.py client (no connection) whose HTTP client's message edits are `http`."""
    client = discord.Client(intents=discord.Intents.none())
    client.http.edit_message = http.edit_message
    client.request_budget = None
    return client


def _picture(top: str, cards: int) -> Picture:
    state = TableState(
        Card.of(top), Color.RED, True, (SeatState("Ann", cards, True), SeatState("Ben", 5)), 40
    )
    return Picture(TABLE_FILE, state, lambda: "a table", lambda: table_file(state))


def _table(bot: Any, render: Renderer) -> tuple[TableUpdater, GameTable]:
    """The process's tables and a game's table, as its owner makes it (edited in place here,
    never re-posted: nothing to record)."""

    async def posted(message_id: int) -> None:
        raise AssertionError("not re-posted")

    tables = TableUpdater(bot, interval=0, repost_after=3000)
    return tables, tables.table(GAME, render, posted)


def _message(text: str, picture: Picture | None) -> Outgoing:
    return Outgoing.of(discord.Embed(description=text)).showing(picture)


@pytest.mark.asyncio
async def test_an_edit_that_does_not_change_the_picture_uploads_nothing() -> None:
    http = _Http()
    bot = _bot(http)
    shown: list[Outgoing] = [
        _message("first", _picture("R7", 3)),
        _message("a log line more, same picture", _picture("R7", 3)),
        _message("a card played", _picture("R8", 2)),
        _message("card pictures turned off", None),
        _message("still off", None),
    ]
    tables, table = _table(bot, lambda: (CHANNEL, MESSAGE, shown[0]))
    for message in list(shown):
        shown[0] = message
        table.request()
        assert await table.flush(timeout=5)
    files = [names for names, _ in http.edits]
    assert files == [[TABLE_FILE], [], [TABLE_FILE], [], []]
    payloads = [payload for _, payload in http.edits]
    assert "attachments" not in payloads[1]  # kept as it is: Discord keeps what is not listed
    assert payloads[3]["attachments"] == []  # the picture removed with the setting
    assert "attachments" not in payloads[4]
    for payload in payloads[:3]:
        assert payload["embeds"][0]["image"]["url"] == f"attachment://{TABLE_FILE}"
    await tables.close()


@pytest.mark.asyncio
async def test_a_late_picture_goes_text_only_and_a_later_update_brings_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    http = _Http()
    bot = _bot(http)
    late = [True]
    real = delivery.picture_file

    async def drawn_late_once(picture: Picture, *, urgent: bool = False) -> discord.File:
        if late.pop() if late else False:
            raise PictureLate(picture.filename)
        return await real(picture, urgent=urgent)

    monkeypatch.setattr(delivery, "picture_file", drawn_late_once)
    monkeypatch.setattr(game_table, "PICTURE_RETRY", 0.01)
    first = _message("first", _picture("R7", 3))
    tables, table = _table(bot, lambda: (CHANNEL, MESSAGE, first))
    table.request()
    assert await table.flush(timeout=5)
    (names, payload), *_ = http.edits
    assert names == [] and payload["attachments"] == []  # text-only, no stale picture
    assert "image" not in payload["embeds"][0]  # pointing at no missing file
    assert first.embeds[0].image.url == f"attachment://{TABLE_FILE}"  # the render untouched
    for _ in range(500):  # the retry, PICTURE_RETRY later (bounded: 5 s)
        if len(http.edits) == 2:
            break
        await asyncio.sleep(0.01)
    assert await table.flush(timeout=5)
    names, payload = http.edits[1]
    assert names == [TABLE_FILE]
    assert payload["embeds"][0]["image"]["url"] == f"attachment://{TABLE_FILE}"
    await tables.close()


@pytest.mark.asyncio
async def test_a_games_last_table_is_shown_though_its_edit_runs_after_it_ended() -> None:
    """The game's end is requested, but the edit runs only once the game has left the running
    games (requests waiting for the budget): the table kept at `retire` is what it shows."""
    http = _Http()
    bot = _bot(http)
    running = {GAME: _message("the match is over", None)}
    tables, table = _table(bot, lambda: (CHANNEL, MESSAGE, running[GAME]))  # KeyError once gone
    table.retire()
    del running[GAME]  # the game is gone before its table task runs
    table.request()
    assert await table.flush(timeout=5)
    assert [payload["embeds"][0]["description"] for _, payload in http.edits] == [
        "the match is over"
    ]
    table.request()  # shown once: nothing is kept to show again
    assert await table.flush(timeout=5)
    assert len(http.edits) == 1
    await tables.close()
