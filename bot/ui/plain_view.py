"""A message's components as Discord's own JSON, for messages whose items are DynamicItems.

A hand is answered on nearly every click. Built from discord.ui objects it costs a View, a
Button and a DynamicItem per card, all thrown away right after `to_components()`; and since a
View is "unfinished", discord.py also files every ephemeral one in its view store with a 15-minute
timer. Our buttons never need either: DynamicItems are dispatched by their custom_id template
(registered once at start-up), not by a stored view. `PlainView` offers discord.py exactly what
it reads from a view when sending or editing (`to_components`, `is_finished`, `is_dispatchable`,
`has_components_v2`, `timeout`) and reports itself finished, so nothing is stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.ui.ids import MAX_LABEL

#: A component as Discord's JSON.
Component = dict[str, Any]
ROW_WIDTH = 5
MAX_ROWS = 5


def _label(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def button(
    custom_id: str,
    *,
    label: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: dict[str, Any] | str | None = None,
    disabled: bool = False,
) -> Component:
    """A button (custom_id checked by the caller's id builder, label cut to Discord's 80)."""
    data: Component = {"type": 2, "style": style.value, "custom_id": custom_id}
    if label:
        data["label"] = _label(label)
    if isinstance(emoji, dict):  # a custom emoji: {"id": ..., "name": ...}
        data["emoji"] = emoji
    elif emoji:
        data["emoji"] = {"name": emoji}
    if disabled:
        data["disabled"] = True
    return data


def select(
    custom_id: str, options: Iterable[tuple[str, str]], *, placeholder: str | None = None
) -> Component:
    """A one-choice string select of (label, value) options (at most 25, labels cut to 100)."""
    data: Component = {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": label[:100], "value": value} for label, value in options][:25],
        "min_values": 1,
        "max_values": 1,
    }
    if placeholder:
        data["placeholder"] = placeholder[:150]
    return data


class PlainView:
    """Rows of components for `send_message`/`edit_message`'s `view=` (see the module doc)."""

    __slots__ = ("rows",)
    __discord_ui_view__ = True  # what discord.py's webhooks check a view by (follow-ups)
    timeout: float | None = None

    def __init__(self) -> None:
        self.rows: list[list[Component]] = [[] for _ in range(MAX_ROWS)]

    def add(self, component: Component, row: int) -> None:
        """Add to `row`; a select takes a whole row, a row holds five buttons."""
        target = self.rows[row]
        if target and (component["type"] != 2 or target[0]["type"] != 2):
            raise ValueError(f"row {row} is taken")
        if len(target) >= ROW_WIDTH:
            raise ValueError(f"row {row} is full")
        target.append(component)

    @property
    def components(self) -> list[Component]:
        """Every component, row by row."""
        return [c for row in self.rows for c in row]

    def to_components(self) -> list[Component]:
        return [{"type": 1, "components": row} for row in self.rows if row]

    def is_finished(self) -> bool:
        return True  # nothing to store: DynamicItems are dispatched by their template

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False
