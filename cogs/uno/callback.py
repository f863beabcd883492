"""Answering an interaction without asking Discord for the message back.

discord.py posts every interaction callback with `?with_response=1` and parses Discord's answer
into an InteractionMessage (a full Message: author, embeds, components, flags), which nearly
every answer of this bot then drops: a hand, a refusal, a lobby update. Without the query
Discord answers 204 with no body. So the answers whose message nobody reads are posted here
through discord.py's own request builder (`interaction_message_response_params`) and webhook
adapter, and the interaction is marked answered as discord.py itself does (files included, as
multipart); one whose message id is wanted goes through discord.py's `InteractionResponse`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_message_response_params

_EDITABLE = (discord.InteractionType.component, discord.InteractionType.modal_submit)
_NOT_HERE = ("delete_after", "poll")


def can_answer(interaction: discord.Interaction[Any], *, edit: bool, **kwargs: Any) -> bool:
    """Whether `answer` can send this (otherwise use discord.py's InteractionResponse)."""
    if interaction.response.is_done() or any(key in kwargs for key in _NOT_HERE):
        return False
    return not edit or (interaction.type in _EDITABLE and interaction.message is not None)


async def answer(
    interaction: discord.Interaction[Any],
    *,
    edit: bool = False,
    ephemeral: bool = False,
    **kwargs: Any,
) -> None:
    """Edit the clicked message (`edit`) or send a message, as the interaction's one callback."""
    kind = (
        discord.InteractionResponseType.message_update
        if edit
        else discord.InteractionResponseType.channel_message
    )
    flags = (
        discord.MessageFlags._from_value(64) if ephemeral and not edit else discord.utils.MISSING
    )
    state = interaction._state
    params = interaction_message_response_params(
        type=kind.value,
        flags=flags,
        previous_allowed_mentions=state.allowed_mentions,
        **kwargs,
    )
    route = Route(
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
    interaction.response._response_type = kind  # what discord.py sets after its own callback
