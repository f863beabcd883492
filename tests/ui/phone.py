"""An estimate of how tall a message is in Discord's phone client, from the message itself.

Assumptions (Discord's mobile client, a 380-px-wide screen, measured from its look, not its code):

- The message starts with its author line: 40 px (name, time and the space above).
- An embed's text runs ~316 px wide (380 less the message's and the embed's margins; checked
  against a mock-up in headless Chromium): its title (16 px bold) holds 34 characters a line,
  22 px each; its description and fields (14 px) 44 characters a line, 18 px each; a field's
  name is one 18-px line and 4 px of margin; its footer (12 px) 52 characters a line, 16 px
  each, after 8 px. Words are not kept whole (a line holds exactly that many characters),
  an empty line is a line.
- What is counted as shown: markdown marks (`**`, `\\` escapes) are dropped, `<@id>` shows as a
  10-letter "@name", `<t:…:R>` as "in 42 seconds", an emoji is 2 characters wide.
- An embed has 8 px of padding above and 16 below, and 8 px between two embeds; its image is
  shown 300 px wide (narrower pictures at their width), its height in proportion, after 16 px.
- Buttons: a button is 32 px of padding, 7.5 px a label character and 24 px for an emoji; they
  wrap within 348 px with 8-px gaps; each line of buttons is 40 px and 8 px apart, an action
  row always starts a line, and the buttons start 8 px below the embeds.
"""

from __future__ import annotations

import math
import re
from types import SimpleNamespace
from typing import Any

import discord

from bot.ui.outgoing import Outgoing

TEXT_WIDTH = 348  # the buttons' width: 380 less the message's margins
HEADER = 40
TITLE_CHARS, TITLE_LINE = 34, 22
BODY_CHARS, BODY_LINE = 44, 18
FOOTER_CHARS, FOOTER_LINE = 52, 16
EMBED_PADDING, EMBED_GAP = 24, 8
IMAGE_WIDTH, IMAGE_MARGIN = 300, 16
BUTTON_LINE, BUTTON_GAP, BUTTON_PAD, BUTTON_CHAR, BUTTON_EMOJI = 40, 8, 32, 7.5, 24

_MENTION = re.compile(r"<@!?\d+>")
_TIMESTAMP = re.compile(r"<t:\d+(:[tTdDfFR])?>")


def shown(text: str) -> str:
    """`text` as the reader sees it (for its width): no markup, mentions and times filled in."""
    text = _MENTION.sub("@" + "n" * 10, text)
    text = _TIMESTAMP.sub("in 42 seconds", text)
    text = text.replace("**", "").replace("\\", "")
    # an emoji (outside the Basic Multilingual Plane, or with a variation selector) is 2 wide
    return re.sub(r"[\U00010000-\U0010FFFF]|.\ufe0f", "ww", text)


def lines(text: str, per_line: int) -> int:
    return sum(max(1, math.ceil(len(shown(line)) / per_line)) for line in text.split("\n"))


def embed_height(embed: discord.Embed, image: tuple[int, int] | None) -> int:
    height = EMBED_PADDING
    if embed.title:
        height += lines(embed.title, TITLE_CHARS) * TITLE_LINE
    if embed.description:
        height += lines(embed.description, BODY_CHARS) * BODY_LINE
    for field in embed.fields:
        height += BODY_LINE + 4 + lines(field.value or "", BODY_CHARS) * BODY_LINE
    if image is not None and embed.image.url:
        width = min(IMAGE_WIDTH, image[0])
        height += IMAGE_MARGIN + round(image[1] * width / image[0])
    if embed.footer.text:
        height += 8 + lines(embed.footer.text, FOOTER_CHARS) * FOOTER_LINE
    return height


def _rows(view: Any) -> list[list[tuple[str, bool]]]:
    """A view's rows as (label, has an emoji) per button: a discord.ui.View, or a PlainView
    (bot/ui/plain_view.py) whose rows are Discord's JSON (a select counts as one wide button)."""
    if isinstance(getattr(view, "rows", None), list):
        return [
            [(c.get("label") or c.get("placeholder") or "", "emoji" in c) for c in row]
            for row in view.rows
            if row
        ]
    rows: dict[int, list[tuple[str, bool]]] = {}
    for k, item in enumerate(getattr(view, "children", [])):
        inner = getattr(item, "item", item)
        row = inner.row if inner.row is not None else k // 5
        rows.setdefault(row, []).append((inner.label or "", bool(inner.emoji)))
    return list(rows.values())


def buttons_height(view: Any) -> int:
    rows = _rows(view) if view is not None else []
    if not rows:
        return 0
    count = 0
    for items in rows:
        used = None
        for label, emoji in items:
            width = BUTTON_PAD + len(label) * BUTTON_CHAR
            width += BUTTON_EMOJI if emoji else 0
            if used is None or used + BUTTON_GAP + width > TEXT_WIDTH:
                count += 1
                used = width
            else:
                used += BUTTON_GAP + width
    return BUTTON_GAP + count * BUTTON_LINE + (count - 1) * BUTTON_GAP


def phone_height(message: Outgoing | Any, image: tuple[int, int] | None = None) -> int:
    """The estimated height in px of a message (an `Outgoing`, or anything with its `embeds`
    and `view`) in a 380-px phone client; `image`: the size of the picture its embed shows."""
    embeds = message.embeds
    height = HEADER + sum(embed_height(e, image) for e in embeds)
    height += EMBED_GAP * max(0, len(embeds) - 1)
    return height + buttons_height(message.view)


def message_height(
    embeds: list[dict[str, Any]], components: list[dict[str, Any]], image: Any
) -> int:
    """`phone_height` of a message as Discord's JSON has it (the emulator's stored message):
    its embeds and action rows; `image`: its embed picture's size, or None."""

    view = SimpleNamespace(rows=[row.get("components", []) for row in components])
    shown = SimpleNamespace(embeds=[discord.Embed.from_dict(e) for e in embeds], view=view)
    return phone_height(shown, image)
