"""A lobby's rules before Start: shown to anyone, changed by its host (panel or `/uno setrule`).

Every change is one atomic write validated by the engine; the public lobby shows it after the
click is answered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from bot.engine import InvalidRules, RuleSet
from bot.engine.game_kinds import game_kind, game_of, unused_options
from bot.host import Interaction
from bot.i18n import Phrase, t
from bot.store import GameRecord, GameStatus, WrongStatus
from bot.ui.errors import UserError
from bot.ui.ids import LOBBY_TARGETS
from bot.ui.outgoing import Outgoing
from bot.ui.rule_errors import rules_error
from bot.ui.rule_options import match_target, parse_value, with_match_target
from bot.ui.rules_text import render_rules
from cogs.uno.answers import answers_in_time, respond
from cogs.uno.lobby.settings_panel import lobby_panel
from cogs.uno.shared import Shared


class LobbyRules:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    async def show_lobby_rules(self, interaction: Interaction, record: GameRecord) -> None:
        """The rules of this game; for the host, with the selects that change them."""
        locale = interaction.locale
        if interaction.user.id == record.host_id:
            panel = lobby_panel(
                record.id, record.rules, locale, notice=t("lobby.rules_host", locale)
            )
            await respond(interaction, panel, ephemeral=True)
            return
        rules = Outgoing.of(
            render_rules(record.rules, locale), content=t("lobby.rules_hint", locale)
        )
        await respond(interaction, rules, ephemeral=True)

    async def save_lobby_rules(
        self,
        record: GameRecord,
        change: Callable[[RuleSet], RuleSet],
        answer: Callable[[RuleSet], Awaitable[Any]],
    ) -> None:
        """Apply `change` to the lobby's stored rules in one atomic write (InvalidRules from it
        stores nothing and propagates), then `answer` the click with the rules as stored, then
        show them in the public lobby (the answer must not wait for that edit).

        A change may not leave the lobby's game (another game's deck: the game is picked in
        the lobby's Game select) nor set an option that means nothing in it (a UserError)."""
        shared = self.shared
        async with shared.lock(record.channel_id):
            try:
                async with shared.db.write() as unit:
                    rules = await unit.games.update_rules(record.id, partial(_within_game, change))
                    record = await unit.games.get(record.id)
            except WrongStatus:
                raise UserError("error.already_started") from None
            await answer(rules)
            lobby = shared.lobby_message(record)
            await shared.edit_public(record.channel_id, record.table_message_id, lobby)

    @answers_in_time()
    async def set_lobby_rule(self, interaction: Interaction, option: str, value: str) -> None:
        """The host changes one rule of this game before Start (validated by the engine)."""
        record = await self.shared.channel_game(interaction.channel_id or 0)
        if record.status is not GameStatus.LOBBY:
            raise UserError("error.already_started")
        if interaction.user.id != record.host_id:
            raise UserError("error.host_only")
        text = t("notice.rule_set", interaction.locale)
        try:
            await self.save_lobby_rules(
                record,
                lambda rules: rules.with_options(**{option: parse_value(option, value)}),
                lambda _: respond(interaction, Outgoing(content=text), ephemeral=True),
            )
        except InvalidRules as exc:
            raise rules_error(exc) from None

    @answers_in_time()
    async def set_game(self, interaction: Interaction, record: GameRecord, choice: str) -> None:
        """The host picks the game in the lobby's select: its preset becomes the lobby's rules
        (the caller checked this channel and the lobby status; the choice is user input: only
        a game the engine offers, for no more players than are seated, passes)."""
        if interaction.user.id != record.host_id:
            raise UserError("error.host_only")
        kind = game_kind(choice)
        if kind is None:
            raise UserError("error.unknown_game", value=choice[:50])
        shared = self.shared
        async with shared.lock(record.channel_id):
            record = await shared.record(record.id)
            if record.status is not GameStatus.LOBBY:
                raise UserError("error.already_started")
            seated = sum(1 for seat in record.seats if seat.left_at is None)
            if seated > kind.max_players:
                raise UserError(
                    "error.game_too_many",
                    game=Phrase(f"game.{kind.key}"),
                    min=kind.min_players,
                    max=kind.max_players,
                    seated=seated,
                )
            try:
                async with shared.db.write() as unit:
                    await unit.games.update_rules(
                        record.id,
                        lambda rules: (
                            rules if game_of(rules) == kind.key else RuleSet.preset(kind.preset)
                        ),
                    )
                    record = await unit.games.get(record.id)
            except WrongStatus:
                raise UserError("error.already_started") from None
            await respond(interaction, shared.lobby_message(record), edit=True)

    @answers_in_time()
    async def set_match_target(
        self, interaction: Interaction, record: GameRecord, choice: str
    ) -> None:
        """The host picks the match target in the lobby's select (the caller checked this
        channel and the lobby status; the choice is user input, so only the offered ones or
        the one already set pass)."""
        if interaction.user.id != record.host_id:
            raise UserError("error.host_only")
        if choice not in LOBBY_TARGETS and choice != match_target(record.rules):
            raise UserError(
                "error.bad_choice",
                option="target",
                value=choice[:50],
                allowed=", ".join(LOBBY_TARGETS),
            )
        shared = self.shared
        async with shared.lock(record.channel_id):
            try:
                async with shared.db.write() as unit:
                    await unit.games.update_rules(
                        record.id, lambda rules: with_match_target(rules, choice)
                    )
                    record = await unit.games.get(record.id)
            except WrongStatus:
                raise UserError("error.already_started") from None
            except InvalidRules as exc:
                raise rules_error(exc) from None
            await respond(interaction, shared.lobby_message(record), edit=True)


def _within_game(change: Callable[[RuleSet], RuleSet], rules: RuleSet) -> RuleSet:
    """`change` applied, refused (a UserError) if it would leave the rules' game or set an
    option that means nothing in it (bot/engine/game_kinds.py)."""
    changed = change(rules)
    game = game_of(rules)
    if game_of(changed) != game:
        raise UserError("error.deck_other_game", game=Phrase(f"game.{game_of(changed)}"))
    before = rules.to_dict()
    for option, value in changed.to_dict().items():
        if value != before[option] and option in unused_options(game):
            raise UserError(
                "error.option_unused",
                option=Phrase(f"rules.option.{option}"),
                game=Phrase(f"game.{game}"),
            )
    return changed
