"""Every use of discord.py's private names and of `discord.http`, behind one door.

Why: discord.py's public API parses every answer into objects and cannot reach a few things the
bot needs (an interaction's callback without the message echoed back, an interaction token's
webhook routes on an aiohttp session of our choosing, a hook on the raw INTERACTION_CREATE
event). What follows leans on names discord.py does not promise to keep, so they live here and
nowhere else, each with why it is used, and `tests/test_discord_internals.py` fails the moment
an assumption breaks. Checked against discord.py 2.6.4 and 2.7.1 (pyproject pins `<2.8`); before
allowing a newer minor version, run that test and the e2e suite on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from discord.webhook.async_ import async_context, interaction_message_response_params


def _ephemeral() -> discord.MessageFlags:
    """Fresh flags each time: discord.py sets `components_v2` on the flags it is handed."""
    return discord.MessageFlags(ephemeral=True)


RawParser = Callable[[dict[str, Any]], None]


class RestClient(Protocol):
    """What the REST helpers below read of a client (a `discord.Client`, or the cogs' view of
    it, bot/host.py): its HTTP client and its default allowed mentions."""

    @property
    def http(self) -> discord.http.HTTPClient: ...

    @property
    def allowed_mentions(self) -> discord.AllowedMentions | None: ...


def point_at(api_base: str | None, gateway_url: str | None) -> None:
    """Send REST calls to `api_base` and connect the gateway to `gateway_url` (an emulator, in
    tests). discord.py builds every URL from the class attribute `Route.BASE` and dials
    `DiscordWebSocket.DEFAULT_GATEWAY` when the gateway asks for no other; neither has a
    public setting."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def wrap_interaction_parser(
    client: discord.Client, wrap: Callable[[RawParser, dict[str, Any]], None]
) -> None:
    """Have `wrap(original, data)` receive every raw INTERACTION_CREATE instead of discord.py's
    own parser (`ConnectionState.parsers`, a dict of event name -> method). The bot uses it to
    refuse interactions once a shutdown began and to track the tasks each one starts: no public
    event fires before discord.py dispatches the interaction to its handlers."""
    parsers: dict[str, RawParser] = client._connection.parsers
    original = parsers["INTERACTION_CREATE"]
    parsers["INTERACTION_CREATE"] = lambda data: wrap(original, data)


def interaction_session(interaction: discord.Interaction[discord.Client]) -> aiohttp.ClientSession:
    """The aiohttp session discord.py itself uses for this interaction's webhook routes
    (`Interaction._session`): the live hands edit their message through the interaction's
    token long after the click, as discord.py's own `edit_original_response` would."""
    session: aiohttp.ClientSession = interaction._session
    return session


async def answer_interaction(
    interaction: discord.Interaction[discord.Client],
    kind: discord.InteractionResponseType,
    *,
    ephemeral: bool,
    **kwargs: Any,
) -> None:
    """The interaction's callback, posted without `?with_response=1`: Discord answers 204 and
    nothing is parsed (discord.py's `InteractionResponse` always asks for the message back and
    builds a full Message from it, a measurable cost on every click). The request is built by
    discord.py's own `interaction_message_response_params` and sent by its webhook adapter, and
    the interaction is then marked answered exactly as discord.py marks it
    (`InteractionResponse._response_type`), so `is_done()` and follow-ups behave as usual."""
    state = interaction._state
    params = interaction_message_response_params(
        type=kind.value,
        flags=_ephemeral() if ephemeral else discord.utils.MISSING,
        previous_allowed_mentions=state.allowed_mentions,
        **kwargs,
    )
    route = discord.http.Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    files = params.files or None
    await async_context.get().request(
        route,
        session=interaction._session,
        proxy=state.http.proxy,
        proxy_auth=state.http.proxy_auth,
        payload=None if files else params.payload,
        multipart=params.multipart if files else None,
        files=files,
    )
    interaction.response._response_type = kind


async def webhook_request(
    client: RestClient,
    session: aiohttp.ClientSession,
    method: str,
    path: str,
    *,
    kwargs: dict[str, Any] | None = None,
    ephemeral: bool = False,
    wait: bool = False,
    **route_params: Any,
) -> Any:
    """`method path` on an interaction token's webhook routes (`/webhooks/{webhook_id}/
    {webhook_token}...`), with `kwargs` (embed, view, files, attachments) encoded by discord.py's
    `handle_message_parameters` and sent through its webhook adapter on `session`, honouring the
    client's proxy: discord.py offers these routes only on objects it builds from a fresh
    interaction, and the live hands keep using a token for minutes after. The answer's JSON
    (with `wait`) or None; raises discord.HTTPException as discord.py does."""
    route = discord.http.Route(method, path, **route_params)
    payload = multipart = files = None
    if kwargs is not None:
        params = discord.http.handle_message_parameters(
            embed=kwargs.get("embed", discord.utils.MISSING),
            view=kwargs.get("view", discord.utils.MISSING),
            files=kwargs.get("files", discord.utils.MISSING),
            attachments=kwargs.get("attachments", discord.utils.MISSING),
            flags=_ephemeral() if ephemeral else discord.utils.MISSING,
        )
        payload, multipart, files = params.payload, params.multipart, params.files or None
        if files:
            payload = None  # sent as the multipart's payload_json
    http = client.http
    return await async_context.get().request(
        route,
        session=session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        payload=payload,
        multipart=multipart if files else None,
        files=files,
        params={"wait": "true"} if wait else None,
    )


async def edit_channel_message(
    client: RestClient, channel_id: int, message_id: int, kwargs: dict[str, Any]
) -> None:
    """`PartialMessage.edit` without turning Discord's answer into a Message nobody reads (with
    a hundred busy tables, parsing those answers is a measurable share of the bot's time):
    discord.py's `handle_message_parameters` and `HTTPClient.edit_message`."""
    with discord.http.handle_message_parameters(
        previous_allowed_mentions=client.allowed_mentions, **kwargs
    ) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def delete_channel_message(client: RestClient, channel_id: int, message_id: int) -> None:
    """Delete a message by ids alone (`HTTPClient.delete_message`): a turn ping or an old table
    whose Message object is long gone, without fetching it first."""
    await client.http.delete_message(channel_id, message_id)
