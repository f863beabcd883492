"""Moves in a running game: a click or command becomes a saved engine action, then an answer.

Under the channel's lock: load the live game, check the click is not stale, `Game.apply`, save
(saving.py), and only then answer with the player's fresh hand; the public side follows
(results.py). A player leaving or kicked from a running game is the engine's Leave, saved alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.engine import Action, Catch, ChooseColor, Color, GameError, Leave, NextRound, parse_action
from bot.engine import events as E
from bot.i18n import t
from bot.store import GameRecord
from bot.ui.errors import UserError, game_error_text
from bot.ui.names import literal
from bot.ui.story import personal_notice
from cogs.uno.deadline import answers_in_time, reply_error, respond
from cogs.uno.hands import HandQuiet, HandShown, hand_kwargs, no_hand_kept, nothing_in_flight
from cogs.uno.house import House
from cogs.uno.live import LiveGame
from cogs.uno.pictures import attach, images_on
from cogs.uno.results import Results
from cogs.uno.saving import Saving


def play_texts(code: str, color: str | None) -> list[str]:
    """The actions of `/uno play`: the card, then its colour if one was given."""
    texts = [f"play:{code}"]
    if color:
        texts.append(ChooseColor(Color(color)).code)
    return texts


class Moves:
    def __init__(
        self,
        house: House,
        saving: Saving,
        results: Results,
        shown: HandShown = no_hand_kept,
        quiet: HandQuiet = nothing_in_flight,
    ) -> None:
        self.house = house
        self.saving = saving
        self.results = results
        self.shown = shown  # every answer with a hand becomes the player's live hand
        self.quiet = quiet  # ...and must not be overtaken by an older edit of it

    def _resolve(self, live: LiveGame, user: int, text: str) -> Action:
        game = live.game
        if text == "catch":
            targets = [p for p in game.at_risk if p != user]
            if not targets:
                raise UserError("error.catch_nobody_here")
            return Catch(targets[0])
        if text == "next":
            if live.host_present and user != live.host_id:
                raise UserError(
                    "error.host_only_next", host=literal(live.names.get(live.host_id, "?"))
                )
            return NextRound()
        try:
            return parse_action(text)
        except ValueError:
            raise UserError("error.unknown_action") from None

    @answers_in_time()
    async def act(
        self,
        interaction: discord.Interaction[Any],
        game_id: int | None,
        text: str | Sequence[str],
        *,
        version: int | None = None,
        edit: bool = False,
    ) -> None:
        """Apply what a user clicked or typed, save it, then answer with their fresh hand."""
        house = self.house
        user = interaction.user.id
        locale = interaction.locale
        if game_id is None:
            game_id = (await house.channel_game(interaction.channel_id or 0)).id
        texts = [text] if isinstance(text, str) else list(text)
        live = await house.get_live(game_id)
        house.require_channel(interaction, live.channel_id)
        async with house.lock(live.channel_id):
            live = await house.get_live(game_id)  # it may have ended while we waited
            game = live.game
            if user not in game.players:
                raise UserError("error.not_a_player")

            def hand_with(notice: str) -> dict[str, Any]:
                pictures = images_on(house, live.guild_id)
                return hand_kwargs(live, user, locale, notice=notice, pictures=pictures)

            if version is not None and live.is_stale(user, version):
                stale = hand_with(t("notice.stale", locale))
                await self._answer(interaction, stale, edit, game_id)
                self.shown(interaction, live, user)
                return
            before = game.version
            applied: list[Action] = []
            events: list[E.Event] = []
            error: str | None = None
            for item in texts:
                try:
                    action = self._resolve(live, user, item)
                    events += game.apply(user, action)
                    applied.append(action)
                except GameError as exc:
                    error = game_error_text(exc, locale, live.names)
                    break
            if not applied:
                if edit:
                    await self._answer(interaction, hand_with(f"⚠️ {error}"), True, game_id)
                    self.shown(interaction, live, user)
                else:
                    await reply_error(interaction, error or "?")
                return
            live.acted(user, events)
            await self.saving.save(live, before, user, applied, events)
            notice = personal_notice(events, user, live.names, locale)
            if error:
                notice += f"\n⚠️ {error}"
            kwargs = hand_with(notice)
        await self._answer(interaction, kwargs, edit, game_id)
        if user in game.players and user not in game.left:
            self.shown(interaction, live, user)
        await self.results.after(live, events)

    async def _answer(
        self, interaction: discord.Interaction[Any], kwargs: dict[str, Any], edit: bool, game: int
    ) -> None:
        kwargs = await attach(kwargs, edit=edit)  # the hand's picture, drawn off the loop
        await self.quiet(game, interaction.user.id)
        if edit:
            await respond(interaction, edit=True, **kwargs)
        else:
            await respond(interaction, ephemeral=True, **kwargs)

    async def remove_player(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        player: int,
        *,
        kicked: bool = False,
    ) -> None:
        """A player leaves (or is kicked from) a running game: the engine's Leave, saved."""
        house = self.house
        live = await house.get_live(record.id)
        async with house.lock(live.channel_id):
            live = await house.get_live(record.id)
            game = live.game
            if player not in game.players or player in game.left:
                raise UserError("error.target_not_player" if kicked else "error.not_a_player")
            before = game.version
            try:
                events = game.apply(player, Leave())
            except GameError as exc:
                raise UserError(
                    "error.engine", text=game_error_text(exc, interaction.locale)
                ) from None
            await self.saving.save(
                live, before, interaction.user.id, [Leave()], events, unseat=player, kicked=kicked
            )
        key = "notice.kicked" if kicked else "notice.you_left"
        await respond(
            interaction,
            content=t(key, interaction.locale, name=literal(live.names.get(player, "?"))),
            ephemeral=True,
        )
        await self.results.after(live, events)
