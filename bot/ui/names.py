"""Names and other text typed by users, made literal for Discord's markdown.

A display name goes into public messages (the table, the results, the lobby, the
leaderboard), where Discord reads markdown: `[Nitro](https://evil.example/x)` would become a
masked link, `@everyone` or `<@123>` would read like a ping, `**x**` would turn bold, `# x` at
a line's start a heading. `literal` puts a backslash before each character that could start
markup; Discord shows a backslash-escaped character as itself (its escape rule takes a
backslash before any character that is neither a letter, a digit nor a space), so readers see
the exact name and nothing of it is read as markup:

- anywhere: a backslash (else a trailing one would escape the message's next character),
  the emphasis, spoiler and code marks `*`, `_`, `~`, `|` and the backtick, the brackets of a
  masked link `[ ]`, the `<` that opens a mention, channel, role, command, timestamp, custom
  emoji or `<url>`, the `@` of `@everyone`/`@here`, and `:` (a bare `https://` link, an
  emoji shortcode);
- at the name's start, which may be a line's start: a heading or subtext (`#`, `-#`), a quote
  (`>`), a list item (`-`, `+`, `1.`).

Other punctuation (`Jean-Luc`, `O'Brien`, `Dr. Who`, `Bot Ann (easy)`) is left alone.

Why not `discord.utils.escape_markdown` and `escape_mentions` (discord.py 2.7): the first
escapes only the `[` of a masked link and none of the link text's own markdown (it consumes
the whole link), leaves every `<...>` form (`<@123>`, `<@&1>`, `<#1>`, `</cmd:1>`,
`<t:1:R>`), `@everyone`, `@here`, bare links and ordered lists (`1.`) as they are; the second
changes the name (a zero-width space after the `@`) and matches only 17-20 digit ids.

A name is also bidi-isolated: wrapped in U+2068 FIRST STRONG ISOLATE ... U+2069 POP DIRECTIONAL
ISOLATE (Unicode's bidirectional algorithm, UAX #9), so its direction is its own and stops at its
end. Without it, a name ending in an unterminated U+202E RIGHT-TO-LEFT OVERRIDE would show the
rest of its line backwards ("Ann played a Red 7" as "7 deR a deyalp"), and a right-to-left name
would pull the numbers after it into its own run. The isolate's end closes any embedding or
override the name opened; only an isolate mark inside the name could close it early, so the
name's own isolate marks (U+2066-U+2069, invisible) are dropped. Pictures draw each name on its
own and drop every format character (art/lettering.py `drawable`), so nothing of a name reaches
the text around it there either.

Escape where a name is put into markdown text, once. Never escape stored names (the database
keeps the exact name), button labels, select options, footers, author names or alt text:
Discord reads no markdown there, so a backslash would show.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: Characters that can start markup wherever they are.
_INLINE = re.compile(r"([\\*_~|`\[\]<@:])")
#: Bidi isolates (U+2066 LRI, U+2067 RLI, U+2068 FSI, U+2069 PDI): one inside a name could end
#: the name's own isolate early.
_ISOLATE_MARKS = re.compile("[\u2066-\u2069]")
FIRST_STRONG_ISOLATE = "\u2068"
POP_DIRECTIONAL_ISOLATE = "\u2069"
#: Block markup at a line's start: heading/subtext, quote, list item, ordered list item.
_LINE_START = re.compile(r"^(\s*)(?:([#>+-])|(\d+)([.)]))")


def literal(text: str) -> str:
    """`text` as Discord markdown that shows exactly `text`, on one line (a name has no line
    breaks; any would start a new markdown block, so they become spaces), bidi-isolated from
    the text around it (see the module's docstring)."""
    text = _INLINE.sub(r"\\\1", " ".join(text.splitlines()))
    return isolated(_LINE_START.sub(_escape_block, text, count=1))


def isolated(text: str) -> str:
    """`text` in a bidi isolate of its own: whatever directional marks it holds, they reach
    neither the text before it nor the text after it."""
    return FIRST_STRONG_ISOLATE + _ISOLATE_MARKS.sub("", text) + POP_DIRECTIONAL_ISOLATE


def _escape_block(m: re.Match[str]) -> str:
    indent, mark, number, dot = m.groups()
    return f"{indent}\\{mark}" if mark else f"{indent}{number}\\{dot}"


def literal_name(names: Mapping[int, str], user: int) -> str:
    """`user`'s name from `names` (their id when unknown), made literal."""
    return literal(names.get(user, str(user)))
