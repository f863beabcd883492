"""The emulator's shared core: registries, configurable limits, records, and waiting.

Why: the REST handlers, the gateway and the test driver each need the same registries and the
same "something changed" signal (so tests wait on conditions instead of sleeping). This class
holds them and nothing that does network I/O.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import secrets
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar

from .global_limit import GlobalLimit
from .state import (
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    JSON,
    Channel,
    Fault,
    Guild,
    Interaction,
    Message,
    RequestRecord,
    Snowflakes,
    User,
    Violation,
    walk_components,
)

if TYPE_CHECKING:
    from .gateway import Gateway

T = TypeVar("T")
#: What a `wait_for` predicate returns while it waits (its value is returned once truthy).
Unmet: TypeAlias = Literal[False] | None

EDITABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
CREATE_FLAGS = EDITABLE_FLAGS | FLAG_SUPPRESS_NOTIFICATIONS


class World:
    """Everything the fake Discord knows, plus what the bot did to it."""

    def __init__(self, *, token: str | None = None, bot_name: str = "UNO Bot") -> None:
        # Tunables (tests may shrink the times).
        self.callback_deadline: float = 3.0
        self.token_ttl: float = 15 * 60.0
        self.heartbeat_interval_ms: int = 41250
        self.attachment_size_limit: int = 10 * 1024 * 1024
        self.recommended_shards: int = 1
        # ``(count, seconds)``: answer 429 past ``count`` channel-message edits per channel in
        # ``seconds``. None: never limit (edits are still counted in ``channel_edit_times``).
        self.channel_edit_limit: tuple[int, float] | None = None
        # Discord allows only a few edits of a channel message older than an hour, then answers
        # 400/30046. None: never refuse; a count: refuse the edits of a message older than
        # ``old_message_age`` seconds past that many.
        self.old_message_age: float = 3600.0
        self.old_message_edit_limit: int | None = None
        # Seconds an interaction callback takes to reach Discord (network latency). A callback
        # whose connection closes meanwhile (the bot exits) never arrives: not acknowledged.
        self.callback_latency: float = 0.0
        # Discord's global limit (50 requests/s per token, interaction routes exempt) and its
        # invalid-request limit; ``global_limit.per_second = None`` lifts the first.
        self.global_limit = GlobalLimit()
        # Routes Discord is failing (``fail_route``): each answers 5xx while active.
        self.faults: list[Fault] = []
        # Message nonces sent with ``enforce_nonce``: (channel, author, nonce) -> (message id,
        # time.monotonic() of its creation). Discord returns that message instead of creating
        # another for the same nonce "in the past few minutes": ``nonce_window`` seconds here.
        self.nonces: dict[tuple[int, int, str], tuple[int, float]] = {}
        self.nonce_window: float = 300.0
        # The bot's token: one of this emulator's own unless given. A bot process left over from
        # another run (a crashed test's, another checkout's) keeps reconnecting to its old port;
        # once an emulator reuses the port, its token is refused (401, gateway 4004) instead of
        # that bot acting in this emulator's tests (posting to channels it never had).
        self.token = token or f"fake-discord-token-{secrets.token_hex(8)}"

        self.ids = Snowflakes()
        self.application_id = self.ids.next()
        self.bot_user = User(self.application_id, bot_name, global_name=None, bot=True)
        self.app_owner = User(self.ids.next(), "app-owner", global_name="App Owner")
        self.users: dict[int, User] = {
            self.bot_user.id: self.bot_user,
            self.app_owner.id: self.app_owner,
        }
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}  # user id -> DM channel
        self.messages: dict[int, Message] = {}
        self._by_channel: defaultdict[int, list[Message]] = defaultdict(list)
        self.interactions: dict[int, Interaction] = {}
        self.tokens: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[JSON]] = {}
        self.command_syncs: Counter[int | None] = Counter()
        self.attachment_blobs: dict[int, bytes] = {}
        self.attachment_names: dict[int, str] = {}  # attachment id -> the uploaded file's name
        # (channel id, file name, size, "interactions"/"webhooks"/"channels": the route) of
        # every file an edit uploaded whose bytes equal an attachment the message already had:
        # a picture sent again that nobody needed.
        self.identical_uploads: list[tuple[int, str, int, str]] = []
        self.app_emojis: dict[int, JSON] = {}  # application emojis by id (app_emojis.py)
        self.app_emoji_limit: int = 2000  # Discord's; a test may lower it to see a refusal
        self.emoji_uploads: list[str] = []  # the name of every emoji created, in order

        # Records for assertions.
        self.requests: list[RequestRecord] = []
        self.violations: list[Violation] = []
        self.unknown_routes: list[RequestRecord] = []
        self.interaction_latencies: list[float] = []
        #: When each of those answers came (the loop's clock, `now()`), in the same order.
        self.interaction_answer_times: list[float] = []
        self.failed_interactions: list[Interaction] = []
        self.channel_edit_times: defaultdict[int, list[float]] = defaultdict(list)
        self.rate_limited: int = 0
        # Interaction ids whose callback is on its way (``callback_latency``).
        self.callbacks_in_transit: set[int] = set()

        self.gateway: Gateway | None = None
        self.base_url = "http://127.0.0.1:0"  # set by the server once it listens
        self._waiters: list[asyncio.Future[None]] = []

    @property
    def api_base(self) -> str:
        """For ``discord.http.Route.BASE`` / ``DISCORD_API_BASE``."""
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """For ``DiscordWebSocket.DEFAULT_GATEWAY`` / ``DISCORD_GATEWAY_URL``."""
        return self.base_url.replace("http://", "ws://", 1) + "/ws"

    # -- change notification ---------------------------------------------------------------
    def notify(self) -> None:
        """Wake every ``wait_for``: call after any change a test could wait on."""
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def wait_for(
        self,
        predicate: Callable[[], T | Unmet | Awaitable[T | Unmet]],
        timeout: float = 5.0,
        *,
        what: str | None = None,
        poll: float = 0.02,
    ) -> T:
        """Wait until ``predicate()`` is truthy; return its value. Raise TimeoutError.

        The predicate is checked at every change of the emulator and every ``poll`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                name = what or getattr(predicate, "__name__", repr(predicate))
                raise TimeoutError(f"fakediscord: timed out after {timeout}s waiting for {name}")
            fut: asyncio.Future[None] = loop.create_future()
            self._waiters.append(fut)
            # Also poll: predicates may look at things we are not told about (the bot's cache).
            await asyncio.wait({fut}, timeout=min(remaining, poll))
            if not fut.done():
                fut.cancel()

    # -- faults ------------------------------------------------------------------------------
    def fail_route(
        self,
        method: str,
        path: str,
        *,
        status: int = 500,
        seconds: float | None = None,
        count: int | None = None,
        applied: bool = False,
        containing: str | None = None,
    ) -> Fault:
        """Make Discord answer ``status`` to ``method path`` (``{...}``: any segment) for
        ``seconds``, ``count`` calls, or until ``fault.clear()``; every answered call is kept in
        ``fault.hits``. E.g. ``emu.fail_route("PATCH", "/channels/{id}/messages/{id}")``.
        ``applied``: each call is carried out first and only its answer fails (lost);
        ``containing``: only the calls whose JSON body contains this text fail."""
        until = None if seconds is None else time.monotonic() + seconds
        fault = Fault(
            method.upper(), path, status, until, count, applied=applied, containing=containing
        )
        self.faults.append(fault)
        return fault

    def fault_for(self, method: str, path: str, body: Any = None) -> Fault | None:
        """The active fault a call meets (`body`: its JSON, for faults `containing` a text)."""
        text = "" if body is None else json.dumps(body, ensure_ascii=False)
        return next((f for f in self.faults if f.matches(method, path, text)), None)

    # -- lookups -----------------------------------------------------------------------------
    def guild_of(self, guild: Guild | int) -> Guild:
        return guild if isinstance(guild, Guild) else self.guilds[int(guild)]

    def user_of(self, user: User | int) -> User:
        return user if isinstance(user, User) else self.users[int(user)]

    def message_of(self, message: Message | int) -> Message:
        return message if isinstance(message, Message) else self.messages[int(message)]

    def channel_of(self, channel: Channel | int) -> Channel:
        return channel if isinstance(channel, Channel) else self.channels[int(channel)]

    def channel_messages(self, channel_id: int) -> list[Message]:
        """Public (non-ephemeral, not deleted) messages of a channel, oldest first."""
        return [
            m
            for m in self._by_channel[int(channel_id)]
            if m.ephemeral_for is None and not m.deleted
        ]

    def last_message(self, channel_id: int) -> Message | None:
        msgs = self.channel_messages(channel_id)
        return msgs[-1] if msgs else None

    def visible_messages(self, user_id: User | int, channel_id: int) -> list[Message]:
        """What ``user`` sees in a channel: public messages and their own ephemerals."""
        uid = self.user_of(user_id).id
        return [
            m
            for m in self._by_channel[int(channel_id)]
            if not m.deleted and m.ephemeral_for in (None, uid)
        ]

    def ephemerals(self, user_id: User | int, channel_id: int | None = None) -> list[Message]:
        """The live ephemeral messages ``user`` got, oldest first."""
        uid = self.user_of(user_id).id
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_for == uid
            and not m.deleted
            and (channel_id is None or m.channel_id == int(channel_id))
        ]

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with ``user`` (created on first use)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(self.ids.next(), user.username, None, type=1, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def can_see(self, user: User, message: Message) -> bool:
        if message.deleted or message.ephemeral_for not in (None, user.id):
            return False
        if message.guild_id is None:
            channel = self.channels.get(message.channel_id)
            return channel is not None and channel.recipient is user
        guild = self.guilds.get(message.guild_id)
        return guild is not None and user.id in guild.members

    # -- messages ----------------------------------------------------------------------------
    def add_message(self, message: Message) -> Message:
        self.messages[message.id] = message
        self._by_channel[message.channel_id].append(message)
        channel = self.channels.get(message.channel_id)
        if channel is not None and message.ephemeral_for is None:
            channel.last_message_id = message.id
        self.notify()
        return message

    def new_message(
        self,
        channel_id: int,
        data: JSON,
        *,
        author: User | None = None,
        ephemeral_for: int | None = None,
        interaction: Interaction | None = None,
        msg_type: int = 0,
        extra_flags: int = 0,
    ) -> Message:
        channel = self.channels[channel_id]
        flags = (int(data.get("flags") or 0) & CREATE_FLAGS) | extra_flags
        if ephemeral_for is not None:
            flags |= FLAG_EPHEMERAL
        msg = Message(
            id=self.ids.next(),
            channel_id=channel_id,
            guild_id=channel.guild_id,
            author=author or self.bot_user,
            content=data.get("content") or "",
            embeds=normalize_embeds(data.get("embeds")),
            components=normalize_components(data.get("components")),
            flags=flags,
            attachments=list(data.get("attachments") or []),
            type=msg_type,
            ephemeral_for=ephemeral_for,
            message_reference=data.get("message_reference"),
            allowed_mentions=data.get("allowed_mentions"),
        )
        show_attached_images(msg.embeds, msg.attachments)
        if interaction is not None:
            msg.interaction_id = interaction.id
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            meta: JSON = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": interaction.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
            if interaction.type == 2:
                meta["name"] = interaction.data.get("name")
                meta["command_type"] = interaction.data.get("type", 1)
            if interaction.message_id is not None:
                meta["interacted_message_id"] = str(interaction.message_id)
            if interaction.original_message_id is not None:
                meta["original_response_message_id"] = str(interaction.original_message_id)
            msg.interaction_metadata = meta
        return msg

    def merged_edit(self, message: Message, data: JSON) -> JSON:
        """The message's state after applying a PATCH body (absent keys are kept)."""
        state = message.snapshot()
        for key in ("content", "embeds", "components", "attachments"):
            if key in data:
                state[key] = (
                    data[key] if data[key] is not None else ([] if key != "content" else "")
                )
        if "flags" in data and data["flags"] is not None:
            keep = message.flags & ~EDITABLE_FLAGS | (message.flags & FLAG_COMPONENTS_V2)
            state["flags"] = keep | (int(data["flags"]) & EDITABLE_FLAGS)
        return state

    def commit_edit(self, message: Message, state: JSON, *, clear_loading: bool = True) -> None:
        message.history.append(message.snapshot())
        message.content = state.get("content") or ""
        message.embeds = normalize_embeds(state.get("embeds"))
        message.components = normalize_components(state.get("components"))
        message.attachments = list(state.get("attachments") or [])
        show_attached_images(message.embeds, message.attachments)
        message.flags = int(state.get("flags") or 0)
        if clear_loading:
            message.flags &= ~FLAG_LOADING
        message.edited_at = time.time()
        self.notify()

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        message.deleted_at = time.time()
        self.notify()

    # -- records -----------------------------------------------------------------------------
    def record_violation(self, violation: Violation) -> None:
        self.violations.append(violation)
        if violation.interaction_id is not None:
            inter = self.interactions.get(violation.interaction_id)
            if inter is not None:
                inter.errors.append(violation)
        self.notify()

    def mark_failed(self, interaction: Interaction) -> None:
        if interaction.failed or interaction.acked:
            return
        interaction.failed = True
        self.failed_interactions.append(interaction)
        interaction.done.set()
        self.notify()

    def edits_in_window(self, channel_id: int, window: float = 5.0) -> int:
        """The most channel-endpoint edits seen in any ``window`` seconds in a channel."""
        times = sorted(self.channel_edit_times[int(channel_id)])
        best = 0
        start = 0
        for end, t in enumerate(times):
            while t - times[start] > window:
                start += 1
            best = max(best, end - start + 1)
        return best

    def mark(self) -> tuple[int, int, int]:
        """A checkpoint for ``assert_clean(since=...)`` (an emulator shared by many tests)."""
        return len(self.violations), len(self.unknown_routes), len(self.failed_interactions)

    def assert_clean(
        self, *, allow_failed: bool = False, since: tuple[int, int, int] = (0, 0, 0)
    ) -> None:
        """Fail (AssertionError) on any violation, unknown route, or failed interaction."""
        problems = [str(v) for v in self.violations[since[0] :]]
        problems += [f"unknown route {r.method} {r.path}" for r in self.unknown_routes[since[1] :]]
        if not allow_failed:
            problems += [
                f"interaction {i.id} (type {i.type}, "
                f"{i.data.get('name') or i.data.get('custom_id')}) failed"
                for i in self.failed_interactions[since[2] :]
            ]
        assert not problems, "fakediscord saw problems:\n" + "\n".join(problems)

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def debug_dump(self) -> JSON:
        """A JSON-able summary (the standalone server serves it at ``/_emu/state``)."""
        return {
            "application_id": str(self.application_id),
            "guilds": [
                {
                    "id": str(g.id),
                    "name": g.name,
                    "channels": {str(c.id): c.name for c in g.channels.values()},
                    "members": {str(m.user.id): m.user.username for m in g.members.values()},
                }
                for g in self.guilds.values()
            ],
            "messages": [
                m.payload() | {"ephemeral_for": m.ephemeral_for} for m in self.messages.values()
            ],
            "violations": [str(v) for v in self.violations],
            "unknown_routes": [f"{r.method} {r.path}" for r in self.unknown_routes],
            "command_syncs": {str(k): v for k, v in self.command_syncs.items()},
        }


def normalize_embeds(embeds: Any) -> list[JSON]:
    out = copy.deepcopy(list(embeds or []))
    for e in out:
        e.setdefault("type", "rich")
    return out


def show_attached_images(embeds: list[JSON], attachments: list[JSON]) -> None:
    """Discord shows an embed image given as ``attachment://name`` from the message's own
    attachment of that name: its URL becomes the attachment's. One naming no attachment of the
    message is left as it is (Discord shows no image), so a test can tell."""
    urls = {a.get("filename"): a.get("url") for a in attachments}
    for embed in embeds:
        for part in ("image", "thumbnail"):
            media = embed.get(part)
            if not isinstance(media, dict):
                continue
            url = str(media.get("url") or "")
            name = url.removeprefix("attachment://")
            if url.startswith("attachment://") and urls.get(name):
                media["url"] = media["proxy_url"] = urls[name]


def normalize_components(components: Any) -> list[JSON]:
    """Copy components and number them (``id``) like Discord does."""
    out = copy.deepcopy(list(components or []))
    used: set[int] = set()
    everything = walk_components(out)
    for comp in everything:
        if isinstance(comp.get("id"), int):
            used.add(comp["id"])
    counter = 1
    for comp in everything:
        if not isinstance(comp.get("id"), int):
            while counter in used:
                counter += 1
            comp["id"] = counter
            used.add(counter)
    return out
