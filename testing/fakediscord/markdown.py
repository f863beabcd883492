"""What a Discord client reads in message markdown, as far as tests need it.

`shown` is the text a reader sees once backslash escapes are resolved (Discord's escape rule:
a backslash before a character that is neither a letter, a digit nor whitespace shows that
character) and without the invisible bidi isolate marks (U+2066-U+2069) names are wrapped in.
`markup` lists what the client would render as something other than text: masked
links, bare links, mentions and the other `<...>` forms, `@everyone`/`@here`, emphasis, code,
spoilers, and block markup at a line's start. Both are approximations of Discord's client,
strict enough to catch text that was not escaped.
"""

from __future__ import annotations

import re

ESCAPE = re.compile(r"\\([^0-9A-Za-z\s])")
#: Bidi isolate marks: they order the text around them and show nothing themselves.
ISOLATE_MARKS = re.compile("[\u2066-\u2069]")
#: Stands in for an escaped character: it is text, never markup.
_BLANK = "\x00"

_INLINE = {
    "masked link": re.compile(r"\[[^\]\n]*\]\(\s*<?[a-z][a-z0-9+.-]*:[^)\n]*\)", re.I),
    "link": re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s<]+", re.I),
    "mention": re.compile(r"<(?:@[!&]?\d+|#\d+|/[^:>\n]+:\d+|t:-?\d+(?::[tTdDfFR])?|a?:\w+:\d+)>"),
    "everyone/here": re.compile(r"@(?:everyone|here)"),
    "emoji shortcode": re.compile(r":[A-Za-z0-9_+-]+:"),
    "bold/italic": re.compile(r"\*[^*\n]+\*|\*\*.+?\*\*"),
    "underline/italic": re.compile(r"(?<![A-Za-z0-9])_[^_\n]+_|__.+?__"),
    "strikethrough": re.compile(r"~~.+?~~"),
    "spoiler": re.compile(r"\|\|.+?\|\|"),
    "code": re.compile(r"`[^`\n]+`"),
}
_LINE_START = {
    "heading/subtext": re.compile(r"^\s*(?:#{1,3}|-#)\s", re.M),
    "quote": re.compile(r"^\s*>(?:>>)?\s", re.M),
    "list": re.compile(r"^\s*(?:[-*+]|\d+[.)])\s", re.M),
}


def shown(text: str) -> str:
    """The characters a reader sees (markup marks that are live stay in, as they are)."""
    return ESCAPE.sub(r"\1", plain(text))


def plain(text: str) -> str:
    """`text` without the bidi isolate marks names are wrapped in (bot/ui/names.py)."""
    return ISOLATE_MARKS.sub("", text)


def unescaped(text: str) -> str:
    """`text` with every escaped character blanked out: what is left may be read as markup."""
    return ESCAPE.sub(_BLANK, text)


def markup(text: str) -> list[tuple[str, str]]:
    """(kind, source) of every piece of `text` Discord would render as markup."""
    live = unescaped(text)
    found = []
    for kind, pattern in (_INLINE | _LINE_START).items():
        found += [(kind, m.group(0)) for m in pattern.finditer(live)]
    return found
