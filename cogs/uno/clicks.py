"""The click router: every button or select of the game (a DynamicItem) arrives here.

A click's custom_id is user input, so every path re-checks what it says: the game must be this
channel's, and a hand's own buttons only edit the clicker's hand. The flows do the rest.
"""

from __future__ import annotations

from bot.host import Interaction
from bot.i18n import t
from bot.store import StorageUnavailable
from bot.ui.errors import UserError
from bot.ui.help import render_help
from bot.ui.items import Click
from cogs.uno.answers import answers_in_time, reply_error, respond
from cogs.uno.game.moves import Moves
from cogs.uno.game.requests import RoundLog, ShowHand
from cogs.uno.lobby.lobbies import Lobby
from cogs.uno.lobby.rematch import Rematch
from cogs.uno.lobby.settings_panel import ConfigPanel
from cogs.uno.records.exports import Records


class Clicks:
    def __init__(
        self,
        show_hand: ShowHand,
        lobby: Lobby,
        config: ConfigPanel,
        moves: Moves,
        rematch: Rematch,
        records: Records,
        round_log: RoundLog,
    ) -> None:
        self.show_hand = show_hand
        self.round_log = round_log
        self.rematch = rematch
        self.records = records
        self.lobby = lobby
        self.config = config
        self.moves = moves

    @answers_in_time()
    async def handle_click(self, interaction: Interaction, click: Click) -> None:
        """Route a click; its custom_id is user input, so every path re-checks what it says:
        the game must be this channel's, and a hand's own buttons only edit the clicker's hand."""
        try:
            if click.kind == "hand":
                await self.show_hand.show(interaction, click.game_id)
            elif click.kind == "log":
                await self.round_log.show(interaction, click.game_id)
            elif click.kind == "rematch":
                await self.rematch.rematch(interaction, click.game_id)
            elif click.kind == "record":
                await self.records.export(interaction, click.game_id)
            elif click.kind == "replay":  # (the game is re-checked to be this server's)
                await self.records.replay(interaction, click.game_id, None, private=True)
            elif click.kind == "lobby":
                await self.lobby.lobby_click(interaction, click.game_id, click.action)
            elif click.kind == "config":
                await self.config.handle(interaction, click)
            elif click.kind == "help":  # another page of the asker's own help
                await respond(interaction, render_help(interaction.locale, click.action), edit=True)
            elif click.action == "wait":  # a round's break: more time before the next round
                await self.moves.wait(
                    interaction, click.game_id, edit=self._from_own_hand(interaction)
                )
            elif click.action == "leave":  # the hand's Leave, as `/uno leave` does it
                await self.moves.leave(interaction, click.game_id)
            elif click.action.startswith("page:") or click.action == "refresh":
                if not self._from_own_hand(interaction):
                    raise UserError("error.not_your_hand")
                page = int(click.action.split(":")[1]) if ":" in click.action else 0
                if page >= 998:
                    page = 0
                await self.show_hand.show(interaction, click.game_id, page=page, edit=True)
            else:
                try:
                    texts = click.texts  # e.g. a Wild with its colour: ["play:W", "color:R"]
                except ValueError:
                    raise UserError("error.unknown_action") from None
                await self.moves.act(
                    interaction,
                    click.game_id,
                    texts,
                    version=click.version,
                    edit=self._from_own_hand(interaction),
                )
        except UserError as error:
            await reply_error(interaction, t(error.key, interaction.locale, **error.params))
        except StorageUnavailable:  # the store logged it once; the live game was forgotten
            await reply_error(interaction, t("error.cannot_save", interaction.locale))

    @staticmethod
    def _from_own_hand(interaction: Interaction) -> bool:
        """Whether the click came from a private message shown to the clicker (their hand)."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            return False
        metadata = message.interaction_metadata
        return metadata is None or metadata.user.id == interaction.user.id
