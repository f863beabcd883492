"""Thin slash commands: each one checks, calls the flow that owns it once, and replies.

Re-checks of raw command values: a modified client can send any value for any option.

Discord's own client only offers an option's choices and range, but the bot never relies on it:
a value outside them is refused with a clear ephemeral message (a `UserError`), never passed on.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine import PRESETS, Play, view_for
from bot.engine.ai import LEVELS
from bot.engine.game_kinds import game_keys, game_of
from bot.engine.rules import CHOICES, INT_RANGES
from bot.host import Interaction, UnoHost
from bot.i18n import Phrase, has_key, t
from bot.i18n.translator import cmd_name, cmd_text
from bot.store import GameStatus, StorageUnavailable
from bot.ui.card_input import ordered_choices, parse_card_input
from bot.ui.cards import card_name
from bot.ui.errors import UserError, game_error_text, send_ephemeral, token_is_dead
from bot.ui.help import render_help
from bot.ui.ids import matches_exactly_one
from bot.ui.items import admitted
from bot.ui.rule_options import RULE_GROUPS, option_choices, value_choices
from bot.ui.rules_text import render_rules
from bot.ui.stats import render_stats
from cogs.uno.app import UnoApp
from cogs.uno.boards import announce_season_ends, roll_over_if_due
from cogs.uno.delivery import Ready
from cogs.uno.drawing.renderer import DRAWING
from cogs.uno.game.moves import play_texts
from cogs.uno.game.registry import resume_running_games, shard_filter

log = logging.getLogger(__name__)

PRESET_CHOICES = [app_commands.Choice(name=cmd_text(f"preset.{p}"), value=p) for p in PRESETS]
SCORING_CHOICES = [
    app_commands.Choice(name=cmd_text(f"scoring.{s}"), value=s) for s in CHOICES["scoring"]
]
COLOR_CHOICES = [app_commands.Choice(name=cmd_text(f"color.{c}"), value=c) for c in "RYGBPTOV"]
SORTS = ("rating", "points", "wins", "win_rate")
SORT_CHOICES = [app_commands.Choice(name=cmd_text(f"leaderboard.sort.{s}"), value=s) for s in SORTS]
LEADERBOARD_PAGES = 10_000
TARGET_MIN, TARGET_MAX = INT_RANGES["target"]
#: The games on offer (bot/engine/game_kinds.py): a new game appears once the engine has it.
GAME_CHOICES = [app_commands.Choice(name=cmd_text(f"game.{g}"), value=g) for g in game_keys()]
LEVEL_CHOICES = [app_commands.Choice(name=cmd_text(f"computer.level.{v}"), value=v) for v in LEVELS]
RULE_OPTIONS = {name for names in RULE_GROUPS.values() for name in names}


@app_commands.guild_only()
class UnoCog(commands.GroupCog, group_name=cmd_name("uno"), group_description=cmd_text("cmd.uno")):
    def __init__(self, bot: UnoHost) -> None:
        self.bot = bot
        self.app = UnoApp(bot, bot.database, bot.settings)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.uno = self.app
        self.app.card_emojis.start()  # in the background: the bot answers meanwhile
        DRAWING.start(stuck_while=self.bot.settings.uno_test_stuck_pictures)  # warm-up, likewise
        self._old_on_error = self.bot.tree.on_error
        self.bot.tree.error(self.on_app_command_error)  # (discord.py's way to set `on_error`)
        settings = self.bot.settings
        try:
            await resume_running_games(
                self.app.games, shard_count=settings.shard_count, shard_ids=settings.shard_ids
            )
        except Exception:
            log.exception("could not resume the running games")

    async def cog_unload(self) -> None:
        self.bot.uno = None
        self.bot.tree.error(self._old_on_error)
        await self.app.close()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        # Once per process: re-arm stored turn deadlines, lobby expiry and computer players.
        if not getattr(self, "_timers_resumed", False):
            self._timers_resumed = True
            self.app.games.arm_all()
            self.app.pings.clear_leftovers()  # the last run's turn pings, in the background
            settings = self.bot.settings
            shard_ids, shard_count = shard_filter(settings.shard_count, settings.shard_ids)
            try:  # the last run's results Discord never took, posted in the background
                await self.app.posts.sweep(shard_ids=shard_ids, shard_count=shard_count)
            except Exception:
                log.exception("could not read the public posts left by the last run")
            try:
                await self.app.lobby.resume_expiry()
            except Exception:
                log.exception("could not re-arm the lobbies' expiry")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """A click whose custom_id none of our buttons has (a modified client's) would get no
        answer at all, since no DynamicItem matches it: refuse it here instead."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Mapping[str, object] = interaction.data or {}  # a component's: {"custom_id": ...}
        custom_id = str(data.get("custom_id", ""))
        if not matches_exactly_one(custom_id) and admitted(interaction):
            await send_ephemeral(interaction, t("error.unknown_button", interaction.locale))

    # ------------------------------------------------------------------ errors

    async def on_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if token_is_dead(original):  # too late to answer: trying again only adds invalid requests
            log.warning("command %s could not be answered in time", interaction.command)
            return
        locale = interaction.locale
        if isinstance(original, UserError):
            text = t(original.key, locale, **original.params)
        elif isinstance(original, StorageUnavailable):  # logged once by the store
            text = t("error.cannot_save", locale)
        elif isinstance(original, app_commands.NoPrivateMessage):
            text = t("error.guild_only", locale)
        elif isinstance(original, app_commands.MissingPermissions | app_commands.CheckFailure):
            text = t("error.no_permission", locale)
        elif isinstance(original, app_commands.CommandOnCooldown):
            text = t("error.cooldown", locale)
        else:
            from bot.engine import GameError

            if isinstance(original, GameError):
                text = game_error_text(original, locale)
            else:
                log.error("command %s failed", interaction.command, exc_info=original)
                text = t("error.internal", locale)
        await send_ephemeral(interaction, text)

    # ------------------------------------------------------------------ lobby

    @app_commands.command(name=cmd_name("new"), description=cmd_text("cmd.new"))
    @app_commands.rename(
        rules=cmd_name("option.rules"),
        scoring=cmd_name("option.scoring"),
        target=cmd_name("option.target"),
    )
    @app_commands.describe(
        rules=cmd_text("cmd.new.rules"),
        scoring=cmd_text("cmd.new.scoring"),
        target=cmd_text("cmd.new.target"),
    )
    @app_commands.choices(rules=PRESET_CHOICES, scoring=SCORING_CHOICES)
    async def new(
        self,
        interaction: Interaction,
        rules: str | None = None,
        scoring: str | None = None,
        target: app_commands.Range[int, TARGET_MIN, TARGET_MAX] | None = None,
    ) -> None:
        if rules is not None:
            require_choice("rules", rules, PRESETS)
        if scoring is not None:
            require_choice("scoring", scoring, CHOICES["scoring"])
        if target is not None:
            require_range("target", target, TARGET_MIN, TARGET_MAX)
        await self.app.lobby.new_lobby(interaction, preset=rules, scoring=scoring, target=target)

    @app_commands.command(name=cmd_name("join"), description=cmd_text("cmd.join"))
    async def join(self, interaction: Interaction) -> None:
        record = await self.app.shared.channel_game(interaction.channel_id or 0)
        await self.app.lobby.join(interaction, record)

    @app_commands.command(name=cmd_name("leave"), description=cmd_text("cmd.leave"))
    async def leave(self, interaction: Interaction) -> None:
        record = await self.app.shared.channel_game(interaction.channel_id or 0)
        await self.app.lobby.leave(interaction, record)

    @app_commands.command(name=cmd_name("start"), description=cmd_text("cmd.start"))
    async def start(self, interaction: Interaction) -> None:
        record = await self.app.shared.channel_game(interaction.channel_id or 0)
        if record.status is not GameStatus.LOBBY:
            raise UserError("error.already_started")
        await self.app.lobby.start(interaction, record)

    @app_commands.command(name=cmd_name("kick"), description=cmd_text("cmd.kick"))
    @app_commands.rename(player=cmd_name("option.player"))
    @app_commands.describe(player=cmd_text("cmd.kick.player"))
    async def kick(self, interaction: Interaction, player: discord.User) -> None:
        record = await self.app.shared.channel_game(interaction.channel_id or 0)
        await self.app.lobby.kick(interaction, record, player.id)

    @app_commands.command(name=cmd_name("end"), description=cmd_text("cmd.end"))
    async def end(self, interaction: Interaction) -> None:
        record = await self.app.shared.channel_game(interaction.channel_id or 0)
        await self.app.lobby.end(interaction, record)

    @app_commands.command(name=cmd_name("addbot"), description=cmd_text("cmd.addbot"))
    @app_commands.rename(level=cmd_name("option.level"))
    @app_commands.describe(level=cmd_text("cmd.addbot.level"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: Interaction, level: str = "normal") -> None:
        require_choice("level", level, LEVELS)
        record = await self.app.shared.channel_game(interaction.channel_id or 0)
        if record.status is not GameStatus.LOBBY:
            raise UserError("error.already_started")
        await self.app.lobby.add_computer(interaction, record, level=level)

    @app_commands.command(name=cmd_name("setrule"), description=cmd_text("cmd.setrule"))
    @app_commands.rename(option=cmd_name("option.option"), value=cmd_name("option.value"))
    @app_commands.describe(option=cmd_text("cmd.set.option"), value=cmd_text("cmd.set.value"))
    async def setrule(self, interaction: Interaction, option: str, value: str) -> None:
        await self.app.lobby_rules.set_lobby_rule(interaction, option, value)

    @setrule.autocomplete("option")
    async def setrule_option(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=label, value=name)
            for label, name in option_choices(current, interaction.locale)
            if name in RULE_OPTIONS
        ]

    @setrule.autocomplete("value")
    async def setrule_value(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        option = str(getattr(interaction.namespace, "option", "") or "")
        return [
            app_commands.Choice(name=label, value=value)
            for label, value in value_choices(option, current, interaction.locale)
        ]

    # ------------------------------------------------------------------ playing

    async def _running(self, interaction: Interaction) -> int:
        record = await self.app.shared.channel_game(interaction.channel_id or 0)
        if record.status is not GameStatus.RUNNING:
            raise UserError("error.game_not_started")
        return record.id

    @app_commands.command(name=cmd_name("hand"), description=cmd_text("cmd.hand"))
    async def hand(self, interaction: Interaction) -> None:
        await self.app.show_hand.show(interaction, await self._running(interaction))

    @app_commands.command(name=cmd_name("play"), description=cmd_text("cmd.play"))
    @app_commands.rename(card=cmd_name("option.card"), color=cmd_name("option.color"))
    @app_commands.describe(card=cmd_text("cmd.play.card"), color=cmd_text("cmd.play.color"))
    @app_commands.choices(color=COLOR_CHOICES)
    async def play(self, interaction: Interaction, card: str, color: str | None = None) -> None:
        if color is not None:
            require_choice("color", color, tuple("RYGBPTOV"))
        game_id = await self._running(interaction)
        code = parse_card_input(card, interaction.locale)
        if code is None:
            raise UserError("error.unknown_card", text=card[:50])
        await self.app.moves.act(interaction, game_id, play_texts(code, color))

    @play.autocomplete("card")
    async def play_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            record = await self.app.shared.channel_game(interaction.channel_id or 0)
            live = (await self.app.games.get(record.id)).live
        except UserError:
            return []
        locale = interaction.locale
        player = interaction.user.id
        game = live.game
        playable = []
        for action in game.legal_actions(player):
            if isinstance(action, Play):
                name = card_name(action.card, locale)
                if action.uno:
                    name = t("hand.play_uno", locale, card=name)
                playable.append((name, action.card.code + (":uno" if action.uno else "")))
        held = [(card_name(c, locale), c.code) for c in view_for(game, player).hand]
        first, later = ordered_choices(playable, held, current)
        choices = [app_commands.Choice(name=name[:100], value=code) for name, code in first]
        for name, code in later:
            label = t("cmd.play.not_playable", locale, card=name)
            choices.append(app_commands.Choice(name=label[:100], value=code))
        return choices[:25]

    @app_commands.command(name=cmd_name("draw"), description=cmd_text("cmd.draw"))
    async def draw(self, interaction: Interaction) -> None:
        await self.app.moves.act(interaction, await self._running(interaction), "draw")

    @app_commands.command(name=cmd_name("uno_call"), description=cmd_text("cmd.uno_call"))
    async def uno(self, interaction: Interaction) -> None:
        await self.app.moves.act(interaction, await self._running(interaction), "uno")

    @app_commands.command(name=cmd_name("catch"), description=cmd_text("cmd.catch"))
    @app_commands.rename(player=cmd_name("option.player"))
    @app_commands.describe(player=cmd_text("cmd.catch.player"))
    async def catch(self, interaction: Interaction, player: discord.User | None = None) -> None:
        action = f"catch:{player.id}" if player is not None else "catch"
        await self.app.moves.act(interaction, await self._running(interaction), action)

    @app_commands.command(name=cmd_name("table"), description=cmd_text("cmd.table"))
    async def table(self, interaction: Interaction) -> None:
        await self.app.table_posts.repost_table(interaction, self.app.games)

    # ------------------------------------------------------------------ information

    @app_commands.command(name=cmd_name("rules"), description=cmd_text("cmd.rules"))
    async def rules(self, interaction: Interaction) -> None:
        db = self.app.shared.db
        async with db.read() as unit:
            record = await unit.games.open_game_in(interaction.channel_id or 0)
            if record is not None:
                rules = record.rules
            else:
                rules = (await unit.settings.guild(interaction.guild_id or 0)).rules
        await interaction.response.send_message(
            embed=render_rules(rules, interaction.locale), ephemeral=True
        )

    @app_commands.command(name=cmd_name("leaderboard"), description=cmd_text("cmd.leaderboard"))
    @app_commands.rename(
        sort=cmd_name("option.sort"),
        page=cmd_name("option.page"),
        private=cmd_name("option.private"),
        season=cmd_name("option.season"),
        game=cmd_name("option.game_kind"),
    )
    @app_commands.describe(
        game=cmd_text("cmd.leaderboard.game"),
        sort=cmd_text("cmd.leaderboard.sort"),
        season=cmd_text("cmd.leaderboard.season"),
        page=cmd_text("cmd.leaderboard.page"),
        private=cmd_text("cmd.leaderboard.private"),
    )
    @app_commands.choices(sort=SORT_CHOICES, game=GAME_CHOICES)
    async def leaderboard(
        self,
        interaction: Interaction,
        sort: str | None = None,
        page: app_commands.Range[int, 1, LEADERBOARD_PAGES] = 1,
        private: bool = False,
        season: app_commands.Range[int, 1, LEADERBOARD_PAGES] | None = None,
        game: str | None = None,
    ) -> None:
        """Scores are for sharing: posted in the channel (in the server's language) unless
        `private`, which shows them to the asker only, in theirs. One game's board (`game`;
        default: the game of the server's default rules). Sorted by rating once the game has a
        rated match on the server, else by points; `season`: a past season's final standings."""
        if sort is not None:
            require_choice("sort", sort, SORTS)
        if game is not None:
            require_choice("game", game, game_keys())
        require_range("page", page, 1, LEADERBOARD_PAGES)
        guild_id = interaction.guild_id or 0
        shared = self.app.shared
        await shared.load_settings(guild_id)
        locale = interaction.locale if private else shared.public_locale(guild_id)
        async with shared.db.read() as unit:
            config = await unit.settings.guild(guild_id)
        seasons_on = config.season_length != "off"
        game = game or game_of(config.rules)
        if seasons_on:  # a monthly or quarterly season may be over: checked at a view
            await roll_over_if_due(shared.db, guild_id)
            locale = shared.public_locale(guild_id)
            await announce_season_ends(shared.db, self.app.posts, guild_id, locale)
        async with shared.db.read() as unit:
            if sort is None and season is None:
                rated = await unit.ratings.has_ratings(guild_id, game)
                sort = "rating" if rated else "points"
            known = (
                season is None
                or await unit.ratings.board(guild_id, game=game, season=season) is not None
            )
        if not known:
            text = t("leaderboard.no_season", interaction.locale, season=season)
            await interaction.response.send_message(text, ephemeral=True)
            return
        which = f"season:{season}" if season is not None else (sort or "points")
        if not private:  # a recent public board is refreshed and pointed to (boards.py)
            await self.app.boards.show(interaction, game, which, page)
            return
        embed = await self.app.boards.render(guild_id, game, which, page, locale)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name=cmd_name("stats"), description=cmd_text("cmd.stats"))
    @app_commands.rename(player=cmd_name("option.player"))
    @app_commands.describe(player=cmd_text("cmd.stats.player"))
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        """A player's figures, split by game: each game they played with its totals and its
        rating (a No Mercy rating is not a classic one)."""
        who = player or interaction.user
        guild_id = interaction.guild_id or 0
        async with self.app.shared.db.read() as unit:
            totals = {s.game: s for s in await unit.stats.player_games(guild_id, who.id)}
            practice = await unit.stats.practice_games(guild_id, who.id)
            ratings = {}
            for game in game_keys():
                rating = await unit.ratings.player(guild_id, who.id, game=game)
                if rating is not None:
                    ratings[game] = rating
        played = [g for g in game_keys() if g in totals or g in ratings]
        played += [g for g in totals if g not in played]  # (a game no longer offered)
        games = [(g, totals.get(g), ratings.get(g)) for g in played]
        embed = render_stats(
            None, who.display_name, interaction.locale, practice=practice, games=games
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- game records (cogs/uno/records/exports.py, docs/records.md)

    @app_commands.command(name=cmd_name("export"), description=cmd_text("cmd.export"))
    @app_commands.rename(game=cmd_name("option.game"), round_number=cmd_name("option.round"))
    @app_commands.describe(
        game=cmd_text("cmd.export.game"), round_number=cmd_text("cmd.export.round")
    )
    async def export(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1] | None = None,
        round_number: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await self.app.records.export(interaction, game, round_number)

    @app_commands.command(name=cmd_name("verify"), description=cmd_text("cmd.verify"))
    @app_commands.rename(game=cmd_name("option.game"))
    @app_commands.describe(game=cmd_text("cmd.verify.game"))
    async def verify(
        self, interaction: Interaction, game: app_commands.Range[int, 1] | None = None
    ) -> None:
        await self.app.records.check(interaction, game)

    @app_commands.command(name=cmd_name("replay"), description=cmd_text("cmd.replay"))
    @app_commands.rename(
        game=cmd_name("option.game"),
        round_number=cmd_name("option.round"),
        private=cmd_name("option.private"),
    )
    @app_commands.describe(
        game=cmd_text("cmd.replay.game"),
        round_number=cmd_text("cmd.replay.round"),
        private=cmd_text("cmd.replay.private"),
    )
    async def replay(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1] | None = None,
        round_number: app_commands.Range[int, 1] | None = None,
        private: bool = False,
    ) -> None:
        """A replay is for sharing, like the leaderboard: posted in the channel unless
        `private`; it shows only the public table (bot/ui/replay.py)."""
        await self.app.records.replay(interaction, game, round_number, private=private)

    @app_commands.command(name=cmd_name("help"), description=cmd_text("cmd.help"))
    async def help(self, interaction: Interaction) -> None:
        page = Ready(render_help(interaction.locale)).send()
        await interaction.response.send_message(**page, ephemeral=True)


def _option(option: str) -> Phrase | str:
    """An option's name as the reader's command shows it (`cmdname.option.*`)."""
    key = f"cmdname.option.{option}"
    return Phrase(key) if has_key(key) else option


def require_choice(option: str, value: str, allowed: Collection[str]) -> str:
    """`value` if it is one of `allowed`; otherwise a UserError naming the choices."""
    if value not in allowed:
        raise UserError(
            "error.bad_choice", option=_option(option), value=value[:50], allowed=", ".join(allowed)
        )
    return value


def require_range(option: str, value: object, low: int, high: int) -> int:
    """`value` if it is a whole number from `low` to `high`; otherwise a UserError."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise UserError("error.bad_number", option=_option(option), min=low, max=high)
    return value
