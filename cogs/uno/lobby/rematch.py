"""Rematch: the button under a finished match's result opens a new lobby with the same rules.

The first person to click hosts the new lobby; everyone who clicks after them is seated in it,
as if they had pressed Join. The old match's computer players are seated again at their levels,
since a practice table wants its opponents back. The button keeps working after a restart (its
custom_id names the finished game) and refuses while another game runs in the channel.
"""

from __future__ import annotations

from bot.host import Interaction
from bot.i18n import t
from bot.store import AlreadySeated, ChannelBusy, GameRecord, GameStatus, TableFull, WrongStatus
from bot.ui.errors import UserError
from bot.ui.outgoing import Outgoing
from cogs.uno.answers import answers_in_time, respond
from cogs.uno.lobby.lobbies import Lobby, display_name, seats_for
from cogs.uno.shared import Shared


class Rematch:
    def __init__(self, shared: Shared, lobby: Lobby) -> None:
        self.shared = shared
        self.lobby = lobby

    @answers_in_time()
    async def rematch(self, interaction: Interaction, game_id: int) -> None:
        shared = self.shared
        finished = await shared.record(game_id)
        shared.require_channel(interaction, finished.channel_id)
        if finished.status is not GameStatus.FINISHED:
            raise UserError("error.rematch_not_over")
        async with shared.lock(finished.channel_id):
            async with shared.db.read() as unit:
                current = await unit.games.open_game_in(finished.channel_id)
            if current is None:
                await self._open(interaction, finished)
                return
        if current.status is not GameStatus.LOBBY:
            raise UserError("error.channel_busy")
        await self.lobby.join(interaction, current)

    async def _open(self, interaction: Interaction, finished: GameRecord) -> None:
        """A new lobby hosted by the clicker, posted in the channel (the caller holds its lock)."""
        shared = self.shared
        user = interaction.user
        computers = [s for s in finished.seats if s.is_bot]
        try:
            async with shared.db.write() as unit:
                record = await unit.games.open_lobby(
                    guild_id=finished.guild_id,
                    channel_id=finished.channel_id,
                    host_id=user.id,
                    host_name=display_name(user),
                    rules=finished.rules,
                )
                for seat in computers:
                    await unit.games.seat(
                        record.id,
                        seat.user_id,
                        seat.display_name,
                        is_bot=True,
                        bot_level=seat.bot_level,
                        max_seats=seats_for(finished)[1],
                    )
                record = await unit.games.get(record.id)
        except ChannelBusy:
            raise UserError("error.channel_busy") from None
        except (AlreadySeated, TableFull, WrongStatus):  # cannot happen to a fresh lobby
            raise UserError("error.channel_busy") from None
        message = await shared.send_public(record.channel_id, shared.lobby_message(record))
        if message is not None:
            async with shared.db.write() as unit:
                await unit.games.set_table_message(record.id, message.id)
        self.lobby.arm_expiry(record.id, record.created_at)
        text = t("notice.rematch_opened", interaction.locale)
        await respond(interaction, Outgoing(content=text), ephemeral=True)
