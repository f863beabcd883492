"""Answering within Discord's 3 seconds when a save is slow: defer first, answer when done.

The game saves before it answers, so a save that waits (SQLite locked by another process, a
slow PostgreSQL) would otherwise end in "This interaction failed" after the move was stored. So
the work behind an answer runs against a budget counted from the interaction's creation: if it
has not answered when the budget is spent, the interaction is deferred (a click on a message: a
deferred update; a slash command: "thinking", ephemeral unless the answer is public), and the
answer, once ready, fills that deferral in the shape it would have had.

`in_time` / `answers_in_time` start the watch (nested calls share the outer one); `respond` and
`settle` are how the watched work answers, so an answer and a deferral never race each other.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord

from bot.host import Interaction
from bot.ui.errors import ANSWER_CUT, ANSWER_WINDOW, AnswerLate
from bot.ui.outgoing import Outgoing
from cogs.uno.delivery import Ready, ready

log = logging.getLogger(__name__)

#: Seconds after the interaction's creation by which it is answered or deferred (Discord: 3 s).
ANSWER_BUDGET = 2.0

#: Seconds a follow-up or an edit of a deferred answer may take, discord.py's retries included.
FOLLOWUP_TIMEOUT = 10.0
#: Seconds the first answer is given at least, however late it starts (Discord's clock may be
#: a little behind ours).
MIN_ANSWER_TIME = 0.5

_WATCH = "uno_deadline"  # key of the watch in interaction.extras
_ANSWER = "uno_answer"  # key of the answer's Answer in interaction.extras

T = TypeVar("T")
P = ParamSpec("P")
S = TypeVar("S")


@dataclass(slots=True)
class _Watch:
    ephemeral: bool
    answering: bool = False  # an answer has begun: deferring now would be a second callback
    deferral: asyncio.Task[None] | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """Where `respond` put an interaction's answer, as the interaction's token reaches it."""

    ephemeral: bool  # only its one user sees it
    followup: int | None = None  # a follow-up message's id; None: the token's `@original`


def answer_of(interaction: Interaction) -> Answer | None:
    """Where the interaction was answered (None: not through `respond`)."""
    return interaction.extras.get(_ANSWER)


def _clicked_ephemeral(interaction: Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


_THINKING = discord.InteractionResponseType.deferred_channel_message


def _returned(interaction: Interaction, sent: object, followup: bool) -> object:
    """Note where a message discord.py returned is: a follow-up of a deferred update is a new
    message of its own (the first one after "thinking" fills that `@original` message)."""
    if isinstance(sent, discord.Message):
        thinking = interaction.response.type is _THINKING
        mid = sent.id if followup and not thinking else None
        interaction.extras[_ANSWER] = Answer(sent.flags.ephemeral, mid)
    return sent


def budget_left(interaction: Interaction, budget: float = ANSWER_BUDGET) -> float:
    """Seconds left of `budget`, from the interaction's snowflake time (clamped to [0, budget]:
    a clock behind Discord's would otherwise grant more than Discord does)."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return min(budget, max(0.0, budget - age))


def past_window(interaction: Interaction) -> bool:
    """Whether Discord has already told the user this interaction failed: neither answered nor
    deferred (nor a deferral on its way) within its window. A change it asks for must not be
    applied then: the player would see "failed" and find it done."""
    if interaction.response.is_done():
        return False
    watch: _Watch | None = interaction.extras.get(_WATCH)
    if watch is not None and watch.deferral is not None and not watch.deferral.done():
        return False
    return budget_left(interaction, ANSWER_WINDOW) <= 0


async def in_time(interaction: Interaction, work: Awaitable[T], *, ephemeral: bool = True) -> T:
    """Await `work`; defer the interaction if `work` has not answered it within the budget."""
    if _WATCH in interaction.extras:  # an outer call already watches this interaction
        return await work
    watch = interaction.extras[_WATCH] = _Watch(ephemeral)
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=budget_left(interaction))
        waiting = not done and not watch.answering and not interaction.response.is_done()
        if waiting and not past_window(interaction):  # (too late: a deferral would be refused)
            watch.deferral = asyncio.create_task(_defer(interaction, ephemeral))
        return await task
    except asyncio.CancelledError:
        task.cancel()
        raise
    finally:
        if watch.deferral is not None:
            await watch.deferral  # never leave it running past the work (it never raises)
        _release_clicked_message(interaction)


def _release_clicked_message(interaction: Interaction) -> None:
    """The interaction is answered: drop discord.py's copy of the clicked message.

    Tokens keep an answered interaction for up to 15 minutes (a hand's, a table's), and with it
    that message, parsed anew for every click: its rows, buttons, emojis and embeds, some 60
    objects. Kept until the player's next click, they outlive the garbage collector's young
    generations and die in the oldest, whose full collections then came every second or two at
    a thousand games, each pausing every answer for up to 0.4 s (docs/benchmarks.md). The
    flows read the clicked message only while they answer, inside `in_time`."""
    interaction.message = None


def answers_in_time(
    *, ephemeral: bool = True
) -> Callable[
    [Callable[Concatenate[S, Interaction, P], Coroutine[Any, Any, T]]],
    Callable[Concatenate[S, Interaction, P], Coroutine[Any, Any, T]],
]:
    """Decorate a flow method taking (self, interaction, ...) with `in_time`."""

    def wrap(
        method: Callable[Concatenate[S, Interaction, P], Coroutine[Any, Any, T]],
    ) -> Callable[Concatenate[S, Interaction, P], Coroutine[Any, Any, T]]:
        @functools.wraps(method)
        async def run(
            self: S,
            interaction: Interaction,
            /,
            *args: P.args,
            **kwargs: P.kwargs,
        ) -> T:
            work = method(self, interaction, *args, **kwargs)
            return await in_time(interaction, work, ephemeral=ephemeral)

        return run

    return wrap


async def _defer(interaction: Interaction, ephemeral: bool) -> None:
    try:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()  # deferred update of the clicked message
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.HTTPException:
        log.warning("could not defer interaction %s", interaction.id, exc_info=True)
        return
    log.info("interaction %s deferred: its answer waits for a slow save", interaction.id)


async def settle(interaction: Interaction) -> None:
    """Called before answering: no deferral may start after this, and one in flight is done."""
    watch: _Watch | None = interaction.extras.get(_WATCH)
    if watch is None:
        return
    watch.answering = True
    if watch.deferral is not None:
        await asyncio.shield(watch.deferral)


async def respond(
    interaction: Interaction,
    answer: Outgoing | Ready,
    *,
    edit: bool = False,
    ephemeral: bool = False,
) -> object:
    """Answer with `answer`: edit the clicked message (`edit`) or send it as a message (only its
    user sees it if `ephemeral`); after a deferral, edit the deferred message or send a
    follow-up (the first one fills a "thinking" message). An `Outgoing` with a picture has it
    drawn first (cogs/uno/delivery.py); a `Ready` one goes as it is.
    Returns what discord.py returns (the first answer's InteractionCallbackResponse, a
    follow-up's or an edit's message)."""
    if isinstance(answer, Outgoing):
        answer = await ready(answer, edit=edit) if answer.picture is not None else Ready(answer)
    await settle(interaction)
    # Where the answer goes, for private_hands: a deferred update of a public message is no
    # private answer, even when the answer then follows up privately (the follow-up is).
    if edit:
        interaction.extras[_ANSWER] = Answer(_clicked_ephemeral(interaction))
    else:
        interaction.extras[_ANSWER] = Answer(ephemeral)
    # An answer is worth sending only while Discord takes it: the first one within its window
    # (discord.py would otherwise retry a 5xx for 25 s, long after the player saw "failed"),
    # a follow-up or edit within FOLLOWUP_TIMEOUT. Past that it raises AnswerLate.
    if interaction.response.is_done():
        limit = FOLLOWUP_TIMEOUT
    else:
        limit = max(MIN_ANSWER_TIME, budget_left(interaction, ANSWER_WINDOW))
    try:
        async with asyncio.timeout(limit):
            return await _send_answer(interaction, answer, edit=edit, ephemeral=ephemeral)
    except TimeoutError as cut:
        interaction.extras[ANSWER_CUT] = True  # (it may have arrived: never answered again)
        raise AnswerLate(f"interaction {interaction.id}: no answer within {limit:.1f} s") from cut


async def _send_answer(
    interaction: Interaction,
    answer: Ready,
    *,
    edit: bool,
    ephemeral: bool,
) -> object:
    if not interaction.response.is_done():
        if edit:
            return await interaction.response.edit_message(**answer.edit())
        return await interaction.response.send_message(**answer.send(), ephemeral=ephemeral)
    if edit:
        edited = await interaction.edit_original_response(**answer.edit())
        return _returned(interaction, edited, followup=False)
    sent = await interaction.followup.send(**answer.send(), ephemeral=ephemeral, wait=True)
    return _returned(interaction, sent, followup=True)


async def reply_error(interaction: Interaction, text: str) -> None:
    """Tell the user privately what went wrong; a deferral in flight: the error follows it up."""
    from bot.ui.errors import send_ephemeral

    await settle(interaction)
    await send_ephemeral(interaction, text)
