"""The settings panel's selects: pick a group, then one of its options, then the new value.

It edits the server's defaults (`/uno-admin settings`, scope "g") or one lobby's rules (the
lobby's Rules button, scope = the game id). Each choice re-renders the panel with the next
select; what was chosen rides in the custom ids, so a panel keeps working after a restart.
Options show their current value and the official one; the engine validates every change.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import discord

from bot.i18n import t
from bot.ui.ids import SERVER_SCOPE
from bot.ui.items import ConfigSelect
from bot.ui.rule_options import (
    OFFICIAL,
    RULE_GROUPS,
    group_options,
    option_label,
    parse_turn_ping,
    ping_text,
    select_values,
    timer_text,
    value_key,
    value_text,
)

GROUP_STEP = "group"
OPTION_STEP = "opt"
VALUE_STEP = "val:"
#: Marks a group or option that differs from the official rules, as `/uno rules` does.
CHANGED_MARK = "✳️"


def _shown(option: str, value: Any, locale: object) -> str:
    if option == "turn_timer":
        return timer_text(int(value), locale)
    if option == "turn_ping":
        return ping_text(parse_turn_ping(str(value)), locale)
    if option == "round_break":
        return t("settings.seconds", locale, count=int(value))
    if option == "start_policy":
        return t(f"settings.start_policy.{value}", locale)
    if option == "season":
        return t(f"settings.season.{value}", locale)
    if option == "card_images":
        return value_text(option, str(value) == "on", locale)
    if option == "language":
        return str(value)
    return value_text(option, value, locale)


def _description(option: str, value: Any, locale: object) -> str:
    now = t("settings.now", locale, value=_shown(option, value, locale))
    if hasattr(OFFICIAL, option):
        official = _shown(option, getattr(OFFICIAL, option), locale)
        now += " · " + t("settings.official", locale, value=official)
    return now[:100]


def _changed(option: str, value: Any) -> bool:
    """Whether a rule option differs from the official rules (server options never do)."""
    return hasattr(OFFICIAL, option) and value != getattr(OFFICIAL, option)


def _option(name: str, value: Any, locale: object, chosen: str | None) -> discord.SelectOption:
    changed = _changed(name, value)
    return discord.SelectOption(
        label=option_label(name, locale)[:100],
        value=name,
        description=_description(name, value, locale),
        emoji=CHANGED_MARK if changed else None,
        default=name == chosen,
    )


def config_view(
    scope: str,
    current: Mapping[str, Any],
    locale: object = None,
    *,
    group: str | None = None,
    option: str | None = None,
    hidden: Collection[str] = (),
    decks: Collection[str] | None = None,
) -> discord.ui.View:
    """The panel's selects: groups, then `group`'s options, then `option`'s values. Groups and
    options that differ from the official rules carry ✳️, and a group lists those options first.

    `current` maps every option the scope can change to its value now (rules, plus the server's
    own options in the server scope). `hidden`: options that mean nothing in the lobby's game
    (bot/engine/game_kinds.py), not offered; `decks`: the decks the game may use (None: all).
    """
    groups = [*RULE_GROUPS, "table"] if scope == SERVER_SCOPE else list(RULE_GROUPS)
    view = discord.ui.View(timeout=None)
    group_options_now = {g: tuple(o for o in group_options(g) if o not in hidden) for g in groups}
    groups = [g for g in groups if group_options_now[g]]
    view.add_item(
        ConfigSelect(
            scope,
            GROUP_STEP,
            [
                discord.SelectOption(
                    label=t(f"settings.group.{g}", locale)[:100],
                    value=g,
                    emoji=CHANGED_MARK
                    if any(_changed(o, current.get(o)) for o in group_options_now[g])
                    else None,
                    default=g == group,
                )
                for g in groups
            ],
            placeholder=t("settings.pick_group", locale),
            row=0,
        )
    )
    if group in groups:
        names = sorted(group_options_now[group], key=lambda o: not _changed(o, current[o]))
        view.add_item(
            ConfigSelect(
                scope,
                OPTION_STEP,
                [_option(name, current[name], locale, option) for name in names],
                placeholder=t("settings.pick_option", locale),
                row=1,
            )
        )
    if option is not None and option in current and option not in hidden:
        setting = current[option]
        now = "off" if option == "turn_timer" and not setting else value_key(setting)
        values = select_values(option, setting, locale)
        if option == "deck" and decks is not None:
            values = [(value, label) for value, label in values if value in decks]
        view.add_item(
            ConfigSelect(
                scope,
                VALUE_STEP + option,
                [
                    discord.SelectOption(label=label[:100], value=value, default=value == now)
                    for value, label in values
                ],
                placeholder=t("settings.pick_value", locale, option=option_label(option, locale)),
                row=2,
            )
        )
    return view
