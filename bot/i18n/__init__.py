"""The message catalogue: every user-visible string, keyed and parameterised, per locale.

`t("hand.title", "de", count=7)` looks the key up in the locale's catalogue (`de.json`), then in
the locale it is told to borrow from (`es-419` -> `es-ES`), then in its language (`pt-BR` ->
`pt`), then in English, and fills `{placeholders}` from the parameters. A message with a count
has one key per plural form (`hand.title_one`, `hand.title_other`: see `plurals.py`), and every
number is written the reader's way (1,500 / 1.500 / 1 500). A missing key is a bug: it raises in
tests and shows the key itself in production. TRANSLATING.md explains how to add a language.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final, NamedTuple

from bot.i18n.plurals import COUNT, format_number, plural_category, split_plural

DEFAULT_LOCALE: Final = "en"
#: The server language setting that means "the server's own Discord language".
AUTO: Final = "auto"
#: Discord locales read best in another locale's catalogue than in their bare language's.
BORROWS: Final[Mapping[str, str]] = {"es-419": "es-ES", "es": "es-ES", "nb": "no", "nn": "no"}
_DIR = Path(__file__).resolve().parent
log = logging.getLogger(__name__)


class Phrase(NamedTuple):
    """A message inside a message, translated when the outer one is: lets code that does not
    know the reader's language (an error raised deep in a flow) say what to show."""

    key: str
    params: Mapping[str, Any] = {}

    @classmethod
    def of(cls, key: str, /, **params: Any) -> Phrase:
        return cls(key, params)


@cache
def catalogue(locale: str) -> dict[str, str]:
    """The messages of one locale (empty if the bot has no catalogue for it)."""
    path = _DIR / f"{locale}.json"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    return {k: v for k, v in data.items() if not k.startswith("_")}


@cache
def available_locales() -> tuple[str, ...]:
    """Every locale the bot has a catalogue for: each `<code>.json` beside this file."""
    return tuple(sorted(p.stem for p in _DIR.glob("*.json")))


def locale_code(locale: object | None) -> str:
    """The code of a Discord locale ("en-US", a discord.Locale, None -> "en")."""
    if locale is None:
        return DEFAULT_LOCALE
    return str(getattr(locale, "value", locale))


@lru_cache(maxsize=256)
def resolve_locale(locale: object | None) -> str:
    """The catalogue to use for a Discord locale ("en-US", "pt-BR", a discord.Locale, None);
    remembered, as every message asks (a few hundred times per move with many games open)."""
    code = locale_code(locale)
    language = code.split("-")[0]
    for candidate in (code, BORROWS.get(code), language, BORROWS.get(language)):
        if candidate and catalogue(candidate):
            return candidate
    return DEFAULT_LOCALE


def locale_name(code: str) -> str:
    """A catalogue's language in its own words ("Deutsch", "norsk bokmål"), for the settings."""
    return catalogue(code).get("language.name", code)


def has_key(key: str) -> bool:
    english = catalogue(DEFAULT_LOCALE)
    return key in english or f"{key}_other" in english


def _message(key: str, code: str, count: object) -> str | None:
    """The text of `key` in catalogue `code`, its plural form for `count` if it has forms."""
    messages = catalogue(code)
    text = messages.get(key)
    if text is not None or not isinstance(count, int | float) or isinstance(count, bool):
        return text
    form = messages.get(f"{key}_{plural_category(code, count)}")
    return form if form is not None else messages.get(f"{key}_other")


def _formatted(params: Mapping[str, Any], reader: str) -> dict[str, Any]:
    """The parameters with every number written the reader's way and every Phrase in words."""
    out = {}
    for name, value in params.items():
        if isinstance(value, Phrase):
            value = t(value.key, reader, **value.params)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            value = format_number(value, reader)
        out[name] = value
    return out


def t(key: str, locale: object | None = None, /, **params: Any) -> str:
    """The message `key` in `locale`, formatted with `params` (`count` picks the plural form)."""
    requested = locale_code(locale)
    code = resolve_locale(requested)
    count = params.get(COUNT)
    text = _message(key, code, count)
    if text is None:
        code = DEFAULT_LOCALE
        text = _message(key, code, count)
    if text is None:
        log.error("missing message key %r", key)
        return key
    if not params:
        return text
    # Numbers follow the reader's own locale when it speaks the catalogue's language (es-419).
    reader = requested if requested.split("-")[0] == code.split("-")[0] else code
    try:
        return text.format(**_formatted(params, reader))
    except (KeyError, IndexError, ValueError):
        log.exception("bad parameters for message %r: %r", key, params)
        return text


__all__ = [
    "AUTO",
    "DEFAULT_LOCALE",
    "Phrase",
    "available_locales",
    "catalogue",
    "has_key",
    "locale_code",
    "locale_name",
    "resolve_locale",
    "split_plural",
    "t",
]
