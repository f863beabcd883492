"""A rule set in words, short: its name, and only what differs from the official rules.

Players know the official rules; what they need to read is what this table does differently.
So `/uno rules`, the lobby and the settings page name the rules ("Official", a preset's name, or
the nearest preset and what differs from it: "Norway + Jump-in") and list only the options that
differ from the official rules, each with its official value beside it.
"""

from __future__ import annotations

from dataclasses import fields
from functools import lru_cache

import discord

from bot.engine import PRESETS, InvalidRules, RuleSet
from bot.i18n import t
from bot.ui.rule_options import OFFICIAL, match_target, option_label, value_text, with_match_target

#: The most option names the one-line summary lists before it says "and N more".
SUMMARY_OPTIONS = 3


def preset_of(rules: RuleSet) -> str | None:
    """The preset these rules are exactly, if any."""
    return next((name for name, preset in PRESETS.items() if preset == rules), None)


def changed_options(rules: RuleSet) -> list[str]:
    """The options that differ from the official rules, in the rule set's own order."""
    return [f.name for f in fields(rules) if getattr(rules, f.name) != getattr(OFFICIAL, f.name)]


def _at_match_length(rules: RuleSet) -> dict[str, RuleSet]:
    """Each preset played to the match length of `rules` (the lobby's One round, or its
    points target: `with_match_target`)."""
    return _presets_to(match_target(rules))


@lru_cache(maxsize=64)
def _presets_to(choice: str) -> dict[str, RuleSet]:
    """Each preset played to the match length `choice` (worked out once per length: every
    table shows its rules, every time it is drawn; do not change the answer)."""
    presets = {}
    for name, preset in PRESETS.items():
        try:
            presets[name] = with_match_target(preset, choice)
        except InvalidRules:
            presets[name] = preset
    return presets


def rules_summary(rules: RuleSet, locale: object = None, *, length_apart: bool = False) -> str:
    """One line: "Official", "Norway", or the nearest preset and what differs from it
    ("Official + Jump-in, 7-0"), for the table's footer.

    `length_apart`: the message says the match length on a line of its own (the lobby, the
    table), so the name is of the play alone: a preset whose match length was changed (the
    lobby's One round, or 200 points) keeps its name, rather than turning into the preset that
    differs only by that ("Official" played for one round is the Norway preset's rule set, and
    was called "Norway")."""
    presets = _at_match_length(rules) if length_apart else PRESETS
    preset = next((name for name, preset in presets.items() if preset == rules), None)
    if preset:
        return t(f"preset.{preset}", locale)
    base, changed = min(
        ((name, _differences(rules, preset_rules)) for name, preset_rules in presets.items()),
        key=lambda item: (len(item[1]), item[0] != "official"),
    )
    names = [option_label(o, locale) for o in changed[:SUMMARY_OPTIONS]]
    more = len(changed) - len(names)
    listed = ", ".join(names) + (" " + t("rules.and_more", locale, count=more) if more else "")
    return t("rules.summary_changed", locale, preset=t(f"preset.{base}", locale), options=listed)


def _differences(rules: RuleSet, other: RuleSet) -> list[str]:
    return [f.name for f in fields(rules) if getattr(rules, f.name) != getattr(other, f.name)]


def difference_lines(rules: RuleSet, locale: object = None) -> list[str]:
    """One line per option that differs from the official rules, with the official value."""
    return [
        t(
            "rules.line_changed",
            locale,
            option=option_label(option, locale),
            value=value_text(option, getattr(rules, option), locale),
            official=value_text(option, getattr(OFFICIAL, option), locale),
        )
        for option in changed_options(rules)
    ]


def rules_in_words(rules: RuleSet, locale: object = None) -> str:
    """ "Official rules: nothing changed", or the list of differences and a closing line."""
    lines = difference_lines(rules, locale)
    if not lines:
        return t("rules.all_official", locale)
    return "\n".join([t("rules.differs", locale), *lines, "", t("rules.rest_official", locale)])


def render_rules(rules: RuleSet, locale: object = None) -> discord.Embed:
    return discord.Embed(
        title=t("rules.title", locale, preset=rules_summary(rules, locale)),
        description=rules_in_words(rules, locale)[:4096],
        colour=0x0956BF,
    )
