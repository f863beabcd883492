"""Whom the channel's messages speak to: the server's language setting, or, while it is "auto"
(the default), the server's own Discord language as its interactions and the gateway tell it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.client import UnoBotMixin
from bot.settings import Settings
from cogs.uno.shared import Shared

GUILD = 42


class _Bot(UnoBotMixin):
    """The mixin's locale memory, without a connection."""

    def __init__(self, gateway_locale: str | None = None) -> None:
        self._guild_locales: dict[int, str] = {}
        self._gateway_locale = gateway_locale

    def get_guild(self, guild_id: int) -> Any:
        if self._gateway_locale is None:
            return None
        return SimpleNamespace(preferred_locale=SimpleNamespace(value=self._gateway_locale))


def _house(bot: Any, language: str | None) -> Shared:
    shared = Shared(bot, None, Settings(_env_file=None))
    if language is not None:
        shared.remember_settings(GUILD, language, 60)
    return shared


def test_auto_follows_the_servers_interactions() -> None:
    bot = _Bot()
    shared = _house(bot, "auto")
    assert shared.public_locale(GUILD) == "en"  # nothing known yet
    bot._note_guild_locale(GUILD, "no")
    assert shared.public_locale(GUILD) == "no"
    bot._note_guild_locale(GUILD, "de")
    assert shared.public_locale(GUILD) == "de"


def test_auto_falls_back_to_the_gateways_server() -> None:
    assert _house(_Bot(gateway_locale="de"), "auto").public_locale(GUILD) == "de"
    assert _house(_Bot(gateway_locale="en-US"), None).public_locale(GUILD) == "en"


def test_a_chosen_language_wins() -> None:
    bot = _Bot(gateway_locale="de")
    bot._note_guild_locale(GUILD, "de")
    assert _house(bot, "no").public_locale(GUILD) == "no"
    assert _house(bot, "en").public_locale(GUILD) == "en"


def test_a_locale_without_catalogue_reads_english() -> None:
    bot = _Bot()
    bot._note_guild_locale(GUILD, "ja")
    assert _house(bot, "auto").public_locale(GUILD) == "en"
