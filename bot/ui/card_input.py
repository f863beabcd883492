"""Cards as people type them in `/uno play card:`: codes ("R7", "wd4"), the card names of every
catalogue ("Rot Aussetzen", "Rouge +2"), each language's rule-sheet words and common
alternatives ("Zieh zwei", "wild four", "trekk to"); and the matching behind its autocomplete.

Matching folds case and accents ("grun" finds "Grün", "rod" finds "Rød"); the reader's own
language wins where two languages use one word differently.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from typing import Final

from bot.engine import Card
from bot.i18n import available_locales, t

COLOURS: Final = ("R", "Y", "G", "B", "P", "T", "O", "V")
#: Ranks a colour goes with; the others are wild ranks, typed without a colour.
COLOURED_RANKS: Final = (*"0123456789", "S", "R", "D", "D4", "SE", "DA", "D1", "F", "D5")
WILD_RANKS: Final = ("W", "W4", "WC", "WS", "WX", "WR4", "W6", "W10", "WCR", "W2", "WK", "WDC")

#: Common names besides the catalogue's, per language: rank code -> alternatives. The catalogue's
#: own names (rank.*, color.*) are always understood, in every language.
RANK_ALIASES: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "en": {
        "S": ("skip", "block", "stop"),
        "R": ("reverse", "rev", "switch"),
        "D": ("draw two", "draw 2", "+2", "d2", "plus two", "plus 2"),
        "W": ("wild", "wild card", "colour change", "color change", "w"),
        "W4": (
            "wild draw four",
            "wild draw 4",
            "wild four",
            "wild 4",
            "wd4",
            "w4",
            "+4",
            "draw four",
            "draw 4",
            "plus four",
            "plus 4",
        ),
    },
    "de": {
        "S": ("aussetzen", "aussetzer", "stopp"),
        "R": ("richtungswechsel", "richtung", "retour", "umkehr"),
        "D": ("zieh zwei", "ziehe zwei", "zieh 2", "ziehe 2", "zwei ziehen", "plus zwei"),
        "W": ("farbwechsel", "farbwahl", "farbwunsch", "joker", "wunschkarte"),
        "W4": (
            "zieh vier",
            "ziehe vier",
            "zieh 4",
            "ziehe 4",
            "vier ziehen",
            "plus vier",
            "farbwahl +4",
            "farbwechsel +4",
            "joker +4",
        ),
    },
    "no": {
        "S": ("hopp over", "hopp", "stopp"),
        "R": ("snu", "retning", "retningsskifte", "vend"),
        "D": ("trekk to", "trekk 2", "ta to", "pluss to"),
        "W": ("fargevalg", "fargeskifte", "velg farge", "joker"),
        "W4": ("trekk fire", "trekk 4", "ta fire", "pluss fire", "fargevalg +4", "joker +4"),
    },
    "fr": {
        "S": ("passe", "interdit", "passe ton tour"),
        "R": ("inversion", "sens inverse", "changement de sens"),
        "D": ("plus deux", "pioche deux", "prends deux"),
        "W": ("joker", "changement de couleur"),
        "W4": ("super joker", "joker +4", "pioche quatre", "plus quatre"),
    },
    "es-ES": {
        "S": ("salta", "salto", "pierde turno", "bloqueo"),
        "R": ("reversa", "cambio de sentido", "cambio de direccion"),
        "D": ("roba dos", "roba 2", "+2", "toma dos"),
        "W": ("comodin", "cambio de color"),
        "W4": ("comodin +4", "roba cuatro", "roba 4", "+4"),
    },
    "pt-BR": {
        "S": ("pular", "pula", "bloqueio"),
        "R": ("inverter", "inverte", "reverso"),
        "D": ("compra dois", "compra 2", "mais dois"),
        "W": ("coringa", "curinga", "troca cor", "escolha de cor"),
        "W4": ("coringa +4", "curinga +4", "compra quatro", "compra 4", "mais quatro"),
    },
    "it": {
        "S": ("salta", "salta turno", "stop"),
        "R": ("inverti", "cambio giro", "inversione"),
        "D": ("pesca due", "pesca 2", "+2"),
        "W": ("jolly", "cambio colore"),
        "W4": ("jolly +4", "pesca quattro", "pesca 4", "+4"),
    },
    "pl": {
        "S": ("stop", "postoj", "czekaj", "blokada"),
        "R": ("zmiana kierunku", "kierunek", "odwrocenie"),
        "D": ("wez dwie", "wez 2", "dobierz dwie", "+2"),
        "W": ("zmiana koloru", "joker"),
        "W4": ("wez cztery", "wez 4", "dobierz cztery", "joker +4", "+4"),
    },
    "nl": {
        "S": ("sla over", "overslaan", "beurt overslaan", "stop"),
        "R": ("keer om", "omkeren", "draai om", "retour"),
        "D": ("pak twee", "pak 2", "neem twee", "+2"),
        "W": ("keuzekaart", "kleur kiezen", "joker"),
        "W4": ("keuzekaart pak vier", "pak vier", "pak 4", "neem vier", "+4"),
    },
    "sv-SE": {
        "S": ("hoppa over", "stopp"),
        "R": ("byt riktning", "retur", "vand"),
        "D": ("dra tva", "dra 2", "ta tva", "+2"),
        "W": ("valj farg", "fargval", "joker"),
        "W4": ("dra fyra", "dra 4", "ta fyra", "joker +4", "+4"),
    },
    "da": {
        "S": ("spring over", "stop"),
        "R": ("skift retning", "retur", "vend"),
        "D": ("traek to", "traek 2", "tag to", "+2"),
        "W": ("farveskift", "vaelg farve", "joker"),
        "W4": ("traek fire", "traek 4", "tag fire", "joker +4", "+4"),
    },
}
#: Colour words besides the catalogue's: the code letters, and short forms.
COLOUR_ALIASES: Final[dict[str, tuple[str, ...]]] = {
    "R": ("r",),
    "Y": ("y",),
    "G": ("g",),
    "B": ("b",),
    "P": ("p",),
    "T": ("t",),
    "O": ("o",),
    "V": ("v",),
}

_FOLD = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ß": "ss"})


def fold(text: str) -> str:
    """Lower case, no accents, punctuation as spaces, single spaces: what matching compares."""
    text = unicodedata.normalize("NFKD", text.casefold().translate(_FOLD))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = re.sub(r"[()\[\],.:;_\-/]+", " ", text)
    return " ".join(text.split())


def _words_of(locale: str) -> tuple[dict[str, str], dict[str, str]]:
    ranks: dict[str, str] = {}
    for rank, aliases in RANK_ALIASES.get(locale, {}).items():
        ranks.update((fold(a), rank) for a in aliases)
    # The catalogue's names win over an alias that happens to be another card's name (the
    # coloured Draw Four of Show 'Em No Mercy is "draw four" in English).
    ranks.update((fold(t(f"rank.{r}", locale)), r) for r in (*COLOURED_RANKS, *WILD_RANKS))
    colours = {fold(t(f"color.{c}", locale)): c for c in COLOURS}
    return ranks, colours


@cache
def _tables(locale: str | None) -> tuple[dict[str, str], dict[str, str]]:
    """Folded word -> rank code, and -> colour letter: every language's, the reader's last (so
    it wins a word two languages use differently)."""
    ranks: dict[str, str] = {}
    colours: dict[str, str] = {}
    for c, aliases in COLOUR_ALIASES.items():
        colours.update((a, c) for a in aliases)
    order = [code for code in available_locales() if code not in ("en", locale)]
    for code in [*order, "en", *([locale] if locale in available_locales() else [])]:
        more_ranks, more_colours = _words_of(code)
        ranks.update(more_ranks)
        colours.update(more_colours)
    return ranks, colours


def _locale_code(locale: object) -> str | None:
    value = getattr(locale, "value", locale)
    return str(value) if value is not None else None


def card_from_words(text: str, locale: object = None) -> str | None:
    """A card code from a name or alias ("Rot Aussetzen", "skip red", "wd4"); None if none."""
    ranks, colours = _tables(_locale_code(locale))
    words = fold(text)
    rank = ranks.get(words)
    if rank in WILD_RANKS:
        return rank
    parts = words.split()
    for i in range(1, len(parts)):
        first, second = " ".join(parts[:i]), " ".join(parts[i:])
        for colour, rank_words in ((first, second), (second, first)):
            rank = ranks.get(rank_words)
            if colour in colours and rank is not None and rank in COLOURED_RANKS:
                return colours[colour] + rank
    return None


def parse_card_input(text: str, locale: object = None) -> str | None:
    """A card code (optionally ":uno") from what was typed or picked: "R7", "r7:uno", "Red 7",
    the card's name in any language ("Rot 7"), or a common alias ("Zieh zwei Blau", "wd4")."""
    raw = text.strip()
    uno = raw.lower().endswith(":uno")
    if uno:
        raw = raw[:-4]
    try:
        code: str | None = Card.of(raw).code
    except ValueError:
        code = card_from_words(raw, locale)
    if code is None:
        return None
    return code + (":uno" if uno else "")


def matches(query: str, name: str, code: str) -> bool:
    """Whether what is typed so far fits a card: each typed word begins a word of its name (in
    the reader's language) or its code, whatever the case and accents."""
    wanted = fold(query).split()
    words = [*fold(name).split(), code.casefold()]
    return all(any(word.startswith(w) for word in words) for w in wanted)


def ordered_choices(
    playable: Iterable[tuple[str, str]], held: Iterable[tuple[str, str]], query: str
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The (name, code) pairs matching `query`: the playable ones, then the held ones that are
    not playable now (each code once)."""
    first = [(n, c) for n, c in playable if matches(query, n, c.split(":")[0])]
    can = {c.split(":")[0] for _, c in first}
    seen: set[str] = set()
    later = []
    for n, c in held:
        if c in can or c in seen or not matches(query, n, c):
            continue
        seen.add(c)
        later.append((n, c))
    return first, later
