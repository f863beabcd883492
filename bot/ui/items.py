"""The bot's buttons and selects as DynamicItems, so every one keeps working after a restart.

Each item only says *what was clicked* (a `Click`); the bot's component handler (set by the game
cog as `bot.uno`) decides what it means. The handler is always given the interaction, and
any exception it lets through is still answered with an ephemeral message: a click never ends in
"This interaction failed".
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self

import discord

from bot.i18n import t
from bot.ui.errors import ANSWER_CUT, token_is_dead
from bot.ui.ids import (
    CONFIG_TEMPLATE,
    GAME_TEMPLATE,
    HAND_TEMPLATE,
    HELP_ID,
    HELP_TEMPLATE,
    LOBBY_GAME_TEMPLATE,
    LOBBY_TARGET_TEMPLATE,
    LOBBY_TEMPLATE,
    LOG_TEMPLATE,
    MAX_LABEL,
    RECORD_TEMPLATE,
    REMATCH_TEMPLATE,
    REPLAY_TEMPLATE,
    TARGET_SELECT_TEMPLATE,
    config_id,
    game_id_for,
    hand_id,
    lobby_game_id,
    lobby_id,
    lobby_target_id,
    log_id,
    record_id,
    rematch_id,
    replay_id,
    target_select_id,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Click:
    kind: str  # "game", "hand", "log", "lobby", "rematch", "record", "replay", "config", "help"
    game_id: int
    version: int | None = None
    action: str = ""  # the game action/verb, the lobby verb, or "<step>|<chosen value>"

    @property
    def texts(self) -> list[str]:
        """The game actions this click asks for, in order (see `action_texts`)."""
        return action_texts(self.action)


_PLAY = re.compile(r"play:[A-Z0-9]{1,3}(?::uno)?")
#: A wild played with its colour in one click: `play:W4:uno:B` (a Wild, a Wild Draw Four, and
#: No Mercy's Wild Reverse Draw Four, Draw Six and Draw Ten, UNO Flip's Wild Draw Two, dark Wild
#: and Wild Draw Colour, with the dark side's colours: hand_buttons.py).
_PLAY_WITH_COLOR = re.compile(
    r"(?P<play>play:(?:W[24]?|WR4|W6|W10|WK|WDC)(?::uno)?):(?P<color>[RYGBPTOV])"
)


def action_texts(action: str) -> list[str]:
    """A game button's action as the engine actions it stands for: `play:W:R` is
    ["play:W", "color:R"]; any other action is itself. Only the templates' spellings get here
    (a custom_id is user input: nothing else matches a DynamicItem), so anything else that
    looks like a play with a colour is refused rather than guessed at."""
    if not action.startswith("play:") or _PLAY.fullmatch(action):
        return [action]
    m = _PLAY_WITH_COLOR.fullmatch(action)
    if m is None:
        raise ValueError(f"not an action: {action!r}")
    return [m["play"], f"color:{m['color']}"]


class ComponentHandler(Protocol):
    async def handle_click(
        self, interaction: discord.Interaction[discord.Client], click: Click
    ) -> None: ...


def admitted(interaction: discord.Interaction[discord.Client]) -> bool:
    """Whether the client takes this interaction (bot.client's `admit`: not once a shutdown
    began, not past Discord's window; an admitted one's task is kept as in flight). Asked first
    thing by each click's task; a client without the gate (a test's) takes everything."""
    admit: Callable[[discord.Interaction[discord.Client]], bool] | None = getattr(
        interaction.client, "admit", None
    )
    return admit is None or admit(interaction)


async def dispatch(interaction: discord.Interaction[discord.Client], click: Click) -> None:
    if not admitted(interaction):
        return
    handler: ComponentHandler | None = getattr(interaction.client, "uno", None)
    try:
        if handler is None:
            raise RuntimeError("no component handler is installed")
        await handler.handle_click(interaction, click)
    except Exception as exc:
        if token_is_dead(exc):  # too late to answer: trying again only adds invalid requests
            log.warning("click %r could not be answered in time: %s", click, exc)
            return
        log.exception("click %r failed", click)
        await answer_failure(interaction)


async def answer_failure(interaction: discord.Interaction[discord.Client]) -> None:
    """Tell the user something went wrong, however far the interaction got (not at all once an
    answer of it was cut short: errors.py `AnswerLate`)."""
    if interaction.extras.get(ANSWER_CUT):
        return
    text = t("error.internal", interaction.locale)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not even report the failure of interaction %s", interaction.id)


def _label(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def _select(
    custom_id: str,
    options: list[discord.SelectOption] | None,
    placeholder: str | None,
    row: int | None,
) -> discord.ui.Select[Any]:
    """A one-choice select; rebuilt from a click it has no options, so it gets a stand-in."""
    return discord.ui.Select(
        custom_id=custom_id,
        options=options or [discord.SelectOption(label="-", value="-")],
        placeholder=placeholder,
        row=row,
    )


def _chosen(interaction: discord.Interaction[discord.Client]) -> str:
    """The value picked in the select that was used (empty if none arrived)."""
    data: Mapping[str, object] = interaction.data or {}  # a select's: {"values": [...], ...}
    values = data.get("values")
    return str(values[0]) if isinstance(values, list) and values else ""


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=GAME_TEMPLATE):
    """A game action: `uno:<game>:<version>:<action>`."""

    def __init__(
        self,
        game_id: int,
        version: int,
        action: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=game_id_for(game_id, version, action),
                label=_label(label) if label else None,
                style=style,
                emoji=emoji,
                disabled=disabled,
                row=row,
            )
        )
        self.click = Click("game", game_id, version, action)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> GameButton:
        return cls(int(match["game"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        await dispatch(interaction, self.click)


class TargetSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=TARGET_SELECT_TEMPLATE):
    """Whom to swap hands with: `uno:<game>:<version>:target`, the chosen user id as value."""

    def __init__(
        self,
        game_id: int,
        version: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(_select(target_select_id(game_id, version), options, placeholder, row))
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> TargetSelect:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        value = _chosen(interaction)
        action = f"target:{value}" if value.isdigit() else "target"
        await dispatch(interaction, Click("game", self.game_id, self.version, action))


class _OneGameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button that carries nothing but its game, `uno:<game>:<kind>`: a click is
    `Click(kind, game)`. Each subclass names its template, id, kind, style and emoji; this base
    is never registered (its template matches nothing)."""

    kind: ClassVar[str]
    custom_id_of: ClassVar[staticmethod[[int], str]]
    button_style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary
    button_emoji: ClassVar[str]

    def __init__(self, game_id: int, *, label: str | None = None, row: int | None = None) -> None:
        cls = type(self)
        super().__init__(
            discord.ui.Button(
                custom_id=cls.custom_id_of(game_id),
                label=_label(label) if label else None,
                style=cls.button_style,
                emoji=cls.button_emoji,
                row=row,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        await dispatch(interaction, Click(self.kind, self.game_id))


class HandButton(_OneGameButton, template=HAND_TEMPLATE):
    """The public "Show my hand" button: `uno:<game>:hand`."""

    kind = "hand"
    custom_id_of = staticmethod(hand_id)
    button_style = discord.ButtonStyle.primary
    button_emoji = "🃏"


class LogButton(_OneGameButton, template=LOG_TEMPLATE):
    """The table's Log button: `uno:<game>:log` shows the clicker the round's whole log."""

    kind = "log"
    custom_id_of = staticmethod(log_id)
    button_emoji = "📜"


class RematchButton(_OneGameButton, template=REMATCH_TEMPLATE):
    """Under a finished match's result: `uno:<finished game>:rematch` opens or joins a new lobby
    with that match's rules."""

    kind = "rematch"
    custom_id_of = staticmethod(rematch_id)
    button_style = discord.ButtonStyle.success
    button_emoji = "🔁"


class RecordButton(_OneGameButton, template=RECORD_TEMPLATE):
    """Under a finished match's result: `uno:<finished game>:record` answers with the match's
    record as a JSON file (docs/records.md)."""

    kind = "record"
    custom_id_of = staticmethod(record_id)
    button_emoji = "🧾"


class ReplayButton(_OneGameButton, template=REPLAY_TEMPLATE):
    """Under a finished match's result: `uno:<finished game>:replay` answers the clicker with
    the match's last round to watch (`/uno replay`)."""

    kind = "replay"
    custom_id_of = staticmethod(replay_id)
    button_emoji = "🎬"


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LOBBY_TEMPLATE):
    """Join, Leave, Start, Cancel in a lobby: `uno:<game>:lobby:<verb>`."""

    def __init__(
        self,
        game_id: int,
        verb: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=lobby_id(game_id, verb),
                label=_label(label) if label else None,
                style=style,
                disabled=disabled,
            )
        )
        self.game_id = game_id
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> LobbyButton:
        return cls(int(match["game"]), match["verb"])

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        await dispatch(interaction, Click("lobby", self.game_id, None, self.verb))


class LobbyTargetSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=LOBBY_TARGET_TEMPLATE
):
    """The lobby's match target: `uno:<game>:lobby:target`; the click carries the choice as the
    lobby verb `target|<choice>` (checked again by the lobby: host only, before Start)."""

    def __init__(
        self,
        game_id: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(_select(lobby_target_id(game_id), options, placeholder, row))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> LobbyTargetSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        choice = _chosen(interaction)
        await dispatch(interaction, Click("lobby", self.game_id, None, f"target|{choice}"))


class LobbyGameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=LOBBY_GAME_TEMPLATE):
    """The lobby's game (classic, No Mercy, ...): `uno:<game>:lobby:game`; the click carries
    the choice as the lobby verb `game|<key>` (checked again by the lobby: a game the engine
    offers, host only, before Start, no more players seated than the game takes)."""

    def __init__(
        self,
        game_id: int,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(_select(lobby_game_id(game_id), options, placeholder, row))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> LobbyGameSelect:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        choice = _chosen(interaction)
        await dispatch(interaction, Click("lobby", self.game_id, None, f"game|{choice}"))


class HelpSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=HELP_TEMPLATE):
    """The topics of `/uno help`: `uno:help`; the click carries the topic (any value: the help
    shows its first page for one it does not know)."""

    def __init__(
        self,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(_select(HELP_ID, options, placeholder, None))

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> HelpSelect:
        return cls()

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        await dispatch(interaction, Click("help", 0, None, _chosen(interaction)))


class ConfigSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=CONFIG_TEMPLATE):
    """A select of the settings panel: `uno:cfg:<scope>:<step>`; the click carries the choice.

    The scope is `g` (the server's defaults) or a lobby's game id, which the Click carries as
    game id 0 or that id.
    """

    def __init__(
        self,
        scope: str,
        step: str,
        options: list[discord.SelectOption] | None = None,
        *,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(_select(config_id(scope, step), options, placeholder, row))
        self.scope = scope
        self.step = step

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ConfigSelect:
        return cls(match["scope"], match["step"])

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        choice = _chosen(interaction)
        game_id = int(self.scope) if self.scope.isdigit() else 0
        await dispatch(interaction, Click("config", game_id, None, f"{self.step}|{choice}"))


DYNAMIC_ITEMS = (
    GameButton,
    TargetSelect,
    HandButton,
    LogButton,
    RematchButton,
    RecordButton,
    ReplayButton,
    LobbyButton,
    LobbyTargetSelect,
    LobbyGameSelect,
    HelpSelect,
    ConfigSelect,
)
