"""The game service: one place where clicks and commands become saved engine actions.

Per channel, a lock serialises everything: load the live game (cache, else the database
snapshot), check the click is not stale, `Game.apply`, save the snapshot, the action log, the
leaderboard counters and any round/match result in one transaction, and only then answer the
interaction. Public side effects (the table, round results) follow, coalesced by TableUpdater.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.engine import (
    Action,
    Catch,
    ChooseColor,
    Color,
    Game,
    GameError,
    InvalidRules,
    NextRound,
    Play,
    RuleSet,
    parse_action,
)
from bot.engine import events as E
from bot.i18n import resolve_locale, t
from bot.store import (
    UNCHANGED,
    AlreadySeated,
    ChannelBusy,
    Database,
    GameNotFound,
    GameRecord,
    GameStatus,
    NewAction,
    NotSeated,
    StaleVersion,
    StartPolicy,
    StorageUnavailable,
    TableFull,
    WrongStatus,
)
from bot.ui.cards import card_text, hand_summary
from bot.ui.errors import UserError, game_error_text
from bot.ui.hand import render_hand
from bot.ui.items import Click
from bot.ui.log import describe
from bot.ui.rule_options import parse_value
from bot.ui.rules_text import render_rules
from bot.ui.table import is_computer, render_lobby, render_round_result, render_table
from cogs.uno.autoplay import Autoplay, computer_name
from cogs.uno.config_panel import ConfigPanel, lobby_panel
from cogs.uno.deadline import answers_in_time, respond, settle
from cogs.uno.live import LiveGame, stat_counters
from cogs.uno.tables import TableUpdater

log = logging.getLogger(__name__)

MIN_SEATS, MAX_SEATS = 2, 10


def _display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:100]


def _can_manage(interaction: discord.Interaction[Any]) -> bool:
    return interaction.permissions.manage_guild


def _test_deal(channel_id: int, game_id: int, players: list[int]) -> dict[str, Any]:
    """Test-only hooks (never set in production): a fixed seed and/or round-1 deck."""
    options: dict[str, Any] = {}
    seed = os.environ.get("UNO_TEST_SEED")
    if seed:
        options["seed"] = int(seed) + game_id
    path = os.environ.get("UNO_TEST_DECKS")
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            spec = json.load(fh).get(str(channel_id))
        if spec:
            from bot.engine import parse_cards

            if "seed" in spec:
                options["seed"] = spec["seed"]
            if "deck" in spec:
                options["deck"] = parse_cards(spec["deck"])
            if "rules" in spec:
                options["rules"] = spec["rules"]
            if "dealer_seat" in spec:
                options["dealer"] = players[spec["dealer_seat"] % len(players)]
    return options


class GameService:
    def __init__(self, bot: Any, database: Database) -> None:
        self.bot = bot
        self.db = database
        self.live: dict[int, LiveGame] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._loading: dict[int, asyncio.Lock] = {}
        self._languages: dict[int, str] = {}
        self.tables = TableUpdater(bot, self._render_table_job, self._table_posted)
        self.autoplay = Autoplay(self)
        self.config = ConfigPanel(self)

    # ------------------------------------------------------------------ plumbing

    def lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def public_locale(self, guild_id: int | None) -> str:
        return resolve_locale(self._languages.get(guild_id or 0, "en"))

    async def _remember_language(self, guild_id: int) -> None:
        if guild_id not in self._languages or guild_id not in self.autoplay.turn_seconds:
            async with self.db.read() as unit:
                config = await unit.settings.guild(guild_id)
            self._languages[guild_id] = config.language
            self.autoplay.turn_seconds[guild_id] = config.turn_timeout_seconds

    def settings_changed(self, guild_id: int) -> None:
        """Forget a server's cached settings (the admin changed them)."""
        self._languages.pop(guild_id, None)
        self.autoplay.turn_seconds.pop(guild_id, None)

    async def _record(self, game_id: int) -> GameRecord:
        try:
            async with self.db.read() as unit:
                return await unit.games.get(game_id)
        except GameNotFound:
            raise UserError("error.game_not_found") from None

    async def channel_game(self, channel_id: int) -> GameRecord:
        """The channel's open game (lobby or running), or a UserError."""
        async with self.db.read() as unit:
            record = await unit.games.open_game_in(channel_id)
        if record is None:
            raise UserError("error.no_game_here")
        return record

    async def get_live(self, game_id: int) -> LiveGame:
        """The running game from the cache, or loaded from its snapshot."""
        live = self.live.get(game_id)
        if live is not None:
            return live
        try:
            async with self.db.read() as unit:
                saved = await unit.games.load(game_id)
        except GameNotFound:
            raise UserError("error.game_not_found") from None
        except WrongStatus:
            raise UserError("error.game_not_started") from None
        if saved.game.status is not GameStatus.RUNNING:
            raise UserError("error.game_ended")
        live = self.live.get(game_id)  # loaded meanwhile by another task
        if live is None:
            live = LiveGame.from_record(saved.game, Game.from_dict(saved.state))
            self.live[game_id] = live
            await self._remember_language(live.guild_id)
        return live

    def forget(self, game_id: int) -> None:
        self.live.pop(game_id, None)

    def _render_table_job(self, game_id: int) -> Any:
        live = self.live.get(game_id)
        if live is None:
            return None
        locale = self.public_locale(live.guild_id)
        kwargs = render_table(live.game, game_id, live.names, locale, log=list(live.log))
        return live.channel_id, live.table_message_id, kwargs

    async def _table_posted(self, game_id: int, message_id: int) -> None:
        live = self.live.get(game_id)
        if live is not None:
            live.table_message_id = message_id
        async with self.db.write() as unit:
            await unit.games.set_table_message(game_id, message_id)

    async def _edit_public(self, channel_id: int, message_id: int | None, **kwargs: Any) -> None:
        if message_id is None:
            return
        try:
            channel = self.bot.get_partial_messageable(channel_id)
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException:
            log.info("could not edit message %s in %s", message_id, channel_id, exc_info=True)

    async def _send_public(self, channel_id: int, **kwargs: Any) -> discord.Message | None:
        try:
            return await self.bot.get_partial_messageable(channel_id).send(**kwargs)
        except discord.HTTPException:
            log.warning("could not post in channel %s", channel_id, exc_info=True)
            return None

    # ------------------------------------------------------------------ clicks

    @answers_in_time()
    async def handle_click(self, interaction: discord.Interaction[Any], click: Click) -> None:
        """Route a click; its custom_id is user input, so every path re-checks what it says:
        the game must be this channel's, and a hand's own buttons only edit the clicker's hand."""
        try:
            if click.kind == "hand":
                await self.show_hand(interaction, click.game_id)
            elif click.kind == "lobby":
                await self.lobby_click(interaction, click.game_id, click.action)
            elif click.kind == "config":
                await self.config.handle(interaction, click)
            elif click.action.startswith("page:") or click.action == "refresh":
                if not self._from_own_hand(interaction):
                    raise UserError("error.not_your_hand")
                page = int(click.action.split(":")[1]) if ":" in click.action else 0
                if page >= 998:
                    page = 0
                await self.show_hand(interaction, click.game_id, page=page, edit=True)
            else:
                await self.act(
                    interaction,
                    click.game_id,
                    click.action,
                    version=click.version,
                    edit=self._from_own_hand(interaction),
                )
        except UserError as error:
            await self.reply_error(interaction, t(error.key, interaction.locale, **error.params))
        except StorageUnavailable:  # the store logged it once; the live game was forgotten
            await self.reply_error(interaction, t("error.cannot_save", interaction.locale))

    @staticmethod
    def _from_own_hand(interaction: discord.Interaction[Any]) -> bool:
        """Whether the click came from a private message shown to the clicker (their hand)."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return False
        metadata = message.interaction_metadata
        return metadata is None or metadata.user.id == interaction.user.id

    @staticmethod
    def require_channel(interaction: discord.Interaction[Any], channel_id: int) -> None:
        """A click or command acts only on the game of the channel it was made in (and so of
        that channel's server, whose permissions are the ones that count)."""
        if interaction.channel_id != channel_id:
            raise UserError("error.other_channel")

    async def reply_error(self, interaction: discord.Interaction[Any], text: str) -> None:
        from bot.ui.errors import send_ephemeral

        await settle(interaction)  # a deferral in flight: the error follows it up
        await send_ephemeral(interaction, text)

    # ------------------------------------------------------------------ hands

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        *,
        page: int = 0,
        edit: bool = False,
        notice: str | None = None,
    ) -> None:
        live = await self.get_live(game_id)
        self.require_channel(interaction, live.channel_id)
        user = interaction.user.id
        if user not in live.game.players:
            raise UserError("error.not_a_player")
        if user in live.game.left:
            raise UserError("error.you_left")
        kwargs = render_hand(
            live.game,
            game_id,
            user,
            live.names,
            interaction.locale,
            page=page,
            notice=notice,
            host_id=self._host_for_next(live),
        )
        await respond(interaction, edit=edit, **({} if edit else {"ephemeral": True}), **kwargs)

    @staticmethod
    def _host_for_next(live: LiveGame) -> int | None:
        """Who may start the next round: the host, or anyone once the host has left."""
        return live.host_id if live.host_present else None

    # ------------------------------------------------------------------ actions

    def _resolve(self, live: LiveGame, user: int, text: str) -> Action:
        game = live.game
        if text == "catch":
            targets = [p for p in game.at_risk if p != user]
            if not targets:
                raise UserError("error.catch_nobody_here")
            return Catch(targets[0])
        if text == "next":
            if live.host_present and user != live.host_id:
                raise UserError("error.host_only_next", host=live.names.get(live.host_id, "?"))
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
        user = interaction.user.id
        locale = interaction.locale
        if game_id is None:
            game_id = (await self.channel_game(interaction.channel_id or 0)).id
        texts = [text] if isinstance(text, str) else list(text)
        live = await self.get_live(game_id)
        self.require_channel(interaction, live.channel_id)
        async with self.lock(live.channel_id):
            live = await self.get_live(game_id)  # it may have ended while we waited
            game = live.game
            if user not in game.players:
                raise UserError("error.not_a_player")

            def hand_with(notice: str) -> dict[str, Any]:
                return render_hand(
                    game,
                    game_id,
                    user,
                    live.names,
                    locale,
                    notice=notice,
                    host_id=self._host_for_next(live),
                )

            if version is not None and live.is_stale(user, version):
                await self._answer(interaction, hand_with(t("notice.stale", locale)), edit)
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
                    await respond(interaction, edit=True, **hand_with(f"⚠️ {error}"))
                else:
                    await self.reply_error(interaction, error or "?")
                return
            live.acted(user, events)
            await self._save(live, before, user, applied, events)
            notice = self._notice(live, user, applied, events, locale)
            if error:
                notice += f"\n⚠️ {error}"
            kwargs = hand_with(notice)
        await self._answer(interaction, kwargs, edit)
        await self._after(live, events)

    async def _answer(
        self, interaction: discord.Interaction[Any], kwargs: dict[str, Any], edit: bool
    ) -> None:
        if edit:
            await respond(interaction, edit=True, **kwargs)
        else:
            await respond(interaction, ephemeral=True, **kwargs)

    async def _save(
        self,
        live: LiveGame,
        before: int,
        user: int | None,
        applied: list[Action],
        events: list[E.Event],
        *,
        unseat: int | None = None,
        kicked: bool = False,
        timer_actor: int | None = None,
        timeouts: dict[int, int] | None = None,
    ) -> None:
        game = live.game
        timeouts = dict(timeouts or {})
        if user is not None and live.timeouts.get(user):
            live.timeouts[user] = 0  # acting in time ends a run of timeouts
            timeouts[user] = 0
        changed, deadline = self.autoplay.next_deadline(
            live, timer_actor if timer_actor is not None else user
        )
        records = [
            NewAction(version=before + i + 1, action=a.code, actor_id=user)
            for i, a in enumerate(applied)
        ]
        counters = stat_counters(events)
        try:
            async with self.db.write() as unit:
                await unit.games.save_action(
                    live.game_id,
                    expected_version=before,
                    state=game.to_dict(),
                    actions=records,
                    turn_deadline=deadline if changed else UNCHANGED,
                )
                if timeouts:
                    await unit.games.set_timeouts(live.game_id, timeouts)
                if unseat is not None:
                    await unit.games.unseat(live.game_id, unseat, kicked=kicked)
                if counters:
                    await unit.stats.add_counters(live.game_id, counters)
                for e in events:
                    if isinstance(e, E.RoundEnded):
                        o = e.outcome
                        await unit.games.finish_round(
                            live.game_id, o.round_number, winner_id=o.winner, points=o.points
                        )
                    elif isinstance(e, E.MatchEnded):
                        winners = e.outcome.winners
                        await unit.games.finish(
                            live.game_id,
                            winner_id=winners[0] if len(winners) == 1 else None,
                            walkover=any(isinstance(x, E.PlayerLeft) for x in events),
                        )
        except (StaleVersion, WrongStatus, GameNotFound, NotSeated):
            self.forget(live.game_id)
            raise UserError("error.conflict") from None
        except Exception:
            self.forget(live.game_id)
            raise
        live.deadline = deadline
        live.turn_key = (game.current_player, game.round_number)

    async def save_moves(
        self,
        live: LiveGame,
        before: int,
        user: int | None,
        applied: list[Action],
        events: list[E.Event],
        **kwargs: Any,
    ) -> None:
        """Save moves made without a click (a timer, a computer player); the lock is held."""
        try:
            await self._save(live, before, user, applied, events, **kwargs)
        except UserError:
            log.info("an automatic move in game %s lost a race; reloaded", live.game_id)
        except StorageUnavailable:
            pass  # logged once by the store; the game is reloaded once saving works again

    async def after_moves(self, live: LiveGame, events: list[E.Event]) -> None:
        if self.live.get(live.game_id) is live:
            await self._after(live, events)

    def _notice(
        self,
        live: LiveGame,
        user: int,
        applied: list[Action],
        events: list[E.Event],
        locale: object,
    ) -> str:
        """What the acting player is told, including what only they may see."""
        lines: list[str] = []
        for e in events:
            if isinstance(e, E.CardsDrawn) and e.player == user and e.cards:
                lines.append(
                    t("notice.you_drew", locale, cards=hand_summary(list(e.cards), locale))
                )
            elif isinstance(e, E.ChallengeResolved) and e.challenger == user:
                key = "notice.challenge_won" if e.guilty else "notice.challenge_lost"
                lines.append(
                    t(
                        key,
                        locale,
                        name=live.names.get(e.offender, "?"),
                        cards=hand_summary(list(e.revealed_hand), locale),
                    )
                )
            elif isinstance(e, E.CardPlayed) and e.player == user:
                lines.append(t("notice.you_played", locale, card=card_text(e.card, locale)))
            else:
                line = describe(e, live.names, locale)
                if line:
                    lines.append(line)
        return "\n".join(lines[-8:])

    async def _after(self, live: LiveGame, events: list[E.Event]) -> None:
        """Public consequences of an action: log lines, results, the table."""
        locale = self.public_locale(live.guild_id)
        for e in events:
            line = describe(e, live.names, locale)
            if line:
                live.log.append(line)
        repost = False
        for e in events:
            if isinstance(e, E.RoundEnded):
                match = live.game.outcome
                embed = render_round_result(
                    e.outcome,
                    live.names,
                    locale,
                    match=match,
                    host_id=None if match else self._host_for_next(live),
                )
                await self._send_public(live.channel_id, embed=embed)
            elif isinstance(e, E.RoundStarted) and e.round_number > 1:
                repost = True
        self.tables.request(live.game_id, repost=repost)
        if live.game.outcome is not None:
            await self.tables.flush(live.game_id)
            self.forget(live.game_id)
        elif live.levels and not live.humans:
            await self._abandon_without_humans(live)
        self.autoplay.after_change(live)

    async def _abandon_without_humans(self, live: LiveGame) -> None:
        """Computer players do not play on among themselves: the game ends, uncounted."""
        async with self.lock(live.channel_id):
            async with self.db.write() as unit:
                done = await unit.games.abandon(live.game_id)
            self.live.pop(live.game_id, None)
        if done:
            await self.tables.flush(live.game_id)
            locale = self.public_locale(live.guild_id)
            kwargs = render_table(
                live.game,
                live.game_id,
                live.names,
                locale,
                log=list(live.log),
                closed=t("notice.no_humans_left", locale),
            )
            await self._edit_public(live.channel_id, live.table_message_id, **kwargs)

    # ------------------------------------------------------------------ lobby

    @answers_in_time(ephemeral=False)
    async def new_lobby(
        self,
        interaction: discord.Interaction[Any],
        *,
        preset: str | None,
        scoring: str | None,
        target: int | None,
    ) -> None:
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            raise UserError("error.guild_only")
        async with self.db.read() as unit:
            config = await unit.settings.guild(guild_id)
        self._languages[guild_id] = config.language
        self.autoplay.turn_seconds[guild_id] = config.turn_timeout_seconds
        rules = RuleSet.preset(preset) if preset else config.rules
        changes: dict[str, Any] = {}
        if scoring:
            changes["scoring"] = scoring
            if scoring != "penalty":
                changes["penalty_end"] = "lowest_wins"
        if target is not None:
            changes["target"] = target
        try:
            rules = rules.with_options(**changes)
        except InvalidRules as exc:
            raise UserError("error.bad_rules", option=exc.option, reason=exc.reason) from None
        user = interaction.user
        async with self.lock(channel_id):
            try:
                async with self.db.write() as unit:
                    record = await unit.games.open_lobby(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=user.id,
                        host_name=_display_name(user),
                        rules=rules,
                    )
            except ChannelBusy:
                raise UserError("error.channel_busy") from None
            kwargs = self._lobby_kwargs(record)
            response = await respond(interaction, **kwargs)
            message_id = getattr(response, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
            async with self.db.write() as unit:
                await unit.games.set_table_message(record.id, message_id)
        self.autoplay.arm_lobby(record.id, record.created_at)

    def _lobby_kwargs(self, record: GameRecord, *, closed: str | None = None) -> dict[str, Any]:
        locale = self.public_locale(record.guild_id)
        players = [(s.user_id, s.display_name) for s in record.seats if s.left_at is None]
        return render_lobby(record.id, record.host_id, players, record.rules, locale, closed=closed)

    async def lobby_click(
        self, interaction: discord.Interaction[Any], game_id: int, verb: str
    ) -> None:
        record = await self._record(game_id)
        self.require_channel(interaction, record.channel_id)
        if record.status is not GameStatus.LOBBY:
            if record.status is GameStatus.RUNNING:
                raise UserError("error.already_started")
            raise UserError("error.game_ended")
        if verb == "join":
            await self.join(interaction, record, edit=True)
        elif verb == "leave":
            await self.leave(interaction, record, edit=True)
        elif verb == "start":
            await self.start(interaction, record, edit=True)
        elif verb == "addbot":
            await self.add_computer(interaction, record, edit=True)
        elif verb == "rules":
            await self.show_lobby_rules(interaction, record)
        else:
            await self.end(interaction, record, edit=True)

    @answers_in_time()
    async def join(
        self, interaction: discord.Interaction[Any], record: GameRecord, *, edit: bool = False
    ) -> None:
        if record.status is not GameStatus.LOBBY:
            raise UserError("error.already_started")
        user = interaction.user
        async with self.lock(record.channel_id):
            try:
                async with self.db.write() as unit:
                    await unit.games.seat(
                        record.id, user.id, _display_name(user), max_seats=MAX_SEATS
                    )
                    record = await unit.games.get(record.id)
            except AlreadySeated:
                raise UserError("error.already_joined") from None
            except TableFull:
                raise UserError("error.table_full", max=MAX_SEATS) from None
            except WrongStatus:
                raise UserError("error.already_started") from None
            await self._lobby_answer(interaction, record, edit, "notice.joined")

    async def _lobby_answer(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        edit: bool,
        key: str,
        **params: Any,
    ) -> None:
        closed = (
            None
            if record.status is GameStatus.LOBBY
            else t(key, self.public_locale(record.guild_id), **params)
        )
        kwargs = self._lobby_kwargs(record, closed=closed)
        if edit:
            await respond(interaction, edit=True, **kwargs)
        else:
            await respond(interaction, content=t(key, interaction.locale, **params), ephemeral=True)
            await self._edit_public(record.channel_id, record.table_message_id, **kwargs)

    @answers_in_time()
    async def leave(
        self, interaction: discord.Interaction[Any], record: GameRecord, *, edit: bool = False
    ) -> None:
        user = interaction.user.id
        if record.status is GameStatus.RUNNING:
            await self.remove_player(interaction, record, user)
            return
        if record.seat_of(user) is None:
            raise UserError("error.not_a_player")
        if user == record.host_id:
            await self.end(interaction, record, edit=edit, reason="notice.host_left")
            return
        async with self.lock(record.channel_id):
            try:
                async with self.db.write() as unit:
                    await unit.games.unseat(record.id, user)
                    record = await unit.games.get(record.id)
            except (NotSeated, WrongStatus):
                raise UserError("error.not_a_player") from None
            await self._lobby_answer(interaction, record, edit, "notice.left")

    @answers_in_time()
    async def kick(
        self, interaction: discord.Interaction[Any], record: GameRecord, target: int
    ) -> None:
        if interaction.user.id != record.host_id:
            raise UserError("error.host_only")
        if target == record.host_id:
            raise UserError("error.kick_self")
        if record.seat_of(target) is None:
            raise UserError("error.target_not_player")
        if record.status is GameStatus.RUNNING:
            await self.remove_player(interaction, record, target, kicked=True)
            return
        async with self.lock(record.channel_id):
            try:
                async with self.db.write() as unit:
                    await unit.games.unseat(record.id, target)
                    record = await unit.games.get(record.id)
            except (NotSeated, WrongStatus):
                raise UserError("error.target_not_player") from None
            name = next((s.display_name for s in record.seats if s.user_id == target), str(target))
            await self._lobby_answer(
                interaction, record, False, "notice.kicked", name=f"<@{target}>"
            )
            del name

    async def remove_player(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        player: int,
        *,
        kicked: bool = False,
    ) -> None:
        """A player leaves (or is kicked from) a running game: the engine's Leave, saved."""
        from bot.engine import Leave

        live = await self.get_live(record.id)
        async with self.lock(live.channel_id):
            live = await self.get_live(record.id)
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
            await self._save(
                live, before, interaction.user.id, [Leave()], events, unseat=player, kicked=kicked
            )
        key = "notice.kicked" if kicked else "notice.you_left"
        await respond(
            interaction,
            content=t(key, interaction.locale, name=live.names.get(player, "?")),
            ephemeral=True,
        )
        await self._after(live, events)

    @answers_in_time()
    async def start(
        self, interaction: discord.Interaction[Any], record: GameRecord, *, edit: bool = False
    ) -> None:
        user = interaction.user.id
        if user != record.host_id:
            async with self.db.read() as unit:
                policy = (await unit.settings.guild(record.guild_id)).start_policy
            if policy is not StartPolicy.ANYONE:
                raise UserError("error.host_only")
            if record.seat_of(user) is None:
                raise UserError("error.not_a_player")
        async with self.lock(record.channel_id):
            record = await self._record(record.id)
            if record.status is not GameStatus.LOBBY:
                raise UserError("error.already_started")
            players = [s.user_id for s in record.seats if s.left_at is None]
            if not MIN_SEATS <= len(players) <= MAX_SEATS:
                raise UserError("error.need_players", min=MIN_SEATS, max=MAX_SEATS)
            if all(is_computer(p) for p in players):
                raise UserError("error.need_human")
            try:
                options = _test_deal(record.channel_id, record.id, players)
                rules = record.rules.with_options(**options.pop("rules", {}))
                game, events = Game.start(players, rules, **options)
            except InvalidRules as exc:
                raise UserError("error.bad_rules", option=exc.option, reason=exc.reason) from None
            await self._remember_language(record.guild_id)
            live = LiveGame.from_record(record, game)
            live.turn_key = None
            _, deadline = self.autoplay.next_deadline(live, None)
            try:
                async with self.db.write() as unit:
                    record = await unit.games.start(
                        record.id,
                        state=game.to_dict(),
                        version=game.version,
                        actor_id=interaction.user.id,
                        turn_deadline=deadline,
                    )
            except WrongStatus:
                raise UserError("error.already_started") from None
            live = LiveGame.from_record(record, game)
            self.live[record.id] = live
            self.autoplay.lobby_gone(record.id)
            locale = self.public_locale(record.guild_id)
            for e in events:
                line = describe(e, live.names, locale)
                if line:
                    live.log.append(line)
            kwargs = render_table(game, record.id, live.names, locale, log=list(live.log))
        if edit:
            await respond(interaction, edit=True, **kwargs)
        else:
            await respond(
                interaction, content=t("notice.started", interaction.locale), ephemeral=True
            )
            self.tables.request(record.id)
        self.autoplay.after_change(live)

    @answers_in_time(ephemeral=False)
    async def end(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        *,
        edit: bool = False,
        reason: str = "notice.ended",
    ) -> None:
        """Host or Manage Server: the game is abandoned, nothing is counted."""
        user = interaction.user.id
        if user != record.host_id and not _can_manage(interaction):
            raise UserError("error.host_or_manager")
        async with self.lock(record.channel_id):
            async with self.db.write() as unit:
                done = await unit.games.abandon(record.id)
                record = await unit.games.get(record.id)
            if not done:
                raise UserError("error.game_ended")
            live = self.live.pop(record.id, None)
            self.autoplay.lobby_gone(record.id)
            if live is not None:
                self.autoplay.after_change(live)  # the game is gone: cancels its timers
            locale = self.public_locale(record.guild_id)
            closed = t(reason, locale, name=f"<@{user}>")
            if live is not None:
                kwargs = render_table(
                    live.game, record.id, live.names, locale, log=list(live.log), closed=closed
                )
                message_id = live.table_message_id
            else:
                kwargs = self._lobby_kwargs(record, closed=closed)
                message_id = record.table_message_id
        if edit:
            await respond(interaction, edit=True, **kwargs)
        else:
            await respond(interaction, content=closed)
            await self._edit_public(record.channel_id, message_id, **kwargs)

    async def repost_table(self, interaction: discord.Interaction[Any]) -> None:
        record = await self.channel_game(interaction.channel_id or 0)
        if record.status is GameStatus.LOBBY:
            kwargs = self._lobby_kwargs(record)
            response = await interaction.response.send_message(**kwargs)
            message_id = (
                getattr(response, "message_id", None) or (await interaction.original_response()).id
            )
            async with self.db.write() as unit:
                await unit.games.set_table_message(record.id, message_id)
            await self._edit_public(record.channel_id, record.table_message_id, view=None)
            return
        live = await self.get_live(record.id)
        async with self.lock(live.channel_id):
            locale = self.public_locale(live.guild_id)
            kwargs = render_table(live.game, live.game_id, live.names, locale, log=list(live.log))
            response = await interaction.response.send_message(**kwargs)
            old = live.table_message_id
            message_id = (
                getattr(response, "message_id", None) or (await interaction.original_response()).id
            )
            await self._table_posted(live.game_id, message_id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await (
                    self.bot.get_partial_messageable(live.channel_id)
                    .get_partial_message(old)
                    .delete()
                )

    # ------------------------------------------------------------------ computers and rules

    @answers_in_time()
    async def add_computer(
        self,
        interaction: discord.Interaction[Any],
        record: GameRecord,
        *,
        level: str = "normal",
        edit: bool = False,
    ) -> None:
        """The host seats an engine AI ("🤖 Ada (hard)") with a negative, never-Discord id."""
        if interaction.user.id != record.host_id:
            raise UserError("error.host_only")
        async with self.lock(record.channel_id):
            record = await self._record(record.id)
            if record.status is not GameStatus.LOBBY:
                raise UserError("error.already_started")
            computers = [s for s in record.seats if s.is_bot]
            player = min((s.user_id for s in computers), default=0) - 1
            name = computer_name(
                [s.display_name for s in computers], level, self.public_locale(record.guild_id)
            )
            try:
                async with self.db.write() as unit:
                    await unit.games.seat(
                        record.id, player, name, is_bot=True, bot_level=level, max_seats=MAX_SEATS
                    )
                    record = await unit.games.get(record.id)
            except TableFull:
                raise UserError("error.table_full", max=MAX_SEATS) from None
            except WrongStatus:
                raise UserError("error.already_started") from None
            await self._lobby_answer(interaction, record, edit, "notice.computer_added", name=name)

    async def show_lobby_rules(
        self, interaction: discord.Interaction[Any], record: GameRecord
    ) -> None:
        """The rules of this game; for the host, with the selects that change them."""
        locale = interaction.locale
        if interaction.user.id == record.host_id:
            kwargs = lobby_panel(
                record.id, record.rules, locale, notice=t("lobby.rules_host", locale)
            )
            await respond(interaction, ephemeral=True, **kwargs)
            return
        await respond(
            interaction,
            content=t("lobby.rules_hint", locale),
            embed=render_rules(record.rules, locale),
            ephemeral=True,
        )

    async def save_lobby_rules(
        self,
        record: GameRecord,
        change: Callable[[RuleSet], RuleSet],
        answer: Callable[[RuleSet], Awaitable[Any]],
    ) -> None:
        """Apply `change` to the lobby's stored rules in one atomic write (InvalidRules from it
        stores nothing and propagates), then `answer` the click with the rules as stored, then
        show them in the public lobby (the answer must not wait for that edit)."""
        async with self.lock(record.channel_id):
            try:
                async with self.db.write() as unit:
                    rules = await unit.games.update_rules(record.id, change)
                    record = await unit.games.get(record.id)
            except WrongStatus:
                raise UserError("error.already_started") from None
            await answer(rules)
            kwargs = self._lobby_kwargs(record)
            await self._edit_public(record.channel_id, record.table_message_id, **kwargs)

    @answers_in_time()
    async def set_lobby_rule(
        self, interaction: discord.Interaction[Any], option: str, value: str
    ) -> None:
        """The host changes one rule of this game before Start (validated by the engine)."""
        record = await self.channel_game(interaction.channel_id or 0)
        if record.status is not GameStatus.LOBBY:
            raise UserError("error.already_started")
        if interaction.user.id != record.host_id:
            raise UserError("error.host_only")
        text = t("notice.rule_set", interaction.locale)
        try:
            await self.save_lobby_rules(
                record,
                lambda rules: rules.with_options(**{option: parse_value(option, value)}),
                lambda _: respond(interaction, content=text, ephemeral=True),
            )
        except InvalidRules as exc:
            raise UserError("error.bad_rules", option=exc.option, reason=exc.reason) from None

    async def expire_lobby(self, game_id: int) -> None:
        """A lobby nobody started closes itself."""
        try:
            record = await self._record(game_id)
        except UserError:
            return
        async with self.lock(record.channel_id):
            record = await self._record(game_id)  # it may have started while we waited
            if record.status is not GameStatus.LOBBY:
                return
            async with self.db.write() as unit:
                done = await unit.games.abandon(game_id)
                record = await unit.games.get(game_id)
        if done:
            closed = t("notice.lobby_expired", self.public_locale(record.guild_id))
            kwargs = self._lobby_kwargs(record, closed=closed)
            await self._edit_public(record.channel_id, record.table_message_id, **kwargs)

    # ------------------------------------------------------------------ helpers for commands

    def legal_cards(self, game_id: int, user: int) -> list[Action]:
        live = self.live.get(game_id)
        if live is None:
            return []
        return [a for a in live.game.legal_actions(user) if isinstance(a, Play)]

    @staticmethod
    def play_texts(code: str, color: str | None) -> list[str]:
        texts = [f"play:{code}"]
        if color:
            texts.append(ChooseColor(Color(color)).code)
        return texts
