"""One message as a renderer hands it to the Discord layer: `Outgoing`, a small frozen value.

Every renderer of a message (a hand, the table, the lobby, the help, a panel) returns one, and
one adapter in the Discord layer (cogs/uno/pictures.py, `deliver`) turns it into discord.py's
keyword arguments: it draws and attaches the picture, keeps the one a message already shows, or
leaves it out when it is late. So the two layers agree on a type, not on the keys of a dict.

An `Outgoing` is the whole message: sent, it posts what it holds; edited onto a message, it
replaces the message's text, embeds, buttons and picture (an empty field clears the old one).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import discord

from bot.ui.pictures import Picture
from bot.ui.plain_view import PlainView

#: A message's components: discord.py's own View, or our DynamicItem rows (plain_view.py).
Components = discord.ui.View | PlainView


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message to send or edit: its `content`, its `embeds`, its `view` (buttons and
    selects; None: none), its `picture` (drawn and attached on the way out; the first embed
    already points at it), other `files` it carries (a record, a whole log: ready-made, sent
    once) and who it may ping (`allowed_mentions`; None: the bot's default, which pings
    nobody, bot/client.py)."""

    content: str | None = None
    embeds: tuple[discord.Embed, ...] = ()
    view: Components | None = None
    picture: Picture | None = None
    files: tuple[discord.File, ...] = ()
    allowed_mentions: discord.AllowedMentions | None = None

    @classmethod
    def of(
        cls,
        embed: discord.Embed | None = None,
        view: Components | None = None,
        *,
        content: str | None = None,
        picture: Picture | None = None,
        files: tuple[discord.File, ...] = (),
    ) -> Outgoing:
        """A message of (at most) one embed, the common shape."""
        embeds = (embed,) if embed is not None else ()
        return cls(content, embeds, view, picture=picture, files=files)

    @property
    def embed(self) -> discord.Embed | None:
        """The first embed (the one a picture is shown in), if any."""
        return self.embeds[0] if self.embeds else None

    def showing(self, picture: Picture | None) -> Outgoing:
        """This message with `picture` as its first embed's image (on a copy of that embed: the
        renderer's stays as it was); None: this message unchanged."""
        if picture is None or not self.embeds:
            return self
        first = self.embeds[0].copy()
        picture.point(first)
        return replace(self, embeds=(first, *self.embeds[1:]), picture=picture)

    def without_picture(self) -> Outgoing:
        """This message sent without its picture (late): no file, and no embed pointing at it
        (on copies: the renderer's embeds stay as they were)."""
        picture = self.picture
        if picture is None:
            return self
        url = f"attachment://{picture.filename}"

        def unpointed(embed: discord.Embed) -> discord.Embed:
            if embed.image.url != url:
                return embed
            embed = embed.copy()
            embed.set_image(url=None)
            return embed

        return replace(self, embeds=tuple(unpointed(e) for e in self.embeds), picture=None)
