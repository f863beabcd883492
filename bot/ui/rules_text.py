"""A rule set in words, for `/uno rules` and the table's footer."""

from __future__ import annotations

from dataclasses import fields

import discord

from bot.engine import PRESETS, RuleSet
from bot.i18n import t


def preset_name(rules: RuleSet, locale: object = None) -> str:
    """The preset these rules are, or "custom" (with the preset they derive from unknown)."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return t(f"preset.{name}", locale)
    return t("preset.custom", locale)


def rule_lines(rules: RuleSet, locale: object = None) -> list[str]:
    """One line per option: its name and its value in words."""
    lines = []
    official = RuleSet()
    for f in fields(rules):
        value = getattr(rules, f.name)
        if isinstance(value, bool):
            shown = t("rules.on" if value else "rules.off", locale)
        elif isinstance(value, int):
            shown = str(value)
        else:
            shown = t(f"rules.value.{f.name}.{value}", locale)
        changed = value != getattr(official, f.name)
        key = "rules.line_changed" if changed else "rules.line"
        lines.append(t(key, locale, option=t(f"rules.option.{f.name}", locale), value=shown))
    return lines


def render_rules(rules: RuleSet, locale: object = None) -> discord.Embed:
    lines = rule_lines(rules, locale)
    embed = discord.Embed(
        title=t("rules.title", locale, preset=preset_name(rules, locale)),
        description=t("rules.intro", locale) + "\n\n" + "\n".join(lines),
        colour=0x0956BF,
    )
    return embed
