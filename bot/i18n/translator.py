"""Command names and descriptions from the catalogue, for Discord's per-locale command UI."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, catalogue, t


def cmd_text(key: str) -> app_commands.locale_str:
    """A command name/description/choice text: English now, translatable by its key."""
    return app_commands.locale_str(t(key), key=key)


class CatalogueTranslator(app_commands.Translator):
    """Translates `locale_str`s made by `cmd_text` using the other locales' catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not key:
            return None
        code = locale.value
        for candidate in (code, code.split("-")[0]):
            if candidate == DEFAULT_LOCALE:
                return None
            text = catalogue(candidate).get(key)
            if text:
                return text
        return None
