"""The fake Discord's world: users, guilds, channels, messages and interactions.

Why: the REST API, the gateway and the test driver all read and change one world. Keeping it
in plain dataclasses without any I/O lets a test inspect everything the bot did, and lets the
payload builders (what Discord would send) live next to the data they describe.

Over 500 lines on purpose: the world's plain dataclasses and the payloads built from them
sit together, so that what Discord would send is read next to the data it describes.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import time
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from testing.fakediscord.markdown import ISOLATE_MARKS

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)
DEFAULT_BOT_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | ADD_REACTIONS
    | SEND_MESSAGES_IN_THREADS
)

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15


def iso(ts: float) -> str:
    """Discord's timestamp format for a POSIX time."""
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()


class Snowflakes:
    """Monotonic snowflake ids; can pick one that lands on a given shard."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = max(ms << 22, self._last + 1)
        self._last = value
        return value

    def for_shard(self, shard_id: int, shard_count: int) -> int:
        """A fresh id with ``(id >> 22) % shard_count == shard_id``."""
        base = self.next()
        ts = base >> 22
        ts += (shard_id - ts) % shard_count
        value = (ts << 22) | (base & ((1 << 22) - 1))
        self._last = max(self._last, value)
        return value


@dataclass(eq=False)
class User:
    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "flags": 0,
            "public_flags": 0,
        }

    def __repr__(self) -> str:
        return f"<User {self.username} {self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    bot_id: int | None = None

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.bot_id is not None,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    joined_at: float = field(default_factory=time.time)
    nick: str | None = None

    def payload(self, permissions: int | None = None) -> JSON:
        data: JSON = {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class Channel:
    id: int
    name: str
    guild_id: int | None
    type: int = 0
    position: int = 0
    overwrites: list[JSON] = field(default_factory=list)
    recipient: User | None = None
    last_message_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, permissions: int | None = None) -> JSON:
        if self.type == 1:
            assert self.recipient is not None
            data: JSON = {
                "id": str(self.id),
                "type": 1,
                "recipients": [self.recipient.payload()],
                "last_message_id": _opt_str(self.last_message_id),
                "flags": 0,
            }
        else:
            data = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": self.overwrites,
                "nsfw": False,
                "parent_id": None,
                "topic": None,
                "last_message_id": _opt_str(self.last_message_id),
                "rate_limit_per_user": 0,
                "flags": 0,
            }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


def _opt_str(value: int | None) -> str | None:
    return None if value is None else str(value)


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    bot_user: User
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    created_at: float = field(default_factory=time.time)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    @property
    def default_channel(self) -> int:
        """The first text channel (``general`` unless told otherwise)."""
        return next(iter(self.channels))

    @property
    def bot_member(self) -> Member:
        return self.members[self.bot_user.id]

    def base_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        perms = self.everyone.permissions
        if member is not None:
            for role_id in member.roles:
                role = self.roles.get(role_id)
                if role is not None:
                    perms |= role.permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def permissions(self, user_id: int, channel_id: int | None = None) -> int:
        """Discord's permission algorithm: base, then channel overwrites."""
        perms = self.base_permissions(user_id)
        if perms & ADMINISTRATOR or channel_id is None or channel_id not in self.channels:
            return perms
        member = self.members.get(user_id)
        roles = set(member.roles) if member else set()
        overwrites = {int(o["id"]): o for o in self.channels[channel_id].overwrites}
        if (ow := overwrites.get(self.id)) is not None:
            perms = (perms & ~int(ow["deny"])) | int(ow["allow"])
        allow = deny = 0
        for role_id in roles:
            if (ow := overwrites.get(role_id)) is not None:
                allow |= int(ow["allow"])
                deny |= int(ow["deny"])
        perms = (perms & ~deny) | allow
        if (ow := overwrites.get(user_id)) is not None:
            perms = (perms & ~int(ow["deny"])) | int(ow["allow"])
        return perms

    def payload(self, *, initial: bool) -> JSON:
        """A GUILD_CREATE payload (``initial``: part of the READY burst)."""
        me = self.bot_member
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": self.locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "application_id": None,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [r.payload() for r in self.roles.values()],
            "joined_at": iso(me.joined_at),
            "large": False,
            "lazy": True,
            "member_count": len(self.members),
            "members": [me.payload()],
            "channels": [c.payload() for c in self.channels.values()],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
        if initial:
            data["unavailable"] = False
        return data

    def rest_payload(self) -> JSON:
        """``GET /guilds/{id}``: no channels nor members."""
        data = self.payload(initial=False)
        for key in ("channels", "members", "threads", "presences", "voice_states", "joined_at"):
            data.pop(key, None)
        data["approximate_member_count"] = len(self.members)
        data["approximate_presence_count"] = 0
        return data


class Button(NamedTuple):
    """A flattened button of a message, as a test sees it."""

    custom_id: str | None
    label: str | None
    disabled: bool
    style: int


def walk_components(components: list[JSON]) -> list[JSON]:
    """Every component of a tree, depth first (rows, containers, sections' accessories)."""
    out: list[JSON] = []
    for comp in components:
        out.append(comp)
        out.extend(walk_components(comp.get("components") or []))
        if isinstance(comp.get("accessory"), dict):
            out.extend(walk_components([comp["accessory"]]))
        if isinstance(comp.get("component"), dict):
            out.extend(walk_components([comp["component"]]))
    return out


def visible_text(content: str, embeds: list[JSON], components: list[JSON] | None) -> str:
    """All human-visible text of a message's state: content, embeds, V2 text displays, labels
    (without the bidi isolate marks around names: they show nothing)."""
    parts = [content]
    for e in embeds:
        parts += [e.get("title") or "", e.get("description") or ""]
        parts += [(e.get("author") or {}).get("name") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        parts += [(e.get("footer") or {}).get("text") or ""]
    for c in walk_components(components or []):
        parts += [c.get("content") or "", c.get("label") or "", c.get("placeholder") or ""]
    return ISOLATE_MARKS.sub("", "\n".join(p for p in parts if p))


def markdown_texts(content: str, embeds: list[JSON], components: list[JSON] | None) -> list[str]:
    """The texts of a message's state that Discord renders as markdown."""
    parts = [content]
    for e in embeds:
        parts += [e.get("title") or "", e.get("description") or ""]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
    parts += [c.get("content") or "" for c in walk_components(components or [])]
    return [p for p in parts if p]


#: A user mention in message content: <@id> or the legacy nickname form <@!id>.
USER_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(eq=False)
class Message:
    """A stored message: public, ephemeral (``ephemeral_for``) or a DM."""

    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[JSON] = field(default_factory=list)
    type: int = 0
    ephemeral_for: int | None = None
    interaction_id: int | None = None
    interaction_metadata: JSON | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    message_reference: JSON | None = None
    allowed_mentions: JSON | None = None  # as the creating request sent it (None: not sent)
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    deleted: bool = False
    deleted_at: float | None = None
    history: list[JSON] = field(default_factory=list)
    old_edits: int = 0  # edits made once the message was older than World.old_message_age

    # -- helpers for tests -------------------------------------------------------------------
    @property
    def message_id(self) -> int:
        return self.id

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def components_v2(self) -> bool:
        return bool(self.flags & FLAG_COMPONENTS_V2)

    @property
    def embed(self) -> JSON | None:
        return self.embeds[0] if self.embeds else None

    @property
    def all_components(self) -> list[JSON]:
        return walk_components(self.components)

    @property
    def buttons(self) -> list[Button]:
        return [
            Button(c.get("custom_id"), c.get("label"), bool(c.get("disabled")), c.get("style", 1))
            for c in self.all_components
            if c.get("type") == 2
        ]

    @property
    def button_emojis(self) -> dict[str | None, JSON]:
        """custom_id -> the button's emoji: {"name": "🟥"} or a custom {"id": ..., "name": ...}."""
        return {
            c.get("custom_id"): c["emoji"]
            for c in self.all_components
            if c.get("type") == 2 and c.get("emoji")
        }

    @property
    def selects(self) -> list[JSON]:
        return [c for c in self.all_components if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components if c.get("custom_id")]

    def component(self, custom_id: str) -> JSON | None:
        return next((c for c in self.all_components if c.get("custom_id") == custom_id), None)

    def button_by_label(self, label: str) -> Button:
        """The first button whose label equals (or else contains) ``label``."""
        buttons = self.buttons
        for b in buttons:
            if b.label == label:
                return b
        for b in buttons:
            if b.label and label in b.label:
                return b
        raise LookupError(f"no button labelled {label!r} on message {self.id}: {buttons}")

    @property
    def text(self) -> str:
        """All human-visible text: content, embeds, V2 text displays, button labels."""
        return visible_text(self.content, self.embeds, self.components)

    @property
    def markdown_versions(self) -> list[list[str]]:
        """Every version of the message, oldest first (each edit keeps the one before it in
        ``history``): its texts that Discord reads as markdown (content, embed titles,
        descriptions and fields, V2 text displays; not footers, authors or labels)."""
        return [
            markdown_texts(v.get("content") or "", v.get("embeds") or [], v.get("components"))
            for v in [*self.history, self.snapshot()]
        ]

    @property
    def notified(self) -> set[int]:
        """Users this message notified: those mentioned in it as it was created and let through
        by its ``allowed_mentions`` (absent: every mention). An edit never notifies anybody."""
        content = self.history[0]["content"] if self.history else self.content
        mentioned = {int(x) for x in USER_MENTION.findall(content or "")}
        allowed = self.allowed_mentions
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        return mentioned & {int(u) for u in allowed.get("users") or []}

    @property
    def edit_count(self) -> int:
        return len(self.history)

    def snapshot(self) -> JSON:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "flags": self.flags,
            "attachments": self.attachments,
            "edited_at": self.edited_at,
        }

    def payload(self) -> JSON:
        """The message as Discord returns it (REST answers and ``interaction.message``)."""
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        return data

    def __repr__(self) -> str:
        eph = f" ephemeral_for={self.ephemeral_for}" if self.ephemeral_for else ""
        return f"<Message {self.id} ch={self.channel_id}{eph} {self.content[:40]!r}>"


@dataclass(eq=False)
class Interaction:
    """An interaction the driver sent, and what the bot did with it."""

    id: int
    token: str
    type: int
    user: User
    guild_id: int | None
    channel_id: int
    data: JSON
    payload: JSON
    dispatched_at: float
    deadline: float
    expires_at: float
    message_id: int | None = None  # the clicked message (component interactions)
    from_component: bool = False  # modal submits opened from a component
    delivered_to: str | None = None  # gateway session id
    ack_type: int | None = None
    acked_at: float | None = None
    failed: bool = False
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: JSON | None = None
    choices: list[JSON] | None = None
    errors: list[Violation] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def acked(self) -> bool:
        return self.ack_type is not None

    @property
    def latency(self) -> float | None:
        return None if self.acked_at is None else self.acked_at - self.dispatched_at


@dataclass
class Violation:
    """A request the real Discord would have refused."""

    kind: str
    message: str
    method: str
    path: str
    status: int
    code: int
    errors: JSON | None = None
    interaction_id: int | None = None
    time: float = field(default_factory=time.time)

    def __str__(self) -> str:
        extra = f" {self.errors}" if self.errors else ""
        head = f"{self.kind}: {self.method} {self.path} -> {self.status}/{self.code}"
        return f"{head} {self.message}{extra}"


@dataclass
class RequestRecord:
    """One REST call the bot made."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    status: int = 0
    time: float = field(default_factory=time.time)
    files: list[str] = field(default_factory=list)


#: What Discord answers when it fails, by status (its body for internal errors).
FAULT_MESSAGES = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


@dataclass
class Fault:
    """Discord failing one route for a while: matching calls are answered ``status`` instead.

    Why: Discord has outages (a 500 on a route for tens of seconds while discord.py's own few
    retries give up); the bot must recover from them by itself. ``path`` is a route template
    like ``/channels/{id}/messages/{id}`` (``{...}`` matches any one segment) or a concrete path.
    Active until ``clear()``, until ``until`` (``time.monotonic()``) or after ``count`` answers.
    ``applied``: Discord carries the call out, and only its answer is the error (a response lost
    on the way back: the message exists, the bot does not know it). ``containing``: only calls
    whose JSON body contains this text fail (one kind of message, e.g. a round's results, while
    the channel's other posts go through).
    """

    method: str
    path: str
    status: int = 500
    until: float | None = None
    count: int | None = None
    applied: bool = False
    containing: str | None = None
    hits: list[RequestRecord] = field(default_factory=list)
    cleared_at: float | None = None  # time.monotonic() when it stopped failing (by clear())

    def __post_init__(self) -> None:
        if self.status not in FAULT_MESSAGES:
            raise ValueError(f"fault status must be one of {sorted(FAULT_MESSAGES)}")
        pattern = re.sub(r"\\\{\w*\\\}", "[^/]+", re.escape(self.path))
        self._regex = re.compile(f"^{pattern}$")

    @property
    def active(self) -> bool:
        if self.cleared_at is not None:
            return False
        if self.until is not None and time.monotonic() >= self.until:
            return False
        return self.count is None or len(self.hits) < self.count

    def matches(self, method: str, path: str, body: str = "") -> bool:
        if self.containing is not None and self.containing not in body:
            return False
        return self.active and method == self.method and bool(self._regex.match(path))

    def body(self) -> JSON:
        """Discord's answer to a call it failed."""
        return {"message": FAULT_MESSAGES[self.status], "code": 0}

    def clear(self) -> None:
        """Discord recovers: the route answers normally again."""
        if self.cleared_at is None:
            self.cleared_at = time.monotonic()
