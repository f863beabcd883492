"""Moves in a running game: a click or command becomes a saved engine action, then an answer.

The move is committed through the game's owner (game/owner.py: checked against a stale click,
applied to a copy, saved, adopted), and only then does the player get their fresh hand; the
public side follows (`publish`). A player leaving or kicked from a running game is the engine's
Leave, committed alike.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import discord

from bot.engine import (
    Action,
    Catch,
    ChooseColor,
    Color,
    Game,
    GameError,
    Leave,
    NextRound,
    parse_action,
)
from bot.engine import events as E
from bot.host import Interaction
from bot.i18n import t
from bot.store import GameRecord, GameStatus
from bot.ui.errors import UserError, game_error_text
from bot.ui.names import literal
from bot.ui.outgoing import Outgoing
from bot.ui.story import personal_notice
from cogs.uno.answers import answers_in_time, past_window, reply_error, respond
from cogs.uno.game.clock import waited_deadline
from cogs.uno.game.hand_view import hand_message
from cogs.uno.game.live import LiveGame
from cogs.uno.game.owner import RunningGame
from cogs.uno.game.registry import RunningGames
from cogs.uno.game.saving import Change

log = logging.getLogger(__name__)

#: Discord's code for a message that is gone (here: a hand deleted while its click was answered).
UNKNOWN_MESSAGE = 10008


def play_texts(code: str, color: str | None) -> list[str]:
    """The actions of `/uno play`: the card, then its colour if one was given."""
    texts = [f"play:{code}"]
    if color:
        texts.append(ChooseColor(Color(color)).code)
    return texts


class _Stale(Exception):
    """The click was rendered before the clicker's own last action: answered with a fresh hand."""


class _TooLate(Exception):
    """The click reached its move after Discord had told the player it failed: not applied."""


class _Refused(Exception):
    """The engine refused the first action: nothing to save."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class Moves:
    def __init__(self, games: RunningGames) -> None:
        self.games = games
        self.shared = games.shared

    @staticmethod
    def _resolve(live: LiveGame, game: Game, user: int, text: str) -> Action:
        if text == "catch":
            targets = [p for p in game.at_risk if p != user]
            if not targets:
                raise UserError("error.catch_nobody_here")
            return Catch(targets[0])
        if text == "next":  # anyone at the table (nobody waits on an absent host)
            return NextRound()
        try:
            return parse_action(text)
        except ValueError:
            raise UserError("error.unknown_action") from None

    @answers_in_time()
    async def act(
        self,
        interaction: Interaction,
        game_id: int | None,
        text: str | Sequence[str],
        *,
        version: int | None = None,
        edit: bool = False,
    ) -> None:
        """Apply what a user clicked or typed, save it, then answer with their fresh hand."""
        shared = self.shared
        user = interaction.user.id
        locale = interaction.locale
        if game_id is None:
            game_id = (await shared.channel_game(interaction.channel_id or 0)).id
        texts = [text] if isinstance(text, str) else list(text)
        running = await self.games.get(game_id)
        live = running.live
        shared.require_channel(interaction, live.channel_id)
        error: str | None = None

        def plan(draft: Game) -> Change:
            nonlocal error
            if user not in draft.players:
                raise UserError("error.not_a_player")
            if past_window(interaction):  # (checked under the lock, right before the save)
                raise _TooLate
            if version is not None and live.is_stale(user, version):
                raise _Stale
            applied: list[Action] = []
            events: list[E.Event] = []
            for item in texts:
                try:
                    action = self._resolve(live, draft, user, item)
                    events += draft.apply(user, action)
                    applied.append(action)
                except GameError as exc:
                    error = game_error_text(exc, locale, live.names)
                    break
            if not applied:
                raise _Refused(error or "?")
            return Change(applied, events, actor=user)

        def hand_with(notice: str) -> Outgoing:
            pictures = shared.images_on(live.guild_id)
            return hand_message(live, user, locale, notice=notice, pictures=pictures)

        try:
            async with running.change(plan, via=interaction) as change:  # shown by the owner
                notice = personal_notice(change.events, user, live.names, locale)
                if error:
                    notice += f"\n⚠️ {error}"
                await self._answer_move(interaction, hand_with, notice, edit, running)
        except _TooLate:
            log.info("game %s: a click of %s came too late to answer; not applied", game_id, user)
        except _Stale:
            await self._answer(interaction, hand_with(t("notice.stale", locale)), edit, running)
        except _Refused as refused:
            if edit:
                await self._answer(interaction, hand_with(f"⚠️ {refused.text}"), True, running)
            else:
                await reply_error(interaction, refused.text)

    @answers_in_time()
    async def wait(self, interaction: Interaction, game_id: int, *, edit: bool = False) -> None:
        """Wait, in a round's break: the next round starts WAIT_SECONDS later (game/clock.py).
        Anyone seated may ask once per break; saved through the owner like any change (the
        deadline alone), then answered with the clicker's hand."""
        shared = self.shared
        user = interaction.user.id
        locale = interaction.locale
        running = await self.games.get(game_id)
        live = running.live
        shared.require_channel(interaction, live.channel_id)
        scale = shared.settings.uno_test_timer_scale

        def plan(draft: Game) -> Change:
            if user not in draft.players or user in draft.left:
                raise UserError("error.not_a_player")
            if not draft.round_over or draft.outcome is not None or live.deadline is None:
                raise UserError("error.break_over")
            if user in live.waited:
                raise UserError("error.already_waited")
            return Change([], [], actor=user, break_until=waited_deadline(live, scale))

        def hand_with(notice: str) -> Outgoing:
            pictures = shared.images_on(live.guild_id)
            return hand_message(live, user, locale, notice=notice, pictures=pictures)

        async with running.change(plan, via=interaction) as change:  # shown by the owner
            until = change.break_until
            when = discord.utils.format_dt(until, "R") if until is not None else "-"
            notice = t("notice.waited", locale, when=when)
            await self._answer_move(interaction, hand_with, notice, edit, running)

    async def leave(self, interaction: Interaction, game_id: int) -> None:
        """A hand's Leave (between rounds): the player leaves the running game, as with
        `/uno leave` (`remove_player`), in the game's own channel only."""
        record = await self.shared.record(game_id)
        self.shared.require_channel(interaction, record.channel_id)
        if record.status is not GameStatus.RUNNING:
            raise UserError("error.game_ended")
        await self.remove_player(interaction, record, interaction.user.id)

    async def _answer_move(
        self,
        interaction: Interaction,
        hand_with: Callable[[str], Outgoing],
        notice: str,
        edit: bool,
        running: RunningGame,
    ) -> None:
        """Answer a saved move with the player's fresh hand. The move stands whatever becomes of
        this answer, so its failure is logged once, without a traceback, and never raised: a
        clicked hand that was replaced meanwhile (404 Unknown Message: the player opened a new
        one while this click was on its way) is answered with a new hand instead."""
        try:
            try:
                await self._answer(interaction, hand_with(notice), edit, running)
            except discord.NotFound as gone:
                if not edit or gone.code != UNKNOWN_MESSAGE:
                    raise
                log.info(
                    "game %s: the hand %s clicked is gone; answered with a new one",
                    running.game_id,
                    interaction.user.id,
                )
                await self._answer(interaction, hand_with(notice), False, running)
        except (discord.HTTPException, TimeoutError, OSError) as exc:
            log.warning(
                "game %s: the answer to %s's saved move failed (%s); the game goes on",
                running.game_id,
                interaction.user.id,
                exc,
            )

    async def _answer(
        self,
        interaction: Interaction,
        hand: Outgoing,
        edit: bool,
        running: RunningGame,
    ) -> None:
        """Answer with the player's hand (no lock held: its picture may take a while), which
        then becomes their live hand, unless they are no longer in the game."""
        user = interaction.user.id
        hands = running.hands  # every answer with a hand becomes the player's live hand
        if edit and hands.replaced(interaction.message):
            edit = False  # the player opened a newer hand: this one is going; answer anew
        async with hands.answer(interaction, user, hand, edit=edit) as sent:
            await respond(interaction, sent, edit=edit, ephemeral=not edit)
            game = running.live.game
            if user in game.players and user not in game.left:
                hands.register(interaction, user, picture=sent.shown)

    async def remove_player(
        self,
        interaction: Interaction,
        record: GameRecord,
        player: int,
        *,
        kicked: bool = False,
    ) -> None:
        """A player leaves (or is kicked from) a running game: the engine's Leave, saved."""
        running = await self.games.get(record.id)

        def plan(draft: Game) -> Change:
            if player not in draft.players or player in draft.left:
                raise UserError("error.target_not_player" if kicked else "error.not_a_player")
            try:
                events = draft.apply(player, Leave())
            except GameError as exc:
                raise UserError(
                    "error.engine", text=game_error_text(exc, interaction.locale)
                ) from None
            return Change(
                [Leave()],
                events,
                actor=interaction.user.id,
                unseat=player,
                kicked=kicked,
                players=[player],
            )

        async with running.change(plan, via=interaction):  # shown by the owner, whatever the answer
            key = "notice.kicked" if kicked else "notice.you_left"
            text = t(key, interaction.locale, name=literal(running.live.names.get(player, "?")))
            try:
                await respond(interaction, Outgoing(content=text), ephemeral=True)
            except (discord.HTTPException, TimeoutError, OSError) as exc:
                log.warning("game %s: the answer to a leave failed (%s)", record.id, exc)
