"""The contract of bot/discord_internals.py: every private name of discord.py it relies on still
exists and still means what it meant. A new discord.py that moves one fails here, by name,
before any e2e test fails obscurely; the e2e suite then proves the behaviour against the emulator.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import discord
import discord.gateway
import discord.http
import yarl

from bot import discord_internals

ROOT = Path(__file__).resolve().parents[1]


def test_the_pinned_versions_are_the_checked_ones() -> None:
    """pyproject allows the released minors the suite ran on (the module's docstring): a new
    one is allowed once this file and the e2e suite pass on it."""
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


def test_the_default_gateway_is_what_a_first_connection_dials() -> None:
    """A client's first connection (and one after an invalidated session) dials the class
    attribute, not a URL it asks Discord for: the emulator is reached only through it."""
    source = inspect.getsource(discord.gateway.DiscordWebSocket.from_client)
    assert "cls.DEFAULT_GATEWAY" in source


def test_the_module_keeps_only_what_has_no_public_counterpart() -> None:
    """Answers, follow-ups, hand and table edits and the interaction gate use discord.py's public
    API: the module holds `point_at` alone (a new name here needs its own test and reason)."""
    tree = ast.parse((ROOT / "bot" / "discord_internals.py").read_text(encoding="utf-8"))
    defined = {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    assert defined == {"point_at"}


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
