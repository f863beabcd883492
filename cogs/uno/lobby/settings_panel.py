"""What the settings panel's selects do: change the server's defaults or a lobby's rules.

The server's panel (`/uno-admin settings`) is for members with Manage Server; a lobby's panel
(its Rules button) changes that game's rules, for its host only, before Start. Every change goes
through the engine's validation (`RuleSet.with_options`): an invalid combination leaves the
settings as they were and the panel shows the engine's reason. What a select sends is never
trusted: unknown groups, options or values are refused the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial
from typing import Any

from bot.engine import InvalidRules, RuleSet
from bot.engine.game_kinds import decks_of, game_of, unused_options
from bot.host import Interaction
from bot.i18n import AUTO, available_locales, t
from bot.store import GameRecord, GameStatus, GuildConfig, StartPolicy
from bot.ui.config_panel import GROUP_STEP, VALUE_STEP, config_view
from bot.ui.errors import UserError, user_error_text
from bot.ui.ids import SERVER_SCOPE
from bot.ui.items import Click
from bot.ui.outgoing import Outgoing
from bot.ui.rule_errors import rules_error
from bot.ui.rule_options import (
    SEASON_LENGTHS,
    SERVER_OPTIONS,
    START_POLICIES,
    group_of,
    option_label,
    parse_on_off,
    parse_round_break,
    parse_turn_ping,
    parse_turn_timer,
    parse_value,
    ping_key,
)
from bot.ui.rules_text import render_rules
from bot.ui.settings_page import render_settings
from cogs.uno.answers import respond
from cogs.uno.shared import Shared

#: Save a lobby's rules (`LobbyRules.save_lobby_rules`): record, change, answer with the result.
SaveLobbyRules = Callable[
    [GameRecord, Callable[[RuleSet], RuleSet], Callable[[RuleSet], Awaitable[Any]]],
    Awaitable[None],
]


def changed_config(config: GuildConfig, *, option: str, value: str) -> GuildConfig:
    """The settings with one option changed; InvalidRules (with the reason) if it can't be."""
    if option == "turn_timer":
        try:
            return replace(config, turn_timeout_seconds=parse_turn_timer(value))
        except ValueError as exc:
            raise InvalidRules(option, str(exc)) from None
    if option == "turn_ping":
        try:
            return replace(config, turn_ping_seconds=parse_turn_ping(value))
        except ValueError as exc:
            raise InvalidRules(option, str(exc)) from None
    if option == "round_break":
        try:
            return replace(config, round_break_seconds=parse_round_break(value))
        except ValueError as exc:
            raise InvalidRules(option, str(exc)) from None
    if option == "card_images":
        try:
            return replace(config, card_images=parse_on_off(value))
        except ValueError as exc:
            raise InvalidRules(option, str(exc)) from None
    if option == "language":
        if value != AUTO and value not in available_locales():
            raise InvalidRules(option, "one of " + ", ".join((AUTO, *available_locales())))
        return replace(config, language=value)
    if option == "season":
        if value not in SEASON_LENGTHS:
            raise InvalidRules(option, "one of " + ", ".join(SEASON_LENGTHS))
        return replace(config, season_length=value)
    if option == "start_policy":
        if value not in START_POLICIES:
            raise InvalidRules(option, "one of " + ", ".join(START_POLICIES))
        return replace(config, start_policy=StartPolicy(value))
    return replace(config, rules=config.rules.with_options(**{option: parse_value(option, value)}))


def server_values(config: GuildConfig) -> dict[str, Any]:
    """Every option of the server's panel and its value now."""
    return {
        **config.rules.to_dict(),
        "turn_timer": config.turn_timeout_seconds,
        "turn_ping": ping_key(config.turn_ping_seconds),  # "off" or seconds, as the select has it
        "round_break": config.round_break_seconds,
        "card_images": "on" if config.card_images else "off",  # as the select has it
        "language": config.language,
        "start_policy": config.start_policy.value,
        "season": config.season_length,
    }


def server_panel(
    config: GuildConfig,
    locale: object,
    *,
    notice: str | None = None,
    group: str | None = None,
    option: str | None = None,
) -> Outgoing:
    """The server's settings and the selects that change them."""
    embed = render_settings(
        config.rules,
        config.turn_timeout_seconds,
        config.language,
        config.start_policy.value,
        locale,
        turn_ping=config.turn_ping_seconds,
        card_images=config.card_images,
        season=config.season_length,
        round_break=config.round_break_seconds,
        notice=notice,
    )
    view = config_view(SERVER_SCOPE, server_values(config), locale, group=group, option=option)
    return Outgoing.of(embed, view)


def lobby_panel(
    game_id: int,
    rules: RuleSet,
    locale: object,
    *,
    notice: str | None = None,
    group: str | None = None,
    option: str | None = None,
) -> Outgoing:
    """A lobby's rules, and (for its host) the selects that change them."""
    embed = render_rules(rules, locale)
    if notice:
        embed.description = f"{notice}\n\n{embed.description or ''}"[:4096]
    game = game_of(rules)  # (its options that mean nothing, and other games' decks: not offered)
    view = config_view(
        str(game_id),
        rules.to_dict(),
        locale,
        group=group,
        option=option,
        hidden=unused_options(game),
        decks=decks_of(game),
    )
    return Outgoing.of(embed, view)


class ConfigPanel:
    def __init__(self, shared: Shared, save_lobby_rules: SaveLobbyRules) -> None:
        self.shared = shared
        self.save_lobby_rules = save_lobby_rules  # passed in: the lobby's rules flow imports us

    async def handle(self, interaction: Interaction, click: Click) -> None:
        step, _, choice = click.action.partition("|")
        if click.game_id:
            await self._lobby(interaction, click.game_id, step, choice)
        else:
            await self._server(interaction, step, choice)

    @staticmethod
    def _where(step: str, choice: str, known: set[str]) -> tuple[str | None, str | None]:
        """(group, option) the panel shows after choosing `choice` at `step`."""
        if step == GROUP_STEP:
            return (choice, None) if any(group_of(o) == choice for o in known) else (None, None)
        option = step.removeprefix(VALUE_STEP) if step.startswith(VALUE_STEP) else choice
        if option not in known:
            return None, None
        return group_of(option), option

    async def _server(self, interaction: Interaction, step: str, choice: str) -> None:
        locale = interaction.locale
        guild_id = interaction.guild_id
        if guild_id is None or not interaction.permissions.manage_guild:
            raise UserError("error.no_permission")
        db = self.shared.db
        async with db.read() as unit:
            config = await unit.settings.guild(guild_id)
        group, option = self._where(step, choice, set(server_values(config)))
        notice = None
        if step.startswith(VALUE_STEP) and option is not None:
            try:
                async with db.write() as unit:
                    config = await unit.settings.update_guild(
                        guild_id, partial(changed_config, option=option, value=choice)
                    )
            except InvalidRules as exc:
                notice = "⚠️ " + user_error_text(rules_error(exc), locale)
            else:
                self.shared.settings_changed(guild_id)
                notice = t("notice.setting_changed", locale, option=option_label(option, locale))
        panel = server_panel(config, locale, notice=notice, group=group, option=option)
        await respond(interaction, panel, edit=True)

    async def _lobby(self, interaction: Interaction, game_id: int, step: str, choice: str) -> None:
        locale = interaction.locale
        record = await self.shared.record(game_id)
        self.shared.require_channel(interaction, record.channel_id)
        if record.status is GameStatus.RUNNING:
            raise UserError("error.already_started")
        if record.status is not GameStatus.LOBBY:
            raise UserError("error.game_ended")
        if interaction.user.id != record.host_id:
            raise UserError("error.host_only")
        rules = record.rules
        known = set(rules.to_dict()) - set(SERVER_OPTIONS) - set(unused_options(record.game))
        group, option = self._where(step, choice, known)
        notice = None
        if step.startswith(VALUE_STEP) and option is not None:
            changed = t("notice.setting_changed", locale, option=option_label(option, locale))

            async def answer(stored: RuleSet) -> None:
                panel = lobby_panel(
                    game_id, stored, locale, notice=changed, group=group, option=option
                )
                await respond(interaction, panel, edit=True)

            value = choice
            try:
                await self.save_lobby_rules(
                    record,
                    lambda rules: rules.with_options(**{option: parse_value(option, value)}),
                    answer,
                )
                return
            except InvalidRules as exc:
                notice = "⚠️ " + user_error_text(rules_error(exc), locale)
        panel = lobby_panel(game_id, rules, locale, notice=notice, group=group, option=option)
        await respond(interaction, panel, edit=True)
