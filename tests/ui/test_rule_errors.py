"""A refused setting or rule in the reader's words: a value an option does not take is said to
be that (with what to give instead), a clash of options is said to be a clash."""

from __future__ import annotations

import pytest

from bot.engine import InvalidRules, RuleSet
from bot.i18n import available_locales, t
from bot.ui.errors import user_error_text
from bot.ui.rule_errors import rules_error
from bot.ui.rule_options import parse_turn_timer


def _refusal(value: str) -> InvalidRules:
    try:
        parse_turn_timer(value)
    except ValueError as exc:
        return InvalidRules("turn_timer", str(exc))
    raise AssertionError(f"{value!r} was taken")


@pytest.mark.parametrize("locale", available_locales())
def test_a_turn_timer_that_is_no_number_is_told_what_to_give(locale: str) -> None:
    text = user_error_text(rules_error(_refusal("half a minute")), locale)
    seconds = t("rules.reason.seconds", locale, min=30, max=600)
    assert seconds in text and "60" in seconds and "0" in seconds, text
    assert text.startswith(t("error.bad_value", locale, option="", reason="")[:8]), text
    clash = t("error.bad_rules", locale, option="", reason="")
    assert clash[:8] not in text, text  # not "These rules don't work together"


def test_the_english_words_and_a_number_out_of_range() -> None:
    assert user_error_text(rules_error(_refusal("half a minute"))) == (
        "That value doesn't fit Turn timer: not a number of seconds: give e.g. 60, or 0 for off "
        "(30 to 600)."
    )
    assert user_error_text(rules_error(_refusal("5"))) == (
        "That value doesn't fit Turn timer: off, or 30 to 600 seconds."
    )
    assert parse_turn_timer("0") == 0 and parse_turn_timer("60s") == 60


def test_a_clash_of_rules_is_still_called_one() -> None:
    try:
        RuleSet(stacking="same", deflect_d2=True)
    except InvalidRules as exc:
        text = user_error_text(rules_error(exc))
    assert text.startswith("These rules don't work together ("), text
