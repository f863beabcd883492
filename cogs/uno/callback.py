"""Answering an interaction without asking Discord for the message back.

discord.py posts every interaction callback with `?with_response=1` and parses Discord's answer
into an InteractionMessage (a full Message: author, embeds, components, flags), which nearly
every answer of this bot then drops: a hand, a refusal, a lobby update. Without the query
Discord answers 204 with no body. So the answers whose message nobody reads are posted here
through discord.py's own request builder and webhook adapter (bot/discord_internals.py), and
the interaction is marked answered as discord.py itself does (files included, as multipart);
one whose message id is wanted goes through discord.py's `InteractionResponse`.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_internals import answer_interaction
from bot.host import Interaction

_EDITABLE = (discord.InteractionType.component, discord.InteractionType.modal_submit)
_NOT_HERE = ("delete_after", "poll")


def can_answer(interaction: Interaction, *, edit: bool, **kwargs: Any) -> bool:
    """Whether `answer` can send this (otherwise use discord.py's InteractionResponse)."""
    if interaction.response.is_done() or any(key in kwargs for key in _NOT_HERE):
        return False
    return not edit or (interaction.type in _EDITABLE and interaction.message is not None)


async def answer(
    interaction: Interaction,
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
    await answer_interaction(interaction, kind, ephemeral=ephemeral and not edit, **kwargs)
