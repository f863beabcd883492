"""An `Outgoing` (bot/ui/outgoing.py) on its way to Discord: the one place it becomes discord.py's
keyword arguments.

Every renderer returns an `Outgoing`; `ready` draws its picture (off the loop, drawing/renderer.py)
and gives a `Ready`, whose `send()` and `edit()` are the typed keyword arguments of discord.py's
calls that post a message (`Messageable.send`, `InteractionResponse.send_message`, a
follow-up's `Webhook.send`) or edit one (`PartialMessage.edit`, `InteractionResponse.edit_message`,
`Interaction.edit_original_response`). The picture is uploaded as `files` (a new message) or
`attachments` (an edit, which replaces what the message had: an edit without a picture removes
the old one); `keep` leaves the one a message already shows; a late one is left out, the embed
pointing at no image, and the next edit brings it. A message without a picture needs no drawing:
`Ready(message)` is ready as it is.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypedDict, cast

import discord

from bot.ui.outgoing import Components, Outgoing
from cogs.uno.drawing.renderer import PictureLate, picture_file

log = logging.getLogger(__name__)


class SendKwargs(TypedDict, total=False):
    """What every discord.py call that posts a message takes (`Messageable.send`,
    `InteractionResponse.send_message`, `Webhook.send` for follow-ups), typed."""

    content: str
    embeds: Sequence[discord.Embed]
    view: discord.ui.View
    files: Sequence[discord.File]
    allowed_mentions: discord.AllowedMentions


class EditKwargs(TypedDict, total=False):
    """What every discord.py call that edits a message takes (`PartialMessage.edit`,
    `InteractionResponse.edit_message`, `Interaction.edit_original_response`), typed. A key
    left out leaves that part of the message as it is (only `attachments`, when a kept
    picture's attachment is not known)."""

    content: str | None
    embeds: Sequence[discord.Embed]
    view: discord.ui.View | None
    attachments: Sequence[discord.Attachment | discord.File]
    allowed_mentions: discord.AllowedMentions


def _view(view: Components | None) -> discord.ui.View | None:
    # A PlainView offers discord.py everything it reads of a View (bot/ui/plain_view.py): typed
    # as one here, the one place it is handed over.
    return cast(discord.ui.View | None, view)


@dataclass(frozen=True, slots=True)
class Ready:
    """An `Outgoing` ready for discord.py (`ready`): `message` as it goes out (without its
    picture when that was late), the picture's `file` to upload, or `keep` (an edit leaves the
    picture the message shows: its `existing` attachments, when known)."""

    message: Outgoing
    file: discord.File | None = None
    keep: bool = False
    existing: tuple[discord.Attachment, ...] | None = None

    def __post_init__(self) -> None:
        if self.message.picture is not None and self.file is None and not self.keep:
            # Its embed would point at a file that never comes: `ready` draws it, or drops it.
            raise ValueError("a picture must be drawn (`ready`) or kept, not left pending")

    @property
    def pictured(self) -> bool:
        """Whether the message shows a picture once delivered (uploaded or kept): False when
        its picture was left out, late."""
        return self.file is not None or (self.keep and self.message.picture is not None)

    @property
    def shown(self) -> Hashable | None:
        """What the message's picture shows once delivered: its key, or None when it shows
        none (or it was left out, late)."""
        picture = self.message.picture
        return picture.key if picture is not None and self.pictured else None

    def send(self) -> SendKwargs:
        """For a new message: what it holds, the picture uploaded."""
        message = self.message
        out = SendKwargs()
        if message.content is not None:
            out["content"] = message.content
        if message.embeds:
            out["embeds"] = list(message.embeds)
        view = _view(message.view)
        if view is not None:
            out["view"] = view
        files = [self.file, *message.files] if self.file is not None else list(message.files)
        if files:
            out["files"] = files
        if message.allowed_mentions is not None:
            out["allowed_mentions"] = message.allowed_mentions
        return out

    def edit(self) -> EditKwargs:
        """For an edit: the whole message replaced, text, embeds, buttons and picture (kept,
        uploaded anew, or removed)."""
        message = self.message
        out = EditKwargs(
            content=message.content, embeds=list(message.embeds), view=_view(message.view)
        )
        files = list(message.files)
        if not self.keep:
            out["attachments"] = [self.file, *files] if self.file is not None else files
        elif self.existing is not None or files:
            out["attachments"] = [*(self.existing or ()), *files]
        if message.allowed_mentions is not None:
            out["allowed_mentions"] = message.allowed_mentions
        return out


async def ready(
    message: Outgoing,
    *,
    edit: bool,
    keep: bool = False,
    urgent: bool = True,
    existing: Sequence[discord.Attachment] | None = None,
) -> Ready:
    """`message` ready for discord.py: its picture drawn (off the loop, cached) to be attached;
    `keep` (an edit of a message that already shows this picture): nothing drawn, the message
    keeps its file, named by id when its `existing` attachments are known (else the edit leaves
    `attachments` out, which Discord reads as "unchanged"); `urgent` (the default): an
    interaction's answer waits for it. A picture not drawn in time is left out: no file, and
    the embed shows no image (`Ready.pictured` tells)."""
    if keep and edit:
        kept = tuple(existing) if existing is not None else None
        return Ready(message, keep=True, existing=kept)
    picture = message.picture
    if picture is None:
        return Ready(message)
    try:
        file = await picture_file(picture, urgent=urgent)
    except PictureLate:
        log.info("%s left out: not drawn in time", picture.filename)
        return Ready(message.without_picture())
    return Ready(message, file)
