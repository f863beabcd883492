"""A game before and at its start: opening a lobby, its buttons, who sits at the table (people
and computers), Start (the running game's owner takes over: game/owner.py), End, and a lobby
nobody started closing itself; `deal_options`: the test-only hooks that fix a deal's seed,
deck, rules or dealer.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import discord

from bot.engine import Game, InvalidRules, RuleSet, parse_cards
from bot.engine.ai import is_computer, next_computer_id
from bot.engine.game_kinds import CLASSIC, player_range
from bot.host import Interaction
from bot.i18n import Phrase, t
from bot.settings import Settings
from bot.store import (
    AlreadySeated,
    ChannelBusy,
    GameRecord,
    GameStatus,
    NotSeated,
    StartPolicy,
    TableFull,
    WrongStatus,
)
from bot.ui.errors import UserError
from bot.ui.outgoing import Outgoing
from bot.ui.rule_errors import rules_error
from bot.ui.table_message import bold_name
from cogs.uno.answers import answers_in_time, respond
from cogs.uno.delivery import ready
from cogs.uno.game.clock import Clock, next_deadline, now
from cogs.uno.game.computers import computer_name
from cogs.uno.game.hand_tokens import Token
from cogs.uno.game.live import LiveGame
from cogs.uno.game.moves import Moves
from cogs.uno.game.registry import RunningGames
from cogs.uno.game.table import table_message
from cogs.uno.lobby.rules import LobbyRules
from cogs.uno.shared import Shared


def seats_for(record: GameRecord) -> tuple[int, int]:
    """(fewest, most) players the lobby's game takes (bot/engine/game_kinds.py)."""
    return player_range(record.game)


def table_full(record: GameRecord) -> UserError:
    """The lobby is as full as its game allows: said with the game's name unless classic."""
    most = seats_for(record)[1]
    if record.game == CLASSIC:
        return UserError("error.table_full", max=most)
    fewest = seats_for(record)[0]
    return UserError(
        "error.game_table_full", game=Phrase(f"game.{record.game}"), min=fewest, max=most
    )


def display_name(user: discord.abc.User) -> str:
    return (getattr(user, "display_name", None) or user.name)[:100]


def _can_manage(interaction: Interaction) -> bool:
    return interaction.permissions.manage_guild


class Lobby:
    def __init__(
        self,
        shared: Shared,
        games: RunningGames,
        moves: Moves,
        rules: LobbyRules,
    ) -> None:
        self.shared = shared
        self.games = games
        self.moves = moves  # a running game's leave and kick
        self.rules = rules
        self.expiry = Clock("lobby expiry")  # lobby id -> its closing
        self.close_after = shared.settings.lobby_close_after
        # lobby id -> person -> their last click's token and language: their hand is posted
        # through it at the deal (game/owner.py `started`), so nobody needs Show my hand first.
        self._reach: dict[int, dict[int, tuple[Token, discord.Locale]]] = {}

    def _remember(self, game_id: int, interaction: Interaction) -> None:
        """A person's click in a lobby: the newest way to reach them at the deal."""
        token = self.games.private_hands.tokens.reach(interaction)
        if token is not None and not is_computer(interaction.user.id):
            self._reach.setdefault(game_id, {})[interaction.user.id] = (token, interaction.locale)

    # ------------------------------------------------------------------ expiry

    def arm_expiry(self, game_id: int, created_at: datetime) -> None:
        """Close the lobby `close_after` seconds after it opened, unless it starts."""
        closes = created_at + timedelta(seconds=self.close_after)
        delay = (closes - now()).total_seconds()
        self.expiry.at(game_id, delay, partial(self.expire_lobby, game_id))

    async def resume_expiry(self) -> None:
        """At start-up: every open lobby of this process's shards closes when it should."""
        settings = self.shared.settings
        shard_count = settings.shard_count or 1
        shard_ids = settings.shard_ids
        async with self.shared.db.read() as unit:
            lobbies = await unit.games.lobbies()
        for record in lobbies:
            if shard_ids is None or (record.guild_id >> 22) % shard_count in shard_ids:
                self.arm_expiry(record.id, record.created_at)

    @answers_in_time(ephemeral=False)
    async def new_lobby(
        self,
        interaction: Interaction,
        *,
        preset: str | None,
        scoring: str | None,
        target: int | None,
    ) -> None:
        shared = self.shared
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            raise UserError("error.guild_only")
        async with shared.db.read() as unit:
            config = await unit.settings.guild(guild_id)
        shared.remember_settings(guild_id, config.language, config.turn_timeout_seconds)
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
            raise rules_error(exc) from None
        user = interaction.user
        async with shared.lock(channel_id):
            try:
                async with shared.db.write() as unit:
                    record = await unit.games.open_lobby(
                        guild_id=guild_id,
                        channel_id=channel_id,
                        host_id=user.id,
                        host_name=display_name(user),
                        rules=rules,
                    )
            except ChannelBusy:
                raise UserError("error.channel_busy") from None
            response = await respond(interaction, shared.lobby_message(record))
            message_id = getattr(response, "message_id", None)
            if message_id is None:
                message_id = (await interaction.original_response()).id
            async with shared.db.write() as unit:
                await unit.games.set_table_message(record.id, message_id)
        self._remember(record.id, interaction)
        self.arm_expiry(record.id, record.created_at)

    async def lobby_click(self, interaction: Interaction, game_id: int, verb: str) -> None:
        record = await self.shared.record(game_id)
        self.shared.require_channel(interaction, record.channel_id)
        if record.status is not GameStatus.LOBBY:
            if record.status is GameStatus.RUNNING:
                raise UserError("error.already_started")
            raise UserError("error.game_ended")
        if record.seat_of(interaction.user.id) is not None or verb == "join":
            self._remember(game_id, interaction)
        if verb == "join":
            await self.join(interaction, record, edit=True)
        elif verb == "leave":
            await self.leave(interaction, record, edit=True)
        elif verb == "start":
            await self.start(interaction, record, edit=True)
        elif verb == "addbot":
            await self.add_computer(interaction, record, edit=True)
        elif verb == "addexpert":  # the top level, one click away
            await self.add_computer(interaction, record, level="expert", edit=True)
        elif verb == "rules":
            await self.rules.show_lobby_rules(interaction, record)
        elif verb.startswith("target|"):
            await self.rules.set_match_target(interaction, record, verb.partition("|")[2])
        elif verb.startswith("game|"):
            await self.rules.set_game(interaction, record, verb.partition("|")[2])
        else:
            await self.end(interaction, record, edit=True)

    # ------------------------------------------------------------------ seats

    @answers_in_time()
    async def join(
        self, interaction: Interaction, record: GameRecord, *, edit: bool = False
    ) -> None:
        if record.status is not GameStatus.LOBBY:
            raise UserError("error.already_started")
        user = interaction.user
        async with self.shared.lock(record.channel_id):
            record = await self.shared.record(record.id)  # its game may have changed
            most = seats_for(record)[1]
            try:
                async with self.shared.db.write() as unit:
                    await unit.games.seat(record.id, user.id, display_name(user), max_seats=most)
                    record = await unit.games.get(record.id)
            except AlreadySeated:
                raise UserError("error.already_joined") from None
            except TableFull:
                raise table_full(record) from None
            except WrongStatus:
                raise UserError("error.already_started") from None
            self._remember(record.id, interaction)
            await self._lobby_answer(interaction, record, edit, "notice.joined")

    async def _lobby_answer(
        self,
        interaction: Interaction,
        record: GameRecord,
        edit: bool,
        key: str,
        **params: Any,
    ) -> None:
        shared = self.shared
        closed = (
            None
            if record.status is GameStatus.LOBBY
            else t(key, shared.public_locale(record.guild_id), **params)
        )
        lobby = shared.lobby_message(record, closed=closed)
        if edit:
            await respond(interaction, lobby, edit=True)
        else:
            notice = Outgoing(content=t(key, interaction.locale, **params))
            await respond(interaction, notice, ephemeral=True)
            await shared.edit_public(record.channel_id, record.table_message_id, lobby)

    @answers_in_time()
    async def leave(
        self, interaction: Interaction, record: GameRecord, *, edit: bool = False
    ) -> None:
        user = interaction.user.id
        if record.status is GameStatus.RUNNING:
            await self.moves.remove_player(interaction, record, user)
            return
        if record.seat_of(user) is None:
            raise UserError("error.not_a_player")
        if user == record.host_id:
            await self.end(interaction, record, edit=edit, reason="notice.host_left")
            return
        await self._unseat(interaction, record, user, "error.not_a_player", edit, "notice.left")

    @answers_in_time()
    async def kick(self, interaction: Interaction, record: GameRecord, target: int) -> None:
        if interaction.user.id != record.host_id:
            raise UserError("error.host_only")
        if target == record.host_id:
            raise UserError("error.kick_self")
        if record.seat_of(target) is None:
            raise UserError("error.target_not_player")
        if record.status is GameStatus.RUNNING:
            await self.moves.remove_player(interaction, record, target, kicked=True)
            return
        await self._unseat(
            interaction,
            record,
            target,
            "error.target_not_player",
            False,
            "notice.kicked",
            name=f"<@{target}>",
        )

    async def _unseat(
        self,
        interaction: Interaction,
        record: GameRecord,
        player: int,
        refused: str,
        edit: bool,
        key: str,
        **params: Any,
    ) -> None:
        """`player` leaves the lobby (or is kicked); `refused` if they no longer sit there."""
        async with self.shared.lock(record.channel_id):
            try:
                async with self.shared.db.write() as unit:
                    await unit.games.unseat(record.id, player)
                    record = await unit.games.get(record.id)
            except (NotSeated, WrongStatus):
                raise UserError(refused) from None
            await self._lobby_answer(interaction, record, edit, key, **params)

    @answers_in_time()
    async def add_computer(
        self,
        interaction: Interaction,
        record: GameRecord,
        *,
        level: str = "normal",
        edit: bool = False,
    ) -> None:
        """The host seats an engine AI ("🤖 Ada (hard)") with a negative, never-Discord id."""
        shared = self.shared
        if interaction.user.id != record.host_id:
            raise UserError("error.host_only")
        async with shared.lock(record.channel_id):
            record = await shared.record(record.id)
            if record.status is not GameStatus.LOBBY:
                raise UserError("error.already_started")
            computers = [s for s in record.seats if s.is_bot]
            player = next_computer_id(s.user_id for s in computers)
            name = computer_name(
                [s.display_name for s in computers], level, shared.public_locale(record.guild_id)
            )
            most = seats_for(record)[1]
            try:
                async with shared.db.write() as unit:
                    await unit.games.seat(
                        record.id, player, name, is_bot=True, bot_level=level, max_seats=most
                    )
                    record = await unit.games.get(record.id)
            except TableFull:
                raise table_full(record) from None
            except WrongStatus:
                raise UserError("error.already_started") from None
            await self._lobby_answer(interaction, record, edit, "notice.computer_added", name=name)

    # ------------------------------------------------------------------ start and end

    @answers_in_time()
    async def start(
        self, interaction: Interaction, record: GameRecord, *, edit: bool = False
    ) -> None:
        shared = self.shared
        user = interaction.user.id
        if user != record.host_id:
            async with shared.db.read() as unit:
                policy = (await unit.settings.guild(record.guild_id)).start_policy
            if policy is not StartPolicy.ANYONE:
                raise UserError("error.host_only")
            if record.seat_of(user) is None:
                raise UserError("error.not_a_player")
        async with shared.lock(record.channel_id):
            record = await shared.record(record.id)
            if record.status is not GameStatus.LOBBY:
                raise UserError("error.already_started")
            players = [s.user_id for s in record.seats if s.left_at is None]
            fewest, most = seats_for(record)
            if not fewest <= len(players) <= most:
                if record.game == CLASSIC:
                    raise UserError("error.need_players", min=fewest, max=most)
                raise UserError(
                    "error.game_players", game=Phrase(f"game.{record.game}"), min=fewest, max=most
                )
            if all(is_computer(p) for p in players):
                raise UserError("error.need_human")
            try:
                options = deal_options(record.channel_id, record.id, players, shared.settings)
                rules = record.rules.with_options(**options.pop("rules", {}))
                game, events = Game.start(players, rules, **options)
            except InvalidRules as exc:
                raise rules_error(exc) from None
            await shared.load_settings(record.guild_id)
            live = LiveGame.from_record(record, game)
            live.turn_key = None
            _, deadline = next_deadline(
                live, game, None, shared.turn_seconds, shared.settings.uno_test_timer_scale
            )
            try:
                async with shared.db.write() as unit:
                    record = await unit.games.start(
                        record.id,
                        state=game.to_dict(),
                        version=game.version,
                        actor_id=interaction.user.id,
                        turn_deadline=deadline,
                    )
            except WrongStatus:
                raise UserError("error.already_started") from None
            running = self.games.start(record, game, events)  # its owner takes over
            self.expiry.cancel(record.id)
            self._remember(record.id, interaction)
            reach = self._reach.pop(record.id, {})
            table = table_message(shared, running.live)  # with the first turn's countdown
        if edit:
            sent = await ready(table, edit=True)
            await respond(interaction, sent, edit=True)
            if table.picture is not None and not sent.pictured:
                running.table.picture_missing()  # late: the next update brings it
            else:
                running.table.showing(sent.shown)
        else:
            notice = Outgoing(content=t("notice.started", interaction.locale))
            await respond(interaction, notice, ephemeral=True)
        await running.started(table_shown=edit, reach=reach, via=interaction)

    @answers_in_time(ephemeral=False)
    async def end(
        self,
        interaction: Interaction,
        record: GameRecord,
        *,
        edit: bool = False,
        reason: str = "notice.ended",
    ) -> None:
        """Host or Manage Server: the game is abandoned, nothing is counted on the points
        board; a started match is rated, the one who ended it (if playing) as having lost."""
        shared = self.shared
        user = interaction.user.id
        if user != record.host_id and not _can_manage(interaction):
            raise UserError("error.host_or_manager")
        locale = shared.public_locale(record.guild_id)
        name = bold_name(interaction.user.display_name)

        def closed_text(rated: bool) -> str:
            """What the closed table says: who ended it, and whether the match was rated."""
            key = "notice.ended_rated" if rated and reason == "notice.ended" else reason
            return t(key, locale, name=name)

        shown: Outgoing | None = None
        message_id: int | None = None
        closed = closed_text(False)
        async with shared.lock(record.channel_id):
            record = await shared.record(record.id)  # it may have started while we waited
            if record.status is GameStatus.LOBBY:
                async with shared.db.write() as unit:
                    done = await unit.games.abandon(record.id, ended_by=user)
                    record = await unit.games.get(record.id)
                if not done:
                    raise UserError("error.game_ended")
                self.expiry.cancel(record.id)
                self._reach.pop(record.id, None)
                shown = shared.lobby_message(record, closed=closed)
                message_id = record.table_message_id
        if shown is None:  # a running game: its owner ends it (the lock is its own to take)
            if record.status is not GameStatus.RUNNING:
                raise UserError("error.game_ended")
            running = await self.games.get(record.id)
            shown, closed = await running.end(user, closed_text)
            message_id = running.live.table_message_id
        if edit:
            await respond(interaction, shown, edit=True)
        else:
            await respond(interaction, Outgoing(content=closed))
            await shared.edit_public(record.channel_id, message_id, shown)

    async def expire_lobby(self, game_id: int) -> None:
        """A lobby nobody started closes itself."""
        shared = self.shared
        try:
            record = await shared.record(game_id)
        except UserError:
            return
        async with shared.lock(record.channel_id):
            record = await shared.record(game_id)  # it may have started while we waited
            if record.status is not GameStatus.LOBBY:
                return
            async with shared.db.write() as unit:
                done = await unit.games.abandon(game_id)
                record = await unit.games.get(game_id)
            self._reach.pop(game_id, None)
        if done:
            closed = t("notice.lobby_expired", shared.public_locale(record.guild_id))
            lobby = shared.lobby_message(record, closed=closed)
            await shared.edit_public(record.channel_id, record.table_message_id, lobby)


def deal_options(
    channel_id: int, game_id: int, players: list[int], settings: Settings
) -> dict[str, Any]:
    """Test-only hooks (never set in production): a fixed seed and/or round-1 deck."""
    options: dict[str, Any] = {}
    if settings.uno_test_seed is not None:
        options["seed"] = settings.uno_test_seed + game_id
    path = settings.uno_test_decks
    if path is not None and path.exists():
        spec = json.loads(path.read_text(encoding="utf-8")).get(str(channel_id))
        if spec:
            if "seed" in spec:
                options["seed"] = spec["seed"]
            if "deck" in spec:
                options["deck"] = parse_cards(spec["deck"])
            if "rules" in spec:
                options["rules"] = spec["rules"]
            if "dealer_seat" in spec:
                options["dealer"] = players[spec["dealer_seat"] % len(players)]
    return options
