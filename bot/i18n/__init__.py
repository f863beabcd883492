"""The message catalogue: every user-visible string, keyed and parameterised, per locale.

`t("hand.title", "de", count=7)` looks the key up in the locale's catalogue (`de.json`), then in
its language (`pt-BR` -> `pt`), then in English, and fills `{placeholders}` from the parameters.
A missing key is a bug: it raises in tests and shows the key itself in production.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from pathlib import Path
from typing import Any

DEFAULT_LOCALE = "en"
_DIR = Path(__file__).resolve().parent
log = logging.getLogger(__name__)


@cache
def catalogue(locale: str) -> dict[str, str]:
    """The messages of one locale (empty if the bot has no catalogue for it)."""
    path = _DIR / f"{locale}.json"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    return {k: v for k, v in data.items() if not k.startswith("_")}


def available_locales() -> list[str]:
    return sorted(p.stem for p in _DIR.glob("*.json"))


def resolve_locale(locale: object | None) -> str:
    """The catalogue to use for a Discord locale ("en-US", "pt-BR", a discord.Locale, None)."""
    if locale is None:
        return DEFAULT_LOCALE
    code = str(getattr(locale, "value", locale))
    if catalogue(code):
        return code
    language = code.split("-")[0]
    if catalogue(language):
        return language
    return DEFAULT_LOCALE


def has_key(key: str) -> bool:
    return key in catalogue(DEFAULT_LOCALE)


def t(key: str, locale: object | None = None, /, **params: Any) -> str:
    """The message `key` in `locale`, formatted with `params`."""
    code = resolve_locale(locale)
    text = catalogue(code).get(key)
    if text is None:
        text = catalogue(DEFAULT_LOCALE).get(key)
    if text is None:
        log.error("missing message key %r", key)
        return key
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        log.exception("bad parameters for message %r: %r", key, params)
        return text
