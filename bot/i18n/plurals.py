"""Plural forms and numbers in a reader's language, from Babel's copy of Unicode CLDR.

A message with a count is stored as one key per plural category, i18next's JSON v4 shape
(`hand.title_one`, `hand.title_other`, and `_few`/`_many`/`_zero`/`_two` where the language has
them), which Weblate and Crowdin read as "i18next JSON". Which category a number falls in is
CLDR's rule for the language (`babel.Locale.plural_form`), never a rule written here.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Final

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal

#: CLDR's plural categories, in the order translators expect to see them.
CATEGORIES: Final = ("zero", "one", "two", "few", "many", "other")
#: The parameter whose number picks the plural form (i18next's convention).
COUNT: Final = "count"


@cache
def babel_locale(code: str) -> Locale | None:
    """Babel's locale for a Discord locale code ("de", "pt-BR", "es-419"), or None if unknown."""
    try:
        return Locale.parse(code.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return None


def _locale_or_english(code: str) -> Locale:
    return babel_locale(code) or babel_locale(code.split("-")[0]) or Locale("en")


@lru_cache(maxsize=8192)
def plural_category(code: str, number: int | float) -> str:
    """CLDR's plural category of `number` in the language of `code` ("one", "few", "other"...)."""
    return _locale_or_english(code).plural_form(abs(number))


def needed_categories(code: str) -> tuple[str, ...]:
    """The plural categories a catalogue for `code` must translate ("other" always)."""
    tags = _locale_or_english(code).plural_form.tags | {"other"}
    return tuple(c for c in CATEGORIES if c in tags)


@lru_cache(maxsize=8192)  # a table edit formats dozens of small numbers: Babel's work, once each
def format_number(number: int | float, code: str) -> str:
    """A number as readers of `code` write it: 1,500 (en), 1.500 (de), 1 500 (no)."""
    return format_decimal(number, locale=_locale_or_english(code))


def split_plural(key: str) -> tuple[str, str | None]:
    """(base key, category) of a catalogue key: ("hand.title", "one") for "hand.title_one"."""
    base, sep, suffix = key.rpartition("_")
    if sep and suffix in CATEGORIES:
        return base, suffix
    return key, None
