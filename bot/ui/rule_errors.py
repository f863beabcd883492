"""A refused rule or setting change in the reader's words.

The engine explains a refused rule set in English (`InvalidRules(option, reason)`), for logs and
tests; people see the same reason from the catalogue, in their own language. Each known reason
is matched here to its catalogue key; an unknown one (a new engine check) is shown as it is.
"""

from __future__ import annotations

import re
from typing import Final

from bot.engine import InvalidRules
from bot.engine.rules import OPTION_NAMES
from bot.i18n import Phrase
from bot.ui.errors import UserError

#: Every reason the engine and the settings parsers give, and the key that says it.
_REASONS: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (re.compile(pattern), key)
    for pattern, key in (
        (r"'?(?P<value>.*?)'? is not one of (?P<allowed>.+)", "rules.reason.not_one_of"),
        (r"must be a whole number from (?P<min>\d+) to (?P<max>\d+)", "rules.reason.range"),
        (r"must be (?:true or false|on or off)", "rules.reason.on_off"),
        (r"with wd4_rule 'any' every Wild Draw Four is legal.*", "rules.reason.wd4_any"),
        (r"deflecting \(no adding up\) contradicts stacking", "rules.reason.deflect_d2"),
        (r"deflecting a Wild Draw Four contradicts stacking", "rules.reason.deflect_wd4"),
        (r"the classic108 deck has no Customizable cards", "rules.reason.custom_deck"),
        (r"only applies to penalty scoring", "rules.reason.penalty_only"),
        (r"no such option", "rules.reason.no_option"),
        (r"off, or (?P<min>\d+) to (?P<max>\d+) seconds", "rules.reason.timer"),
        (
            r"not a number of seconds, or off \((?P<min>\d+) to (?P<max>\d+)\)",
            "rules.reason.seconds",
        ),
        (r"off, now, or (?P<min>\d+) to (?P<max>\d+) seconds", "rules.reason.ping"),
        (r"(?P<min>\d+) to (?P<max>\d+) seconds", "rules.reason.seconds_range"),
        (r"one of (?P<allowed>.+)", "rules.reason.one_of"),
        (r"a game needs (?P<min>\d+) to (?P<max>\d+) players", "rules.reason.players"),
        (r"not enough cards to deal that many to every player", "rules.reason.hand_size"),
        (
            r"must be off \(0\) or at least the hand size plus (?P<plus>\d+)",
            "rules.reason.mercy_limit",
        ),
    )
)
_SERVER_OPTIONS: Final = frozenset(
    {"turn_timer", "turn_ping", "round_break", "language", "start_policy"}
)
#: The reasons that are about options together; any other is about the one value given.
_COMBINATIONS: Final = frozenset(
    {
        "rules.reason.wd4_any",
        "rules.reason.deflect_d2",
        "rules.reason.deflect_wd4",
        "rules.reason.custom_deck",
        "rules.reason.penalty_only",
        "rules.reason.mercy_limit",
    }
)


def reason_phrase(reason: str) -> Phrase | str:
    """The catalogue's words for an engine reason, or the reason itself if it is a new one."""
    for pattern, key in _REASONS:
        match = pattern.fullmatch(reason)
        if match:
            params = {
                name: int(value) if value.isdigit() else value
                for name, value in match.groupdict().items()
            }
            return Phrase(key, params)
    return reason


def option_phrase(option: str) -> Phrase | str:
    if option in _SERVER_OPTIONS:
        return Phrase(f"settings.option.{option}")
    if option in OPTION_NAMES:
        return Phrase(f"rules.option.{option}")
    return option


def rules_error(error: InvalidRules) -> UserError:
    """The refusal to show for `error`, translated when it is shown: options that contradict
    each other (`error.bad_rules`), or a value the option does not take (`error.bad_value`:
    "half a minute" for the turn timer is no clash of rules)."""
    reason = reason_phrase(error.reason)
    combination = isinstance(reason, Phrase) and reason.key in _COMBINATIONS
    return UserError(
        "error.bad_rules" if combination else "error.bad_value",
        option=option_phrase(error.option),
        reason=reason,
    )
