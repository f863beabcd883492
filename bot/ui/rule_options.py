"""Rule and server options as people set them: groups, typed-in values, choices, the settings embed.

Values arrive as text (a slash-command option); `parse_value` turns them into the RuleSet's types
and the engine (`RuleSet.with_options`) decides whether the combination is valid.
"""

from __future__ import annotations

from typing import Any, Final

from bot.engine import InvalidRules, RuleSet
from bot.engine.rules import CHOICES, INT_RANGES, OPTION_NAMES
from bot.i18n import AUTO, available_locales, locale_name, t

#: Every RuleSet option, grouped as the settings page shows them.
RULE_GROUPS: Final[dict[str, tuple[str, ...]]] = {
    "deck": ("deck", "hand_size", "starting_player", "starter_wild"),
    "wd4": ("wd4_rule", "wd4_challenge", "challenge_guilty", "challenge_fail_draw"),
    "stacking": (
        "stacking",
        "deflect_d2",
        "deflect_wd4",
        "deflect_skip",
        "stack_deflect",
        "two_player_reverse",
    ),
    "drawing": ("voluntary_draw", "draw_until_playable", "force_play_drawn"),
    "uno": ("uno_penalty", "false_catch_penalty"),
    "special": (
        "go_out_on_action",
        "jump_in",
        "seven_o",
        "last_card_swap",
        "last_card_shuffle",
        "custom_effect",
        "mercy_limit",
    ),
    "scoring": ("scoring", "penalty_end", "target", "knockout_bonus"),
}
#: Options of the server that are not rules (the "table" group).
SERVER_OPTIONS: Final = (
    "turn_timer",
    "turn_ping",
    "round_break",
    "card_images",
    "language",
    "start_policy",
    "season",
)
START_POLICIES: Final = ("host", "anyone")
#: How long a season of the rating leaderboard lasts (bot/store/ratings.py).
SEASON_LENGTHS: Final = ("off", "monthly", "quarterly")
#: The turn timer: 0 (off) or this many seconds.
TURN_TIMER_RANGE: Final = (30, 600)
#: What the settings panel offers where a select cannot list every number.
TURN_TIMER_PRESETS: Final = (0, 30, 45, 60, 90, 120, 180, 300, 600)
#: The turn ping: off (None), as the turn starts (0), or after this many seconds.
TURN_PING_RANGE: Final = (0, 600)
TURN_PING_PRESETS: Final = (None, 0, 5, 10, 20, 30, 60, 120, 300)
#: The break between two rounds, in seconds (bot/store/records.py ROUND_BREAK_RANGE).
ROUND_BREAK_RANGE: Final = (10, 300)
ROUND_BREAK_PRESETS: Final = (10, 15, 20, 30, 45, 60, 90, 120, 180, 300)
TARGET_PRESETS: Final = (100, 150, 200, 250, 300, 400, 500, 750, 1000, 1500, 2000)
OFFICIAL: Final = RuleSet()

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def is_bool(option: str) -> bool:
    return isinstance(getattr(OFFICIAL, option), bool)


def parse_value(option: str, text: str) -> Any:
    """A rule option's value from what was typed; InvalidRules when it cannot be one."""
    if option not in OPTION_NAMES:
        raise InvalidRules(option, "no such option")
    raw = text.strip()
    if is_bool(option):
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise InvalidRules(option, "must be on or off")
    if option in INT_RANGES:
        low, high = INT_RANGES[option]
        try:
            return int(raw)
        except ValueError:
            raise InvalidRules(option, f"must be a whole number from {low} to {high}") from None
    return raw


def parse_turn_timer(text: str) -> int:
    """Seconds of the turn timer (0: off); ValueError with the allowed values otherwise."""
    raw = text.strip().lower().removesuffix("s").strip()
    if raw in _FALSE:
        return 0
    low, high = TURN_TIMER_RANGE
    if not raw.isdigit():  # ("half a minute", "1m": said so, with an example that works)
        raise ValueError(f"not a number of seconds, or off ({low} to {high})")
    if low <= int(raw) <= high:
        return int(raw)
    raise ValueError(f"off, or {low} to {high} seconds")


def parse_turn_ping(text: str) -> int | None:
    """Seconds before a turn's player is pinged (0: at once; None: never); ValueError otherwise."""
    raw = text.strip().lower().removesuffix("s").strip()
    if raw in {"now", "immediately", "at once", "0"}:  # "0" s, not "off": the select sends it
        return 0
    if raw in _FALSE:
        return None
    low, high = TURN_PING_RANGE
    if raw.isdigit() and low <= int(raw) <= high:
        return int(raw)
    raise ValueError(f"off, now, or {low} to {high} seconds")


def parse_round_break(text: str) -> int:
    """Seconds between a round's end and the next round (`round_break`); ValueError otherwise."""
    raw = text.strip().lower().removesuffix("s").strip()
    low, high = ROUND_BREAK_RANGE
    if raw.isdigit() and low <= int(raw) <= high:
        return int(raw)
    raise ValueError(f"{low} to {high} seconds")


def ping_key(seconds: int | None) -> str:
    """The turn ping as the settings panel's select carries it (`parse_turn_ping` reads it)."""
    return "off" if seconds is None else str(seconds)


def ping_text(seconds: int | None, locale: object = None) -> str:
    if seconds is None:
        return t("settings.timer_off", locale)
    if seconds == 0:
        return t("settings.ping_now", locale)
    return t("settings.ping_after", locale, count=seconds)


def language_text(language: str, locale: object = None) -> str:
    """The server's language setting in words: "the server's Discord language" or "Deutsch"."""
    return t("settings.language_auto", locale) if language == AUTO else locale_name(language)


def language_values(locale: object = None) -> list[tuple[str, str]]:
    """(value, label) of every language the server may choose: "auto", then each catalogue."""
    return [(code, language_text(code, locale)) for code in (AUTO, *available_locales())]


def parse_on_off(text: str) -> bool:
    """An on/off server option (`card_images`) from what was typed; ValueError otherwise."""
    raw = text.strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ValueError("on or off")


def option_label(option: str, locale: object = None) -> str:
    if option in SERVER_OPTIONS:
        return t(f"settings.option.{option}", locale)
    return t(f"rules.option.{option}", locale)


def value_text(option: str, value: Any, locale: object = None) -> str:
    """A rule value in words."""
    if isinstance(value, bool):
        return t("rules.on" if value else "rules.off", locale)
    if isinstance(value, int):
        return str(value)
    return t(f"rules.value.{option}.{value}", locale)


def option_choices(current: str, locale: object = None) -> list[tuple[str, str]]:
    """(label, option name) of the options matching what was typed, for autocomplete."""
    wanted = current.strip().casefold()
    out = []
    for group, names in [*RULE_GROUPS.items(), ("table", SERVER_OPTIONS)]:
        for name in names:
            label = f"{option_label(name, locale)} · {t(f'settings.group.{group}', locale)}"
            if not wanted or wanted in label.casefold() or wanted in name:
                out.append((label[:100], name))
    return out[:25]


def value_choices(option: str, current: str, locale: object = None) -> list[tuple[str, str]]:
    """(label, value) suggestions for an option, for autocomplete."""
    if option == "turn_timer":
        values = [("off", t("settings.timer_off", locale))]
        values += [
            (str(s), t("settings.seconds", locale, count=s)) for s in (30, 60, 120, 300, 600)
        ]
    elif option == "turn_ping":
        values = [(ping_key(s), ping_text(s, locale)) for s in (None, 0, 10, 30, 60)]
    elif option == "round_break":
        values = [(str(s), t("settings.seconds", locale, count=s)) for s in (15, 30, 60, 120)]
    elif option == "card_images":
        values = [("on", t("rules.on", locale)), ("off", t("rules.off", locale))]
    elif option == "language":
        values = language_values(locale)
    elif option == "start_policy":
        values = [(p, t(f"settings.start_policy.{p}", locale)) for p in START_POLICIES]
    elif option == "season":
        values = [(s, t(f"settings.season.{s}", locale)) for s in SEASON_LENGTHS]
    elif option in OPTION_NAMES and is_bool(option):
        values = [("on", t("rules.on", locale)), ("off", t("rules.off", locale))]
    elif option in CHOICES:
        values = [(v, value_text(option, v, locale)) for v in CHOICES[option]]
    elif option in INT_RANGES:
        low, high = INT_RANGES[option]
        typed = current.strip()
        values = [(typed, typed)] if typed.isdigit() else []
        default = getattr(OFFICIAL, option)
        values += [(str(v), str(v)) for v in sorted({low, default, high})]
    else:
        values = []
    wanted = current.strip().casefold()
    out = [
        (f"{label} ({value})" if label != value else value, value)
        for value, label in values
        if not wanted or wanted in value.casefold() or wanted in label.casefold()
    ]
    return [(label[:100], value[:100]) for label, value in out][:25]


def timer_text(seconds: int, locale: object = None) -> str:
    if not seconds:
        return t("settings.timer_off", locale)
    return t("settings.seconds", locale, count=seconds)


def group_of(option: str) -> str | None:
    """The settings group an option is shown in ("table" for the server's own options)."""
    if option in SERVER_OPTIONS:
        return "table"
    return next((group for group, names in RULE_GROUPS.items() if option in names), None)


def group_options(group: str) -> tuple[str, ...]:
    return SERVER_OPTIONS if group == "table" else RULE_GROUPS.get(group, ())


def value_key(value: Any) -> str:
    """A value as the settings panel's selects carry it (and `parse_value` reads it back)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def select_values(option: str, current: Any, locale: object = None) -> list[tuple[str, str]]:
    """(value, label) of what a select offers for `option`: at most 25, the current one included."""
    if option == "turn_timer":
        return [
            ("off" if s == 0 else str(s), timer_text(s, locale))
            for s in sorted({*TURN_TIMER_PRESETS, int(current)})
        ]
    if option == "turn_ping":
        chosen = parse_turn_ping(str(current))
        presets = sorted({*TURN_PING_PRESETS, chosen}, key=lambda s: -1 if s is None else s)
        return [(ping_key(s), ping_text(s, locale)) for s in presets]
    if option == "round_break":
        seconds = sorted({*ROUND_BREAK_PRESETS, int(current)})
        return [(str(s), t("settings.seconds", locale, count=s)) for s in seconds]
    if option == "language":
        return language_values(locale)
    if option == "start_policy":
        return [(p, t(f"settings.start_policy.{p}", locale)) for p in START_POLICIES]
    if option == "season":
        return [(s, t(f"settings.season.{s}", locale)) for s in SEASON_LENGTHS]
    if option == "card_images" or (option in OPTION_NAMES and is_bool(option)):
        return [("on", t("rules.on", locale)), ("off", t("rules.off", locale))]
    if option in CHOICES:
        return [(str(v), value_text(option, v, locale)) for v in CHOICES[option]]
    if option in INT_RANGES:
        low, high = INT_RANGES[option]
        if high - low < 25:
            numbers: list[int] = list(range(low, high + 1))
        else:
            numbers = sorted({*TARGET_PRESETS, int(current), getattr(OFFICIAL, option)})[:25]
        return [(str(n), str(n)) for n in numbers]
    return []


# ----------------------------------------------------------------------------- match target


def match_target(rules: RuleSet) -> str:
    """The lobby's match-target choice these rules amount to: "round" (one round decides:
    scoring "none", as the Norwegian sheet plays) or the points target as text."""
    return "round" if rules.scoring == "none" else str(rules.target)


def with_match_target(rules: RuleSet, choice: str) -> RuleSet:
    """The rules with the lobby's match target `choice` ("round" or a number of points).

    One round is scoring "none"; a points target on top of it goes back to the official
    scoring; any other scoring keeps its own way of counting and only takes the new target.
    InvalidRules if `choice` is neither.
    """
    if choice == "round":
        return rules.with_options(scoring="none", penalty_end="lowest_wins")
    if not choice.isdigit():
        raise InvalidRules("target", f"{choice[:20]!r} is not one round or a number of points")
    changes: dict[str, Any] = {"target": int(choice)}
    if rules.scoring == "none":
        changes["scoring"] = OFFICIAL.scoring
    return rules.with_options(**changes)
