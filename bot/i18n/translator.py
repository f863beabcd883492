"""Command names and descriptions from the catalogue, for Discord's per-locale command UI.

Discord shows each user the commands in their client's language when the synced commands carry
`name_localizations`/`description_localizations`; discord.py builds them by asking this
translator for every `locale_str` of the tree, in every locale Discord has.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, catalogue, resolve_locale, t


def cmd_text(key: str) -> app_commands.locale_str:
    """A command description or choice name: English here, translated by its key."""
    return app_commands.locale_str(t(key), key=key)


def cmd_name(name: str) -> app_commands.locale_str:
    """A command, group or option name (`cmdname.<name>` in the catalogue): the English name
    is the one the code knows; each catalogue may rename it for its readers."""
    return cmd_text(f"cmdname.{name}")


def translation(key: str, locale: discord.Locale | str) -> str | None:
    """The text of `key` for a Discord locale, or None where English (the default) is shown."""
    code = resolve_locale(locale)
    if code == DEFAULT_LOCALE:
        return None
    return catalogue(code).get(key) or None


class CatalogueTranslator(app_commands.Translator):
    """Translates `locale_str`s made by `cmd_text`/`cmd_name` using the locales' catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        return translation(key, locale) if key else None
