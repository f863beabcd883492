"""The two names of discord.py outside its public API that the bot still uses, behind one door.

Everything the bot says to Discord (answers, follow-ups, the hands edited through an
interaction's token, table edits, deletes, the interaction gate) goes through discord.py's
documented API. What is left has no public counterpart: where discord.py sends its requests
and which gateway it dials first. Both are class attributes, set only when DISCORD_API_BASE /
DISCORD_GATEWAY_URL are (the emulator, in tests and benchmarks); a production bot touches
neither. `tests/test_discord_internals.py` checks each by name, so a discord.py that moves one
fails there before any e2e test fails obscurely. Checked against discord.py 2.7.1 (the whole
suite) and, for the contract and the e2e modules of answers and hands, 2.6.4 and the 2.8
development branch (2.8.0a).
"""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST calls to `api_base` and connect the gateway to `gateway_url` (an emulator, in
    tests). discord.py builds every URL from the class attribute `Route.BASE` and dials
    `DiscordWebSocket.DEFAULT_GATEWAY` on its first connection (and after an invalidated
    session); neither has a public setting. With neither given, nothing is touched."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
