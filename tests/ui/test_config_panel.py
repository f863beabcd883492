"""The settings panel: every option has a select of values it can parse, within Discord's limits,
and what a select sends is only trusted when it names a known group or option."""

from __future__ import annotations

import re

import pytest

from bot.engine import InvalidRules, RuleSet
from bot.store import GuildConfig
from bot.ui.config_panel import config_view
from bot.ui.ids import CONFIG_TEMPLATE, SERVER_SCOPE, matches_exactly_one
from bot.ui.rule_options import RULE_GROUPS, SERVER_OPTIONS, parse_value, select_values, value_key
from cogs.uno.lobby.settings_panel import ConfigPanel, changed_config, server_values

DEFAULTS = server_values(GuildConfig(1))


@pytest.mark.parametrize("option", sorted(DEFAULTS))
def test_every_option_offers_values_that_parse(option: str) -> None:
    current = DEFAULTS[option]
    values = select_values(option, current, "en-US")
    assert 1 <= len(values) <= 25
    keys = [v for v, _ in values]
    assert ("off" if option == "turn_timer" and not current else value_key(current)) in keys
    for value, label in values:
        assert value and label and len(label) <= 100
        if option in SERVER_OPTIONS:
            # never raises for offered values
            changed_config(GuildConfig(1), option=option, value=value)
        else:
            parse_value(option, value)


def test_a_current_value_outside_the_presets_is_offered_too() -> None:
    assert "12345" in [v for v, _ in select_values("target", 12345)]
    assert "75" in [v for v, _ in select_values("turn_timer", 75)]


@pytest.mark.parametrize("scope", [SERVER_SCOPE, "123456789012345678"])
def test_every_step_of_the_panel_fits_discord(scope: str) -> None:
    groups = [*RULE_GROUPS, "table"] if scope == SERVER_SCOPE else list(RULE_GROUPS)
    current = DEFAULTS if scope == SERVER_SCOPE else RuleSet().to_dict()
    for group in groups:
        names = RULE_GROUPS.get(group, SERVER_OPTIONS)
        for option in (None, *names):
            view = config_view(scope, current, "en-US", group=group, option=option)
            payload = view.to_components()
            selects = [c for row in payload for c in row["components"]]
            assert len(selects) == (3 if option else 2)
            for select in selects:
                assert re.fullmatch(CONFIG_TEMPLATE, select["custom_id"])
                assert matches_exactly_one(select["custom_id"])
                assert 1 <= len(select["options"]) <= 25
                assert sum(bool(o.get("default")) for o in select["options"]) <= 1
                for o in select["options"]:
                    assert len(o["label"]) <= 100 and len(o.get("description", "")) <= 100


@pytest.mark.parametrize(
    ("step", "choice", "expected"),
    [
        ("group", "wd4", ("wd4", None)),
        ("group", "nope", (None, None)),
        ("group", "table", (None, None)),  # not in a lobby
        ("opt", "hand_size", ("deck", "hand_size")),
        ("opt", "turn_timer", (None, None)),
        ("opt", "__class__", (None, None)),
        ("val:stacking", "same", ("stacking", "stacking")),
        ("val:nope", "1", (None, None)),
    ],
)
def test_only_known_groups_and_options_are_followed(
    step: str, choice: str, expected: tuple[str | None, str | None]
) -> None:
    lobby_options = set(RuleSet().to_dict())
    assert ConfigPanel._where(step, choice, lobby_options) == expected


def test_a_forged_value_is_refused_by_the_engine() -> None:
    with pytest.raises(InvalidRules):
        changed_config(GuildConfig(1), option="stacking", value="sideways")
    with pytest.raises(InvalidRules):
        changed_config(GuildConfig(1), option="turn_timer", value="5")
    with pytest.raises(InvalidRules):
        changed_config(GuildConfig(1), option="hand_size", value="99")


@pytest.mark.parametrize(
    ("typed", "stored"), [("off", None), ("now", 0), ("0", 0), ("10", 10), ("45 s", 45)]
)
def test_the_turn_ping_is_off_at_once_or_after_some_seconds(typed: str, stored: int | None) -> None:
    config = changed_config(GuildConfig(1), option="turn_ping", value=typed)
    assert config.turn_ping_seconds == stored
    assert GuildConfig(1).turn_ping_seconds == 10  # the default: docs/playing.md "Turns"

    for wrong in ("-1", "601", "soon"):
        with pytest.raises(InvalidRules):
            changed_config(config, option="turn_ping", value=wrong)


def test_card_pictures_are_on_by_default_and_turned_off_or_on_by_name() -> None:
    assert GuildConfig(1).card_images is True  # docs/playing.md "Card pictures"
    off = changed_config(GuildConfig(1), option="card_images", value="off")
    assert off.card_images is False and server_values(off)["card_images"] == "off"
    assert changed_config(off, option="card_images", value="on").card_images is True
    assert [value for value, _ in select_values("card_images", "off")] == ["on", "off"]
    with pytest.raises(InvalidRules):
        changed_config(off, option="card_images", value="sometimes")


@pytest.mark.parametrize(("typed", "stored"), [("10", 10), ("15", 15), ("90 s", 90), ("300", 300)])
def test_the_round_break_is_10_to_300_seconds(typed: str, stored: int) -> None:
    assert GuildConfig(1).round_break_seconds == 15  # the default: docs/playing.md "Between rounds"
    config = changed_config(GuildConfig(1), option="round_break", value=typed)
    assert config.round_break_seconds == stored and server_values(config)["round_break"] == stored
    for wrong in ("9", "301", "0", "off", "half a minute", "-20"):
        with pytest.raises(InvalidRules):
            changed_config(config, option="round_break", value=wrong)


@pytest.mark.parametrize("locale", ["en-US", "de", "no", "pl"])
def test_a_refused_round_break_is_explained_in_the_reader_s_language(locale: str) -> None:
    from bot.ui.errors import user_error_text
    from bot.ui.rule_errors import rules_error

    with pytest.raises(InvalidRules) as refused:
        changed_config(GuildConfig(1), option="round_break", value="5")
    text = user_error_text(rules_error(refused.value), locale)
    assert "10" in text and "300" in text
    assert "round_break" not in text  # the option's name in words, not its code
    if locale != "en-US":
        assert "seconds" not in text  # translated, not the engine's English


def test_the_settings_page_shows_the_round_break() -> None:
    from cogs.uno.lobby.settings_panel import server_panel

    config = changed_config(GuildConfig(1), option="round_break", value="45")
    embed = server_panel(config, "en-US").embeds[0]
    assert "• Break between rounds: 45 s" in embed.fields[1].value
    assert ("45", "45 s") in select_values("round_break", 45, "en-US")
