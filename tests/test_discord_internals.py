"""The contract of bot/discord_internals.py: every private name of discord.py it relies on still
exists and still means what it meant. A new discord.py that moves one fails here, by name,
before any e2e test fails obscurely; the e2e suite then proves the behaviour against the emulator.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
import yarl
from discord.webhook import async_ as webhook_async

from bot import discord_internals

ROOT = Path(__file__).resolve().parents[1]


def _parameters(function: Any) -> set[str]:
    return set(inspect.signature(function).parameters)


def test_the_pinned_versions_are_the_checked_ones() -> None:
    """pyproject allows the minor versions the module's docstring says were checked."""
    pin = re.search(r'"discord\.py([^"]*)"', (ROOT / "pyproject.toml").read_text())
    assert pin is not None and pin[1] == ">=2.6.4,<2.8"
    major, minor = (int(part) for part in discord.__version__.split(".")[:2])
    assert (major, minor) in {(2, 6), (2, 7)}


def test_route_base_builds_every_url() -> None:
    saved = discord.http.Route.BASE
    try:
        discord_internals.point_at("http://127.0.0.1:9/api/v10/", None)
        route = discord.http.Route("GET", "/channels/{channel_id}", channel_id=1)
        assert route.url == "http://127.0.0.1:9/api/v10/channels/1"
    finally:
        discord.http.Route.BASE = saved


def test_the_default_gateway_is_a_class_attribute() -> None:
    saved = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert isinstance(saved, yarl.URL)
    try:
        discord_internals.point_at(None, "ws://127.0.0.1:9/ws")
        assert yarl.URL("ws://127.0.0.1:9/ws") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    finally:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved


def test_the_interaction_parser_is_a_dict_entry_discord_py_calls() -> None:
    client = discord.Client(intents=discord.Intents.none())
    seen: list[dict[str, Any]] = []
    original = client._connection.parsers["INTERACTION_CREATE"]
    discord_internals.wrap_interaction_parser(client, lambda parse, data: seen.append(data))
    assert client._connection.parsers["INTERACTION_CREATE"] is not original
    client._connection.parsers["INTERACTION_CREATE"]({"id": "1"})
    assert seen == [{"id": "1"}]
    # discord.py dispatches raw events through this very dict (ConnectionState.parse_*).
    source = inspect.getsource(discord.gateway.DiscordWebSocket.received_message)
    assert "self._discord_parsers[event]" in source


def test_an_interaction_keeps_its_session_state_and_response_type() -> None:
    init = inspect.getsource(discord.Interaction.__init__)
    assert "self._session" in init and "self._state" in init
    response = inspect.getsource(discord.InteractionResponse)
    assert "self._response_type" in response
    # is_done() reads exactly the attribute answer_interaction sets.
    assert "_response_type" in inspect.getsource(discord.InteractionResponse.is_done)


def test_the_request_builders_take_what_the_module_passes() -> None:
    assert {"type", "flags", "previous_allowed_mentions", "embed", "view", "files"} <= _parameters(
        webhook_async.interaction_message_response_params
    )
    assert {
        "embed",
        "view",
        "files",
        "attachments",
        "flags",
        "previous_allowed_mentions",
    } <= _parameters(discord.http.handle_message_parameters)
    adapter = webhook_async.async_context.get()
    assert {"session", "proxy", "proxy_auth", "payload", "multipart", "files", "params"} <= (
        _parameters(adapter.request)
    )
    http = discord.http.HTTPClient
    assert {"channel_id", "message_id", "params"} <= _parameters(http.edit_message)
    assert {"channel_id", "message_id"} <= _parameters(http.delete_message)
    client = discord.Client(intents=discord.Intents.none())
    assert hasattr(client.http, "proxy") and hasattr(client.http, "proxy_auth")


@pytest.mark.parametrize("view_v2", [False, True])
def test_ephemeral_flags_are_fresh_each_time(view_v2: bool) -> None:
    """discord.py sets components_v2 on the flags it is handed: a shared instance would leak it
    into the next message."""
    first = discord_internals._ephemeral()
    first.components_v2 = view_v2
    assert discord_internals._ephemeral().value == discord.MessageFlags(ephemeral=True).value


def test_no_private_discord_name_outside_the_module() -> None:
    """`discord.http`, `discord.webhook.async_`, `discord.gateway` and discord.py's private
    attributes (`_state`, `_session`, `_connection`, `_response_type`...) appear only in
    bot/discord_internals.py."""
    private_modules = ("discord.http", "discord.webhook.async_", "discord.gateway")
    private_attributes = {
        "_state",
        "_session",
        "_connection",
        "_response_type",
        "_from_value",
        "parsers",
    }
    wrong = []
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "discord_internals.py":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    private_modules
                ):
                    wrong.append(f"{path.relative_to(ROOT)}: from {node.module}")
                elif isinstance(node, ast.Import):
                    wrong += [
                        f"{path.relative_to(ROOT)}: import {a.name}"
                        for a in node.names
                        if a.name.startswith(private_modules)
                    ]
                elif (
                    isinstance(node, ast.Attribute)
                    and node.attr in private_attributes | {"http"}
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self")
                ):
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
    assert wrong == []
