"""Errors a user can cause, and how they are told about them (always ephemerally)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.engine import Card, GameError
from bot.i18n import has_key, t
from bot.ui.cards import card_name
from bot.ui.names import literal

log = logging.getLogger(__name__)


class UserError(Exception):
    """Something the user should be told, as catalogue key + parameters (never a traceback)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def game_error_text(
    error: GameError, locale: object = None, names: Mapping[int, str] | None = None
) -> str:
    """An engine error in words: `error.<key>` with card codes and player ids made readable."""
    params: dict[str, Any] = dict(error.params)
    code = params.get("card")
    if isinstance(code, str):
        with contextlib.suppress(ValueError):
            params["card"] = card_name(Card.of(code), locale)
    for field in ("player", "target"):
        user = params.get(field)
        if isinstance(user, int):
            known = (names or {}).get(user)
            params[field] = f"<@{user}>" if known is None else literal(known)
    key = f"error.{error.key}"
    if not has_key(key):
        key = "error.illegal_action"
    return t(key, locale, **params)


def user_error_text(error: UserError, locale: object = None) -> str:
    return t(error.key, locale, **error.params)


#: Seconds Discord waits for an interaction's first answer (or deferral) before it tells its user
#: that it failed; an answer after that is refused (10062 Unknown interaction).
ANSWER_WINDOW = 3.0

#: Discord's answers to a dead interaction token: unknown interaction (not acknowledged within
#: 3 s), unknown webhook, invalid webhook token (older than 15 min).
DEAD_TOKEN_CODES = frozenset({10062, 10015, 50027})


class AnswerLate(TimeoutError):
    """An answer Discord did not confirm while it could still take it. It may have arrived all
    the same (a request cut short is not a request undone), so nothing may answer that
    interaction again: a second answer would be refused (40060) and count against the bot."""


#: interaction.extras key: an answer of this interaction was cut short (`AnswerLate`).
ANSWER_CUT = "uno_answer_cut"


def token_is_dead(error: BaseException) -> bool:
    """Whether `error` says the interaction's token is gone, or its answer was cut short: then
    it must not be tried again."""
    if isinstance(error, AnswerLate):
        return True
    return isinstance(error, discord.HTTPException) and error.code in DEAD_TOKEN_CODES


async def send_ephemeral(interaction: discord.Interaction[discord.Client], text: str) -> None:
    """Answer (or follow up) with an ephemeral text, whatever state the interaction is in
    (none, once an answer of it was cut short: `AnswerLate`)."""
    if interaction.extras.get(ANSWER_CUT):
        log.info("interaction %s: not answered again after an answer cut short", interaction.id)
        return
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
