"""Which click's interaction token carries a game's public table: routes exempt from Discord's
global limit of 50 requests a second per bot token.

A table edited through the channel (`PATCH /channels/{id}/messages/{id}`) counts against that
limit, and tables are most of what a busy bot sends. A message posted as a public follow-up of a
click (`POST /webhooks/{application}/{token}`), or the clicked message itself after a Start
answered by editing it (`@original`), can be edited and deleted through that click's token
(`PATCH`/`DELETE /webhooks/{application}/{token}/messages/{id|@original}`) on exempt routes for
15 minutes; through no other token (docs/architecture.md: "The owner and what it holds").

So each game's table (game/table.py) holds a `TableReach`: the token its message can be reached
through (`current`), and the newest click in the game (`offer`). Its message is edited through
`current` while that token is young; once it has lived `HANDOVER` of its time and a click at
most `FRESH` of its time old is there, the table is posted anew as that click's public follow-up
(the old one deleted through its own token, as table re-posts are). Without a token (the first
table when no click is fresh, after a restart: tokens live in memory only, or after Discord
refused an edit through one) the table uses the channel routes, paced by the request budget,
until the next click.

A follow-up is public only if it says so: the table's is always sent `ephemeral=False`, and only
through a click whose answer is done and is no "thinking" deferral (Discord makes the first
follow-up after one fill that deferred message, private if it was). A token is used at most
`ttl` seconds after its click (TABLE_TOKEN_TTL, 840: Discord's 900 less a margin) and never
again once Discord refused it.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

import discord

from bot.host import Interaction
from cogs.uno.delivery import EditKwargs, SendKwargs

log = logging.getLogger(__name__)

#: Seconds after its click that a token carries a table (Discord keeps it 900 s; the margin
#: covers clock skew and a request still in flight). Setting TABLE_TOKEN_TTL overrides it.
TOKEN_TTL = 840.0
#: Seconds one request through a token may take, discord.py's retries included: past it the
#: table goes through the channel instead (a 5xx is tried five times over 25 s otherwise).
REQUEST_TIMEOUT = 5.0
#: The share of a token's time after which the table moves to a newer click's token.
HANDOVER = 0.75
#: The share of its time a click's token may have lived to take the table over: the new token
#: then carries it for at least HANDOVER - FRESH of its time before the next move.
FRESH = 0.5

#: How a click was answered for its token to carry a public follow-up: a message of its own
#: (public or private), or the clicked message updated or deferred. Not a "thinking" deferral:
#: the first follow-up after one fills that (perhaps private) message.
_CARRIERS = (
    discord.InteractionResponseType.channel_message,
    discord.InteractionResponseType.message_update,
    discord.InteractionResponseType.deferred_message_update,
)


@dataclass(frozen=True, slots=True)
class TableToken:
    """A table message reached through a click's token: a follow-up of it by id, or its
    `@original` (the clicked message a Start edited into the table)."""

    interaction: Interaction
    message: int  # the table message's id
    original: bool  # reached as `@original`, not as a follow-up's id
    expires: datetime  # used until then (the click's time plus the ttl)


def can_carry(interaction: Interaction, channel_id: int) -> bool:
    """Whether a public follow-up of `interaction` can go out now: a click in the game's channel
    whose answer is done and was no "thinking" deferral."""
    return (
        bool(interaction.application_id and interaction.token)
        and interaction.channel_id == channel_id
        and interaction.response.is_done()
        and interaction.response.type in _CARRIERS
    )


class TableReach:
    """One game's tokens for its table: the one its message is reached through, and the newest
    click of the game (its owner offers each one)."""

    def __init__(self, ttl: float) -> None:
        """`ttl`: seconds after its click that a token is used (TABLE_TOKEN_TTL)."""
        self.ttl = timedelta(seconds=ttl)
        self.current: TableToken | None = None
        self._newest: Interaction | None = None
        self._refused: set[int] = set()  # interactions whose token Discord refused (by id)

    def offer(self, interaction: Interaction) -> None:
        """A click in the game: its token may carry the table later (the newest one is kept)."""
        newest = self._newest
        if newest is None or interaction.created_at >= newest.created_at:
            self._newest = interaction

    def _age(self, interaction: Interaction) -> timedelta:
        return discord.utils.utcnow() - interaction.created_at

    def reaching(self, message_id: int | None) -> TableToken | None:
        """The token through which the table message `message_id` is edited now, if any (one
        that has lived its `ttl`, or reaches another message, is dropped)."""
        token = self.current
        if token is None or message_id is None or token.message != message_id:
            return None
        if discord.utils.utcnow() >= token.expires:
            self.current = None
            return None
        return token

    def fresh(self, channel_id: int) -> Interaction | None:
        """The newest click, if it is fresh enough to carry the table (at most `FRESH` of its
        time old) and can carry it now (`can_carry`); one too old is forgotten."""
        newest = self._newest
        if newest is None or newest.id in self._refused:
            return None
        if self._age(newest) >= self.ttl * FRESH:
            self._newest = None  # too old to take a table over: forget it
            return None
        return newest if can_carry(newest, channel_id) else None  # (else: its answer is due)

    def carrier(self, channel_id: int, message_id: int | None) -> Interaction | None:
        """The click whose token should carry the table from now on, posted anew as its
        follow-up: the newest fresh one (`fresh`), if the table's own token (if any) has lived
        `HANDOVER` of its time; None: keep the table where it is."""
        newest = self.fresh(channel_id)
        token = self.reaching(message_id)
        if newest is None or token is None:
            return newest
        young = self._age(token.interaction) < self.ttl * HANDOVER
        return None if young or token.interaction.id == newest.id else newest

    def posted(self, interaction: Interaction, message_id: int, *, original: bool) -> None:
        """The table message `message_id` is reached through `interaction`'s token from now on."""
        expires = interaction.created_at + self.ttl
        self.current = TableToken(interaction, message_id, original, expires)

    def refused(self, token: TableToken | Interaction) -> None:
        """Discord refused a request through this token (or it timed out): never used again for
        the table; the channel routes take over until a newer click."""
        interaction = token.interaction if isinstance(token, TableToken) else token
        self._refused.add(interaction.id)
        if self.current is not None and self.current.interaction.id == interaction.id:
            self.current = None
        if self._newest is not None and self._newest.id == interaction.id:
            self._newest = None

    def forget(self) -> None:
        """Drop every token (the table was posted elsewhere, e.g. by `/uno table`)."""
        self.current = None


async def post(interaction: Interaction, message: SendKwargs) -> discord.WebhookMessage:
    """Post the table as a public follow-up of `interaction` (never ephemeral, whatever the
    click's own answer was)."""
    async with asyncio.timeout(REQUEST_TIMEOUT):
        return await interaction.followup.send(**message, ephemeral=False, wait=True)


async def edit(token: TableToken, message: EditKwargs) -> None:
    """Edit the table through its token."""
    async with asyncio.timeout(REQUEST_TIMEOUT):
        if token.original:
            await token.interaction.edit_original_response(**message)
        else:
            await token.interaction.followup.edit_message(token.message, **message)


async def delete(token: TableToken) -> None:
    """Delete a table message through its token."""
    async with asyncio.timeout(REQUEST_TIMEOUT):
        if token.original:
            await token.interaction.delete_original_response()
        else:
            await token.interaction.followup.delete_message(token.message)
