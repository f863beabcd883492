"""What a person asks to see of a running game: their own hand, privately (Show my hand,
`/uno hand`), the round's whole log (the table's Log button) and the table posted anew (`/uno
table`, also a lobby's).

A hand (`ShowHand`) is shown privately (ephemeral), to the player it belongs to only, and from
then on kept up to date as their live hand (hands.py).

What a table shows and keeping it current is its owner's table (owner.py, table.py), and where
it was posted is the owner's to record (`RunningGame.table_posted`). `/uno table` is answered at
once, and the owner's table posts the running game's table anew in the background: the answer
never waits for a table edit, the request budget or the game's lock.

The table's Log button (`RoundLog`): the round's whole log, shown privately to whoever clicks
it. The table shows only the newest few lines (phones); anyone in the channel (players and
onlookers alike: the log is public) can read the whole round here. Lines are in the server's
language, as the table tells them; the log lives in memory, so after a restart it starts at
the "resumed" line.
"""

from __future__ import annotations

import io

import discord

from bot.host import Interaction
from bot.i18n import t
from bot.store import GameStatus
from bot.ui.errors import UserError
from bot.ui.outgoing import Outgoing
from bot.ui.table_message import render_round_log
from cogs.uno.answers import in_time, respond
from cogs.uno.delivery import Ready
from cogs.uno.game.hand_view import hand_message
from cogs.uno.game.registry import RunningGames
from cogs.uno.shared import MemberCooldown, Shared

#: Seconds between two `/uno table` of one member in one channel: a re-post is a new public
#: message (and the deletion of the old one), paid from the request budget all tables share.
REPOST_EVERY = 10.0


class TablePosts:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        # (channel, member): one `/uno table` in REPOST_EVERY seconds
        self.cooldown = MemberCooldown(REPOST_EVERY, "table.repost_wait")

    async def repost_table(self, interaction: Interaction, games: RunningGames) -> None:
        """`/uno table`: the channel's lobby or running table posted anew, at the bottom of the
        channel. A running game's table is re-posted by its owner's table, in the background:
        the asker is told at once (privately) that it comes, and never waits for a table edit
        under way, the request budget or the game's lock. One a member in REPOST_EVERY seconds
        per channel (a re-post is a public message and costs the budget every table shares)."""
        asker = (interaction.channel_id or 0, interaction.user.id)
        self.cooldown.check(asker)
        shared = self.shared
        record = await shared.channel_game(interaction.channel_id or 0)
        if record.status is GameStatus.LOBBY:
            self.cooldown.use(asker)
            lobby = Ready(shared.lobby_message(record)).send()
            response = await interaction.response.send_message(**lobby)
            message_id = (
                getattr(response, "message_id", None) or (await interaction.original_response()).id
            )
            async with shared.db.write() as unit:
                await unit.games.set_table_message(record.id, message_id)
            await shared.remove_buttons(record.channel_id, record.table_message_id)
            return
        await in_time(interaction, self._repost_running(interaction, games, record.id, asker))

    async def _repost_running(
        self,
        interaction: Interaction,
        games: RunningGames,
        game_id: int,
        asker: tuple[int, int],
    ) -> None:
        running = await games.get(game_id)  # (held, or loaded and its clock armed)
        self.cooldown.use(asker)
        text = t("table.reposting", interaction.locale)
        # Told first: an ask Discord already reported failed (its answer refused) posts
        # nothing, as a click too late is not applied. The post itself is never waited for.
        await respond(interaction, Outgoing(content=text), ephemeral=True)
        running.clicked(interaction)  # the table comes as its public follow-up
        running.table.request(repost=True)


class RoundLog:
    def __init__(self, games: RunningGames) -> None:
        self.games = games

    async def show(self, interaction: Interaction, game_id: int) -> None:
        running = await self.games.get(game_id)
        live = running.live
        self.games.shared.require_channel(interaction, live.channel_id)
        embed, whole = render_round_log(
            live.log.round_lines(), live.game.round_number, interaction.locale
        )
        files: tuple[discord.File, ...] = ()
        if whole is not None:  # too long for the message: the whole log as a file
            data = io.BytesIO(whole.encode())
            files = (discord.File(data, f"round-{live.game.round_number}.txt"),)
        shown = Ready(Outgoing.of(embed, files=files)).send()
        await interaction.response.send_message(**shown, ephemeral=True)


class ShowHand:
    def __init__(self, games: RunningGames) -> None:
        self.games = games

    async def show(
        self,
        interaction: Interaction,
        game_id: int,
        *,
        page: int = 0,
        edit: bool = False,
        notice: str | None = None,
    ) -> None:
        running = await self.games.get(game_id)
        live = running.live
        self.games.shared.require_channel(interaction, live.channel_id)
        user = interaction.user.id
        if user not in live.game.players:
            raise UserError("error.not_a_player")
        if user in live.game.left:
            raise UserError("error.you_left")
        pictures = self.games.shared.images_on(live.guild_id)
        fresh = hand_message(
            live, user, interaction.locale, page=page, notice=notice, pictures=pictures
        )
        hands = running.hands  # the game's live hands: this answer becomes the player's
        if edit and hands.replaced(interaction.message):
            edit = False  # the player opened a newer hand: this one is going; answer anew
        async with hands.answer(interaction, user, fresh, edit=edit) as sent:
            await respond(interaction, sent, edit=edit, ephemeral=not edit)
            hands.register(interaction, user, page=page, picture=sent.shown)
        running.clicked(interaction)  # a fresh token for the table (game/table_tokens.py)
