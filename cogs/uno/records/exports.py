"""Game records: `/uno export`, the record button under a match's results, `/uno verify`, and
`/uno replay`, a round to watch.

A record (docs/records.md) is built from what the store keeps: the start snapshot (rules, seats,
first dealer), the action log (each action with its player), and the rounds (commitment, and the
seed revealed at each round's end). The seed of a round not finished is never read from the
live snapshot: only its commitment is, so a record of a running game never carries it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.engine import Game
from bot.host import Interaction
from bot.i18n import resolve_locale, t
from bot.store import GameRecord, GameStatus
from bot.ui.errors import UserError, send_ephemeral
from bot.ui.outgoing import Outgoing
from bot.ui.replay import FILENAME_EXTENSION, Mismatch, ReplayFile
from bot.ui.verdict import verdict_text
from cogs.uno.answers import FOLLOWUP_TIMEOUT, answers_in_time, in_time, respond, settle
from cogs.uno.drawing.renderer import DRAWING, PictureLate
from cogs.uno.records.replay_posts import ReplayPosts
from cogs.uno.records.work import RECORDS, RecordLate
from cogs.uno.shared import MemberCooldown, Shared

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds between two replays a member of a server posts in its channels: a replay is up to a
#: megabyte, and a few in a row would flood the channel. Private ones are not limited but to one
#: at a time (the replay process is every server's).
SHARE_EVERY = 20.0


class Records:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self._replaying: set[tuple[int, int]] = set()  # (server, member): one at a time
        # One record read at a time: the database driver's thread turns a long match's rows
        # into Python objects holding the interpreter lock, and ten such threads at once hold
        # the event loop for over 100 ms (benchmarks/record_loop_stall.py); one, a few ms.
        self._reading = asyncio.Semaphore(1)
        # (server, member): one replay posted in SHARE_EVERY seconds
        self._shares = MemberCooldown(SHARE_EVERY, "replay.wait")
        self._posts = ReplayPosts()  # a round's replay posted once in a channel for a while

    @answers_in_time()
    async def export(
        self,
        interaction: Interaction,
        game_id: int | None = None,
        round_number: int | None = None,
    ) -> None:
        """The record of a game of this server (default: the channel's, else the last one) as a
        JSON attachment, for the asker only; built in the record process (records/work.py)."""
        game = await self._game(interaction, game_id, finished_only=False)
        data, rounds = await self._built(
            game, RECORDS.file, await self.record_parts(game, round_number)
        )
        name = f"uno-game-{game.id}" + (f"-round-{round_number}" if round_number else "") + ".json"
        text = t("record.exported", interaction.locale, game=game.id, rounds=rounds)
        record = discord.File(io.BytesIO(data), filename=name)
        await respond(interaction, Outgoing(content=text, files=(record,)), ephemeral=True)

    @answers_in_time()
    async def check(self, interaction: Interaction, game_id: int | None) -> None:
        """`/uno verify`: replay a finished game of this server from its record (in the record
        process, records/work.py)."""
        game = await self._game(interaction, game_id, finished_only=True)
        verdict = await self._built(game, RECORDS.verdict, await self.record_parts(game, None))
        text = verdict_text(verdict, game.id, interaction.locale)
        await respond(interaction, Outgoing(content=text), ephemeral=True)

    async def replay(
        self,
        interaction: Interaction,
        game_id: int | None,
        round_number: int | None,
        *,
        private: bool = False,
    ) -> None:
        """`/uno replay`: a finished round of a game of this server (default: the channel's
        game, else the server's last; its last finished round) as an animated picture of the
        public table (bot/ui/replay.py), posted in the channel unless `private`: it shows
        nothing a player of the round did not see. Drawn in the replay process, while the
        asker watches a private "thinking" message: private, so that a replay that cannot be
        drawn in time is told to the asker alone (the first follow-up of a deferral fills it,
        and takes its visibility), and a public replay is a message of the channel's own.
        A member gets one replay at a time, and posts one in SHARE_EVERY seconds at most; a
        round replayed in the channel in the last minutes is pointed to, not posted again
        (records/replay_posts.py)."""
        asker = (interaction.guild_id or 0, interaction.user.id)
        if asker in self._replaying:
            raise UserError("replay.busy")
        if not private:
            self._shares.check(asker)
        self._replaying.add(asker)
        try:
            game, number, made = await self._drawn(interaction, game_id, round_number, private)
        finally:
            # Free before any answer: whoever sees one may ask again at once.
            self._replaying.discard(asker)
        if isinstance(made, str):  # (not drawn: the asker is told why)
            await send_ephemeral(interaction, made)
            return
        where = (interaction.channel_id or 0, game.id, number)
        if not private:
            earlier = await self._posts.earlier(where, wait=FOLLOWUP_TIMEOUT)
            if earlier is not None:  # (posted here a little while ago: pointed to)
                when = discord.utils.format_dt(earlier.created_at, "R")
                link = (
                    self.shared.bot.get_partial_messageable(
                        earlier.channel.id, guild_id=interaction.guild_id
                    )
                    .get_partial_message(earlier.id)
                    .jump_url
                )
                text = t(
                    "replay.already_posted",
                    interaction.locale,
                    game=game.id,
                    round=number,
                    when=when,
                    link=link,
                )
                await interaction.followup.send(content=text, ephemeral=True)
                return
            # Counted before the post (so that no second one slips in while it uploads), and
            # undone if the bot may not post here.
            self._shares.use(asker)
            locale = self.shared.public_locale(interaction.guild_id or 0)
            shared = t(
                "replay.shared",
                locale,
                name=interaction.user.mention,
                game=game.id,
                round=number,
                turns=made.turns,
            )
            posted = None
            self._posts.begin(where)  # (an ask meanwhile waits for this post and points to it)
            try:
                post = Outgoing(
                    content=shared,
                    files=(self._file(made, game.id, number, locale),),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                posted = await self.shared.send_public(interaction.channel_id or 0, post)
            finally:
                self._posts.done(where, posted)
            if posted is not None:
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()  # (the asker sees the post)
                return
            self._shares.undo(asker)
            # (the bot may not post here: the asker gets it privately rather than nothing)
        own_locale = interaction.locale
        text = t("replay.shown", own_locale, game=game.id, round=number, turns=made.turns)
        file = self._file(made, game.id, number, own_locale)
        await interaction.followup.send(content=text, file=file, ephemeral=True)

    async def _drawn(
        self,
        interaction: Interaction,
        game_id: int | None,
        round_number: int | None,
        private: bool,
    ) -> tuple[GameRecord, int, ReplayFile | str]:
        """The game, the round and its replay drawn (see `replay`; its captions in the
        server's language, or the asker's for a `private` one), or the text that tells the
        asker why it was not; the asker watches "thinking" meanwhile. `UserError` for a round
        there is nothing to replay of."""
        reading = self._replay_parts(interaction, game_id, round_number)
        game, number, parts = await in_time(interaction, reading)
        await settle(interaction)  # (a click's watch defers no more: this answer takes over)
        if not interaction.response.is_done():  # (a slow store may have deferred it already)
            await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            guild = interaction.guild_id or 0
            locale = interaction.locale if private else self.shared.public_locale(guild)
            made = await DRAWING.replay((game.id, number), parts, number, resolve_locale(locale))
            return game, number, made
        except PictureLate:
            log.warning("replay of game %s round %s not drawn in time", game.id, number)
            return game, number, t("replay.late", interaction.locale)
        except Mismatch as exc:  # (a stored game that does not replay: a bug worth a log line)
            log.error("game %s round %s does not replay: %s", game.id, number, exc)
            return (
                game,
                number,
                t("record.mismatch", interaction.locale, game=game.id, detail=str(exc)),
            )

    @staticmethod
    def _file(made: ReplayFile, game_id: int, number: int, locale: object) -> discord.File:
        name = f"uno-game-{game_id}-round-{number}.{FILENAME_EXTENSION}"
        alt = t("replay.alt", locale, game=game_id, round=number)
        return discord.File(io.BytesIO(made.data), filename=name, description=alt)

    async def _replay_parts(
        self, interaction: Interaction, game_id: int | None, round_number: int | None
    ) -> tuple[GameRecord, int, dict[str, Any]]:
        """The game, the round to replay and the parts of its record (`UserError` for a game
        not of this server, a round it does not have or that is not finished)."""
        game = await self._game(interaction, game_id, finished_only=False)
        parts = await self.record_parts(game, round_number)
        revealed: dict[int, str] = parts["revealed"]
        number = round_number if round_number is not None else max(revealed, default=None)
        if number is None or number not in revealed:
            raise UserError("replay.not_finished", game=game.id, round=number or 1)
        parts["last_round"] = number  # (the rounds after it need not be replayed)
        await self.shared.load_settings(interaction.guild_id or 0)
        return game, number, parts

    async def _game(
        self, interaction: Interaction, game_id: int | None, *, finished_only: bool
    ) -> GameRecord:
        guild = interaction.guild_id or 0
        async with self.shared.db.read() as unit:
            if game_id is None:
                found = (
                    None
                    if finished_only
                    else await unit.games.open_game_in(interaction.channel_id or 0)
                )
                if found is None or found.status is GameStatus.LOBBY:
                    recent = await unit.history.recent_games(guild, limit=1)
                    found = recent[0] if recent else None
            else:
                try:
                    found = await unit.games.get(game_id)
                except Exception:
                    found = None
        if found is None or found.guild_id != guild or found.status is GameStatus.LOBBY:
            raise UserError("record.no_game")
        if finished_only and found.status is not GameStatus.FINISHED:
            raise UserError("record.not_finished", game=found.id)
        return found

    @staticmethod
    async def _built(
        game: GameRecord, work: Callable[[dict[str, Any]], Awaitable[T]], parts: dict[str, Any]
    ) -> T:
        """`work` (the record's file or its verdict) done in the record process, off the event
        loop (records/work.py); `UserError` when it is not done in time."""
        try:
            return await work(parts)
        except RecordLate:
            log.warning("record of game %s not built in time", game.id)
            raise UserError("record.late", game=game.id) from None

    async def record_parts(self, game: GameRecord, round_number: int | None) -> dict[str, Any]:
        """What `build_record` makes the record of `game` from (plain data: a worker process
        can build it), read from the store; `UserError` for a round the game does not have."""
        async with self._reading, self.shared.db.read() as unit:
            first = await unit.history.first_state(game.id)
            log = await unit.history.moves(game.id)  # (plain rows: next to nothing on the loop)
            rounds = await unit.history.rounds(game.id)
            saved = await unit.games.load(game.id)
        if not first or not first.get("round_seed"):
            raise UserError("record.before_seeds", game=game.id)
        opening = Game.from_dict(first)
        current = Game.from_dict(dict(saved.state))
        commitments = {r.round_number: r.commitment for r in rounds if r.commitment}
        if current.commitment is not None:  # the round in play (or last): its commitment only
            commitments.setdefault(current.round_number, current.commitment)
        if opening.commitment is not None:
            commitments.setdefault(1, opening.commitment)
        revealed = {r.round_number: r.seed for r in rounds if r.seed}
        results = {
            r.round_number: {"winner": r.winner_id, "points": dict(r.points)} for r in rounds
        }
        names = {s.user_id: s.display_name for s in game.seats}
        if round_number is not None and not 1 <= round_number <= current.round_number:
            raise UserError("record.no_round", game=game.id, last=current.round_number)
        return dict(
            rules=opening.rules.to_dict(),
            players=[(p, names.get(p, str(p))) for p in opening.players],
            first_dealer=opening.dealer,
            actions=log,
            commitments=commitments,
            revealed=revealed,
            results=results,
            totals=current.totals if game.status is GameStatus.FINISHED else None,
            last_round=round_number,
            game={
                "id": game.id,
                "server": game.guild_id,
                "channel": game.channel_id,
                "status": game.status.value,
            },
        )
