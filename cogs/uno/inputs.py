"""Re-checks of raw command values: a modified client can send any value for any option.

Discord's own client only offers an option's choices and range, but the bot never relies on it:
a value outside them is refused with a clear ephemeral message (a `UserError`), never passed on.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.i18n import Phrase, has_key
from bot.ui.errors import UserError


def _option(option: str) -> Phrase | str:
    """An option's name as the reader's command shows it (`cmdname.option.*`)."""
    key = f"cmdname.option.{option}"
    return Phrase(key) if has_key(key) else option


def require_choice(option: str, value: str, allowed: Collection[str]) -> str:
    """`value` if it is one of `allowed`; otherwise a UserError naming the choices."""
    if value not in allowed:
        raise UserError(
            "error.bad_choice", option=_option(option), value=value[:50], allowed=", ".join(allowed)
        )
    return value


def require_range(option: str, value: object, low: int, high: int) -> int:
    """`value` if it is a whole number from `low` to `high`; otherwise a UserError."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise UserError("error.bad_number", option=_option(option), min=low, max=high)
    return value
