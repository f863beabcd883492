"""The interaction tokens through which private hands are reached, and what this process did
with them: process-wide, keyed by token or message, never by game.

A hand is an ephemeral message, which the bot can reach only through the token of the
interaction it answered, for 15 minutes. Here: a token worked out from an answered interaction
(`token`), the requests made through it (`request`: PATCH or DELETE of its message, `relocate`:
the hand posted anew as a private follow-up), and the records that keep a replaced hand from
coming back: messages deleted or being deleted, follow-ups this process posted (kept until their
tokens expire). The live hands of each game (game/hands.py) use them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

import discord

from bot.host import Interaction, UnoHost
from cogs.uno.answers import answer_of
from cogs.uno.delivery import EditKwargs, SendKwargs

log = logging.getLogger(__name__)

#: Registrations between two sweeps of spent tokens' records.
SWEEP_EVERY = 256
#: Seconds one request may take, discord.py's own retries included (a 5xx is tried five times
#: over 16 s, then it sleeps 9 s more before giving up): past it, a hand's sender tries again
#: itself, so a hand waits at most a few seconds once Discord is back.
REQUEST_TIMEOUT = 10.0


@dataclass(slots=True)
class Token:
    """One interaction's token, through which its hand message is edited or deleted."""

    application_id: int
    token: str
    # The interaction itself, kept while its token lives: discord.py's public routes through
    # that token (`edit_original_response`, its `followup` webhook) reach the hand.
    interaction: Interaction
    expires: datetime
    origin: int  # the interaction whose answer created the message (same message, same origin)
    message: int | None = None  # the message's id, when known
    followup: int | None = None  # reached as this follow-up's id, not as `@original`

    def alive(self) -> bool:
        return discord.utils.utcnow() < self.expires

    def same_message(self, other: Token) -> bool:
        if self.message is not None and self.message == other.message:
            return True
        return self.origin == other.origin


class HandTokens:
    def __init__(self, bot: UnoHost, ttl: float) -> None:
        """`ttl`: seconds after its interaction that a token is used (HAND_TOKEN_TTL)."""
        self.bot = bot
        self.ttl = ttl
        self._registered = 0
        self._deleting: set[asyncio.Task[None]] = set()
        # (token, follow-up id) -> when its token expires: messages already deleted.
        self._deleted: dict[tuple[str, int | None], datetime] = {}
        # What those deletes remove: message ids, and interactions whose original answer went
        # (its id may be unknown); with the follow-ups this process posted, told apart from
        # originals. A hand answered on a message being deleted is not made live again: its
        # token's edits would meet a deleted message (404, an invalid request).
        self._gone_messages: dict[int, datetime] = {}
        self._gone_originals: dict[int, datetime] = {}
        self._followups: dict[int, datetime] = {}
        # Hand messages (by id, and by the interaction that created them) that a click's answer
        # is editing now -> how many; and what a DELETE of one of them waits for: deleted under
        # that answer, its edit would meet a gone message (404, an invalid request).
        self._answers_on: Counter[int] = Counter()
        self._answers_done: dict[int, asyncio.Future[None]] = {}

    def replaced(self, message: discord.Message | None) -> bool:
        """Whether `message` (a clicked hand) is one this process deleted or is deleting (its
        player opened a newer one): its click is answered with a new hand, not an edit of it.
        Checked right before `answering` with nothing awaited in between, so a hand is never
        deleted under an answer that edits it (the DELETE waits for that answer)."""
        if message is None:
            return False
        if message.id in self._gone_messages:
            return True
        meta = message.interaction_metadata
        origin = meta.id if meta is not None else message.id
        return message.id not in self._followups and origin in self._gone_originals

    @contextlib.contextmanager
    def answering(self, message: discord.Message | None) -> Iterator[None]:
        """While a click's answer edits `message` (None: it edits nothing): a DELETE of it
        waits until the answer is done."""
        keys = _keys_of(message)
        self._answers_on.update(keys)
        try:
            yield
        finally:
            self._answers_on.subtract(keys)
            for key in keys:
                if self._answers_on[key] <= 0:
                    del self._answers_on[key]
                    done = self._answers_done.pop(key, None)
                    if done is not None and not done.done():
                        done.set_result(None)

    def reach(self, interaction: Interaction) -> Token | None:
        """A token through which a hand can be posted to this interaction's user as a private
        follow-up (a Join or Start click answered in public, say), while it lives; None
        without one. Its `@original` is that public answer: it is never edited or deleted."""
        app_id = interaction.application_id
        if not app_id or not interaction.token:
            return None
        expires = interaction.created_at + timedelta(seconds=self.ttl)
        token = Token(app_id, interaction.token, interaction, expires, interaction.id)
        return token if token.alive() else None

    def token(self, interaction: Interaction) -> Token | None:
        """The live token through which the interaction's answer can be edited, if that answer
        is a private message not deleted meanwhile: a public one (a deferred update of the
        table, say) never is a hand."""
        app_id = interaction.application_id
        answer = answer_of(interaction)
        if not app_id or not interaction.token or answer is None or not answer.ephemeral:
            return None
        expires = interaction.created_at + timedelta(seconds=self.ttl)
        token = Token(app_id, interaction.token, interaction, expires, interaction.id)
        message = interaction.message
        if answer.followup is not None:  # a message of its own, reached by its id
            token.origin = token.message = token.followup = answer.followup
            self._followups[answer.followup] = expires
        elif message is not None and _edited_clicked(interaction):
            meta = message.interaction_metadata
            token.origin = meta.id if meta is not None else message.id
            token.message = message.id
        if not token.alive() or self._is_gone(token):
            return None
        self._registered += 1
        if self._registered % SWEEP_EVERY == 0:
            self._sweep()
        return token

    def _sweep(self) -> None:
        """Forget the records of spent tokens."""
        now = discord.utils.utcnow()
        self._deleted = {k: at for k, at in self._deleted.items() if at > now}
        for kept in (self._gone_messages, self._gone_originals, self._followups):
            for key in [k for k, at in kept.items() if at <= now]:
                del kept[key]

    def _is_gone(self, token: Token) -> bool:
        """Whether `token`'s message is one this process deleted or is deleting: a click on a
        hand the player had already replaced, answered on it just before it went."""
        if token.message is not None and token.message in self._gone_messages:
            return True
        on_original = token.followup is None and token.message not in self._followups
        return on_original and token.origin in self._gone_originals

    def delete(self, token: Token, *, after: asyncio.Future[None] | None = None) -> None:
        """Delete a player's previous hand (on its own: a slow delete holds up no edit), once:
        a hand replaced while it was being posted anew is asked for twice, and a second DELETE
        would be an invalid request (404) counted against the bot. `after`: an edit of that
        message still in flight, which the DELETE waits for."""
        key = (token.token, token.followup)
        if key in self._deleted:
            return
        self._deleted[key] = token.expires
        message = token.followup if token.followup is not None else token.message
        if message is not None:
            self._gone_messages[message] = token.expires
        if token.followup is None:
            self._gone_originals[token.origin] = token.expires
        task = asyncio.create_task(self._delete_after(token, after))
        self._deleting.add(task)
        task.add_done_callback(self._deleting.discard)

    async def _delete_after(self, token: Token, after: asyncio.Future[None] | None) -> None:
        if after is not None and not after.done():
            await asyncio.shield(after)
        loop = asyncio.get_running_loop()
        for key in (token.followup or token.message, token.origin):
            if key is not None and self._answers_on[key] > 0:  # a click's answer edits it now
                done = self._answers_done.setdefault(key, loop.create_future())
                await asyncio.shield(done)
        await self.request("DELETE", token)

    async def relocate(self, old: Token, kwargs: SendKwargs) -> tuple[int, Token | None]:
        """Post a hand as a new private follow-up of `old`'s interaction: the status of the
        post, and the token of the new message (which the caller makes the live hand). Also
        how a hand is dealt through a `reach` token."""
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                sent = await old.interaction.followup.send(**kwargs, ephemeral=True, wait=True)
        except discord.HTTPException as exc:
            if exc.status not in (401, 404):
                log.warning("hand follow-up failed: %s", exc)
            return exc.status, None
        except (TimeoutError, OSError) as exc:
            log.warning("hand follow-up failed: %r", exc)
            return 0, None
        new_id = sent.id
        self._followups[new_id] = old.expires
        new = Token(
            old.application_id, old.token, old.interaction, old.expires, new_id, new_id, new_id
        )
        return 200, new

    async def request(self, method: str, token: Token, kwargs: EditKwargs | None = None) -> int:
        """PATCH or DELETE `.../webhooks/{application}/{token}/messages/@original` (or the
        follow-up's id), through discord.py's public routes on the kept interaction: the status."""
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                await _through(token, method, kwargs or EditKwargs())
        except discord.HTTPException as exc:
            if exc.status not in (401, 404):
                log.warning("hand %s failed: %s", method, exc)
            return exc.status
        except (TimeoutError, OSError) as exc:
            log.warning("hand %s failed: %r", method, exc)
            return 0
        return 200

    async def close(self) -> None:
        """Stop the deletes on their way (the cog is unloaded)."""
        tasks = list(self._deleting)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _through(token: Token, method: str, message: EditKwargs) -> None:
    """PATCH (`message`) or DELETE the hand `token` reaches: its interaction's `@original`
    answer, or a follow-up by id through the interaction's follow-up webhook."""
    interaction, followup = token.interaction, token.followup
    if followup is None:
        if method == "DELETE":
            await interaction.delete_original_response()
        else:
            await interaction.edit_original_response(**message)
    elif method == "DELETE":
        await interaction.followup.delete_message(followup)
    else:
        await interaction.followup.edit_message(followup, **message)


def _keys_of(message: discord.Message | None) -> tuple[int, ...]:
    """How a hand message is known here: its id, and the interaction whose answer it is."""
    if message is None:
        return ()
    meta = message.interaction_metadata
    return (message.id,) if meta is None or meta.id == message.id else (message.id, meta.id)


def _edited_clicked(interaction: Interaction) -> bool:
    """Whether the answer edited the clicked message (a deferred update counts too: then the
    answer was an edit of it, as `answer_of` says no follow-up was sent)."""
    kind = interaction.response.type
    return kind in (
        discord.InteractionResponseType.message_update,
        discord.InteractionResponseType.deferred_message_update,
    )
