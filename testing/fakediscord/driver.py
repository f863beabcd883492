"""The test driver: set up guilds and users, then act like Discord clients.

Why: end-to-end tests should read like a user's session ("Alice runs /uno new, Bob clicks
Join") and never sleep. The driver builds the interactions the real Discord would send
(synced command ids, nested subcommands, resolved users, the whole clicked message), refuses
what a real client cannot do (click a button you cannot see, a disabled one, a missing
custom_id) and hands back an ``InteractionResult`` to await the bot's answer.

Over 500 lines on purpose: the one driver tests act through (users, clicks, commands and
the waits on the bot's answers); split, a test would import half its vocabulary from each.
"""

from __future__ import annotations

import asyncio
import copy
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from .state import (
    ADMINISTRATOR,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    JSON,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    User,
)
from .world import World

SELECT_TYPES = (3, 5, 6, 7, 8)


class DriverError(AssertionError):
    """The driver refused to act: a real Discord client could not do this."""


class InteractionFailed(AssertionError):
    """The bot did not acknowledge in time: the user sees "This interaction failed"."""


class InteractionResult:
    """What happened to one interaction; ``await result`` is ``await result.response()``."""

    def __init__(self, world: World, interaction: Interaction) -> None:
        self._world = world
        self.interaction = interaction

    def __repr__(self) -> str:
        i = self.interaction
        return f"<InteractionResult {i.id} type={i.type} ack={i.ack_type} failed={i.failed}>"

    def __await__(self) -> Any:
        return self.response().__await__()

    @property
    def id(self) -> int:
        return self.interaction.id

    @property
    def delivered(self) -> bool:
        """Whether a bot connection received it (no bot: it can only fail)."""
        return self.interaction.delivered_to is not None

    @property
    def failed(self) -> bool:
        return self.interaction.failed

    @property
    def acked(self) -> bool:
        return self.interaction.acked

    @property
    def ack_type(self) -> int | None:
        """4 message, 5 deferred (thinking), 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.interaction.ack_type

    @property
    def latency(self) -> float | None:
        return self.interaction.latency

    @property
    def errors(self) -> list[Any]:
        """Violations the bot caused through this interaction (e.g. 40060)."""
        return self.interaction.errors

    @property
    def modal(self) -> JSON | None:
        return self.interaction.modal

    @property
    def choices(self) -> list[JSON] | None:
        return self.interaction.choices

    @property
    def message(self) -> Message | None:
        """The answer: the new message (4, 5) or the edited/clicked one (6, 7)."""
        mid = self.interaction.original_message_id
        return None if mid is None else self._world.messages.get(mid)

    @property
    def followups(self) -> list[Message]:
        return [self._world.messages[m] for m in self.interaction.followup_ids]

    async def wait(self, timeout: float | None = None) -> int | None:
        """Wait for the acknowledgement or the failure; the ack type, or None if it failed."""
        i = self.interaction
        if timeout is None:
            timeout = max(0.0, i.deadline - self._world.now()) + 1.0
        try:
            await asyncio.wait_for(i.done.wait(), timeout)
        except TimeoutError:
            return None
        return i.ack_type

    async def response(self, timeout: float | None = None) -> Message | None:
        """The message that answered (None for modals/autocomplete). Raise if it failed."""
        await self.wait(timeout)
        i = self.interaction
        if i.failed or not i.acked:
            reason = (
                "was not delivered to any bot connection" if not self.delivered else "got no answer"
            )
            raise InteractionFailed(
                f"interaction {i.id} ({_describe(i)}) {reason} "
                f"within {self._world.callback_deadline}s"
                + (f"; errors: {[str(e) for e in i.errors]}" if i.errors else "")
            )
        return self.message

    async def settled(self, timeout: float = 5.0) -> Message:
        """The answer once a "thinking" deferral has been filled in."""
        msg = await self.response()
        if msg is None:
            raise DriverError(
                f"interaction {self.id} was answered without a message ({self.ack_type})"
            )
        await self._world.wait_for(
            lambda: not msg.loading, timeout, what=f"deferred {self.id} filled"
        )
        return msg

    async def followup(self, n: int = 1, timeout: float = 5.0) -> Message:
        """The n-th followup message (not the one completing a deferral: see ``settled``)."""
        i = self.interaction
        await self._world.wait_for(lambda: len(i.followup_ids) >= n, timeout, what=f"followup {n}")
        return self._world.messages[i.followup_ids[n - 1]]


def _describe(i: Interaction) -> str:
    if i.type in (2, 4):
        return "/" + " ".join(_command_path(i.data))
    return str(i.data.get("custom_id"))


def _command_path(data: JSON) -> list[str]:
    words = [str(data.get("name"))]
    opts = data.get("options") or []
    while opts and opts[0].get("type") in (1, 2):
        words.append(opts[0]["name"])
        opts = opts[0].get("options") or []
    return words


class Driver(World):
    """World setup and client actions (mixed into ``FakeDiscord``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.enforce_command_permissions = True
        # False: options are sent as a modified client would, unchecked against their choices,
        # ranges and lengths (the bot must re-check every value itself).
        self.validate_options = True
        # Gateway events waiting to be sent: (guild id, event name, payload builder).
        self._outbox: list[tuple[int | None, str, Callable[[], JSON]]] = []
        self._flushers: set[asyncio.Task[None]] = set()
        self._flush_lock: asyncio.Lock | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # the loop serving the emulator
        self._timers: list[asyncio.TimerHandle] = []
        self._user_counter = 0

    # -- world setup -------------------------------------------------------------------------
    def add_guild(
        self,
        name: str = "Test Guild",
        guild_id: int | None = None,
        *,
        shard: tuple[int, int] | None = None,
        locale: str = "en-US",
        channels: Iterable[str] = ("general",),
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
    ) -> Guild:
        """A guild with the bot in it, an owner user, and text channels.

        ``shard=(id, count)`` picks an id that lands on that shard. If a bot is connected, its
        owning shard gets a GUILD_CREATE.
        """
        if guild_id is None:
            guild_id = self.ids.for_shard(*shard) if shard else self.ids.next()
        owner = self._new_user(f"{name.lower().replace(' ', '-')}-owner")
        guild = Guild(guild_id, name, owner.id, self.bot_user, locale=locale)
        guild.roles[guild_id] = Role(guild_id, "@everyone", everyone_permissions, 0)
        bot_role = Role(
            self.ids.next(), self.bot_user.username, bot_permissions, 1, bot_id=self.bot_user.id
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(self.bot_user, guild_id, [bot_role.id])
        guild.members[owner.id] = Member(owner, guild_id)
        self.guilds[guild_id] = guild
        for position, channel_name in enumerate(channels):
            self._make_channel(guild, channel_name, position)
        self._queue_event(guild_id, "GUILD_CREATE", lambda: guild.payload(initial=False))
        self.notify()
        return guild

    def remove_guild(self, guild: Guild | int) -> None:
        """The bot is kicked: GUILD_DELETE to its shard."""
        g = self.guild_of(guild)
        self.guilds.pop(g.id, None)
        self._queue_event(g.id, "GUILD_DELETE", lambda: {"id": str(g.id), "unavailable": False})
        self.notify()

    def _make_channel(
        self, guild: Guild, name: str, position: int, overwrites: list[JSON] | None = None
    ) -> Channel:
        channel = Channel(
            self.ids.next(), name, guild.id, position=position, overwrites=overwrites or []
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_channel(
        self,
        guild: Guild | int,
        name: str = "uno",
        *,
        bot_deny: int = 0,
        bot_allow: int = 0,
        everyone_deny: int = 0,
    ) -> int:
        """A text channel; ``bot_deny`` etc. add permission overwrites. Returns its id."""
        g = self.guild_of(guild)
        overwrites: list[JSON] = []
        if everyone_deny:
            overwrites.append(
                {"id": str(g.id), "type": 0, "allow": "0", "deny": str(everyone_deny)}
            )
        if bot_deny or bot_allow:
            overwrites.append(
                {
                    "id": str(self.bot_user.id),
                    "type": 1,
                    "allow": str(bot_allow),
                    "deny": str(bot_deny),
                }
            )
        channel = self._make_channel(g, name, len(g.channels), overwrites)
        self._queue_event(g.id, "CHANNEL_CREATE", channel.payload)
        self.notify()
        return channel.id

    def _new_user(
        self, name: str, *, global_name: str | None = None, locale: str = "en-US"
    ) -> User:
        user = User(self.ids.next(), name, global_name=global_name or name.title(), locale=locale)
        self.users[user.id] = user
        return user

    def add_user(
        self,
        name: str,
        guild: Guild | int | None = None,
        *,
        permissions: int = 0,
        admin: bool = False,
        owner: bool = False,
        locale: str = "en-US",
        global_name: str | None = None,
    ) -> User:
        """A user (``locale`` is their client's language), optionally a member of ``guild``.

        ``permissions`` are granted through a role of their own (e.g. ``MANAGE_GUILD``);
        ``admin`` gives Administrator; ``owner`` makes them the guild's owner.
        """
        user = self._new_user(name, global_name=global_name, locale=locale)
        if guild is not None:
            self.add_member(user, guild, permissions=permissions, admin=admin, owner=owner)
        return user

    def add_member(
        self,
        user: User | int,
        guild: Guild | int,
        *,
        permissions: int = 0,
        admin: bool = False,
        owner: bool = False,
    ) -> Member:
        u, g = self.user_of(user), self.guild_of(guild)
        member = g.members.get(u.id) or Member(u, g.id)
        g.members[u.id] = member
        if admin:
            permissions |= ADMINISTRATOR
        if permissions:
            member.roles.append(self.add_role(g, f"{u.username}-role", permissions).id)
        if owner:
            g.owner_id = u.id
        self.notify()
        return member

    def add_role(self, guild: Guild | int, name: str, permissions: int) -> Role:
        g = self.guild_of(guild)
        role = Role(self.ids.next(), name, permissions, len(g.roles))
        g.roles[role.id] = role
        return role

    def _queue_event(self, guild_id: int | None, event: str, payload: Callable[[], JSON]) -> None:
        """Send a guild event to the owning connections soon (setup methods are not async)."""
        self._outbox.append((guild_id, event, payload))
        loop = self.loop
        if loop is None or loop.is_closed():
            return  # not serving yet: READY will carry the state
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._start_flusher()
        else:  # called from another thread or loop
            loop.call_soon_threadsafe(self._start_flusher)

    def _start_flusher(self) -> None:
        task = asyncio.ensure_future(self.flush())
        self._flushers.add(task)
        task.add_done_callback(self._flushers.discard)

    async def flush(self) -> None:
        """Send the queued gateway events (GUILD_CREATE, CHANNEL_CREATE...), in order."""
        if self._flush_lock is None:
            self._flush_lock = asyncio.Lock()
        async with self._flush_lock:
            while self._outbox:
                guild_id, event, payload = self._outbox.pop(0)
                if self.gateway is not None:
                    await self.gateway.dispatch_to_guild(guild_id, event, payload())

    # -- waiting -----------------------------------------------------------------------------
    async def wait_for_bot(
        self, timeout: float = 10.0, *, count: int = 1, new: bool = False
    ) -> list[Any]:
        """Wait until ``count`` bot connections are READY (``new``: identified after this call)."""
        assert self.gateway is not None, "start() the emulator first"
        gateway = self.gateway
        since = self.now() if new else float("-inf")

        def ready() -> list[Any]:
            conns = [c for c in gateway.live if (c.identified_at or 0) >= since]
            return conns if len(conns) >= count else []

        return await self.wait_for(ready, timeout, what=f"{count} ready bot connection(s)")

    async def wait_for_commands(
        self, guild: Guild | int | None = None, timeout: float = 10.0, *, syncs: int = 1
    ) -> list[JSON]:
        """Wait until commands of a scope (a guild; None: global) were written ``syncs`` times."""
        scope = None if guild is None else self.guild_of(guild).id
        await self.wait_for(
            lambda: self.command_syncs[scope] >= syncs, timeout, what=f"command sync for {scope}"
        )
        return self.commands.get(scope, [])

    async def wait_for_message(
        self,
        channel_id: int,
        predicate: Callable[[Message], Any] | None = None,
        timeout: float = 5.0,
        *,
        user: User | int | None = None,
    ) -> Message:
        """The newest message of the channel matching ``predicate`` (now, or once it appears
        or is edited to match). ``user``: also search that user's ephemerals."""

        def find() -> Message | None:
            msgs = (
                self.visible_messages(user, channel_id)
                if user is not None
                else self.channel_messages(channel_id)
            )
            for m in reversed(msgs):
                if predicate is None or predicate(m):
                    return m
            return None

        return await self.wait_for(find, timeout, what=f"a message in {channel_id}")

    def find_command(self, guild_id: int | None, name: str) -> JSON | None:
        """The synced command a client would pick: the guild's, else the global one."""
        for scope in (guild_id, None) if guild_id is not None else (None,):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        return None

    # -- interactions ------------------------------------------------------------------------
    async def slash(
        self, user: User | int, channel_id: int, command: str, /, **options: Any
    ) -> InteractionResult:
        """Run ``/command sub ...`` with typed options: ``slash(al, ch, "uno new", rounds=3)``."""
        u = self.user_of(user)
        data = self._command_data(u, channel_id, command, options, focused=None)
        return await self._dispatch(2, u, channel_id, data)

    async def autocomplete(
        self, user: User | int, channel_id: int, command: str, /, focused: str, **options: Any
    ) -> list[JSON]:
        """Type into option ``focused`` (value ``options[focused]``, default ""); the choices."""
        u = self.user_of(user)
        options.setdefault(focused, "")
        data = self._command_data(u, channel_id, command, options, focused=focused)
        result = await self._dispatch(4, u, channel_id, data)
        await result.response()
        return list(result.choices or [])

    async def click(
        self,
        user: User | int,
        message: Message | int,
        custom_id: str | None = None,
        /,
        *,
        label: str | None = None,
    ) -> InteractionResult:
        """Click a button (by ``custom_id`` or ``label``), as the whole stored message shows it."""
        u, msg = self.user_of(user), self.message_of(message)
        self._check_clickable(u, msg)
        if custom_id is None:
            if label is None:
                raise DriverError("click needs a custom_id or a label")
            custom_id = msg.button_by_label(label).custom_id
        comp = msg.component(custom_id or "")
        if comp is None or comp.get("type") != 2:
            raise DriverError(
                f"no button {custom_id!r} on message {msg.id}; buttons: {msg.buttons}"
            )
        if comp.get("disabled"):
            raise DriverError(f"button {custom_id!r} is disabled")
        data = {"custom_id": custom_id, "component_type": 2, "id": comp.get("id")}
        return await self._dispatch(3, u, msg.channel_id, data, message=msg)

    async def forge_click(
        self,
        user: User | int,
        message: Message | int,
        custom_id: str,
        /,
        *,
        values: Iterable[str] | None = None,
    ) -> InteractionResult:
        """A hostile client's click: any ``custom_id`` on a message the user can see.

        Discord's own client only sends custom ids that the message shows; a modified one can
        send anything. The interaction carries the message with the forged component in it (a
        button, or a string select when ``values`` are given), so the bot's library dispatches
        it as it would a real click; the stored message is left as it was.
        """
        u, msg = self.user_of(user), self.message_of(message)
        self._check_clickable(u, msg)
        if values is None:
            component: JSON = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
            data: JSON = {"custom_id": custom_id, "component_type": 2}
        else:
            picked = [str(v) for v in values]
            options = [{"label": v, "value": v} for v in picked] or [{"label": "-", "value": "-"}]
            component = {"type": 3, "custom_id": custom_id, "options": options}
            data = {"custom_id": custom_id, "component_type": 3, "values": picked}
        forged = copy.copy(msg)
        forged.components = [{"type": 1, "components": [component]}]
        return await self._dispatch(3, u, msg.channel_id, data, message=forged)

    async def select(
        self, user: User | int, message: Message | int, custom_id: str, values: Iterable[Any]
    ) -> InteractionResult:
        """Pick ``values`` in a select menu (string values, or users/roles/channels by id)."""
        u, msg = self.user_of(user), self.message_of(message)
        self._check_clickable(u, msg)
        comp = msg.component(custom_id)
        if comp is None or comp.get("type") not in SELECT_TYPES:
            raise DriverError(
                f"no select {custom_id!r} on message {msg.id}; selects: {msg.selects}"
            )
        if comp.get("disabled"):
            raise DriverError(f"select {custom_id!r} is disabled")
        picked = [str(v.id) if isinstance(v, User | Role) else str(v) for v in values]
        lo, hi = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not lo <= len(picked) <= hi:
            raise DriverError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(picked)}")
        data: JSON = {
            "custom_id": custom_id,
            "component_type": comp["type"],
            "values": picked,
            "id": comp.get("id"),
        }
        if comp["type"] == 3:
            allowed = {o.get("value") for o in comp.get("options") or []}
            if not set(picked) <= allowed:
                raise DriverError(
                    f"values {set(picked) - allowed} are not options of {custom_id!r}"
                )
        elif comp["type"] == 5:
            guild = self.guilds.get(msg.guild_id or 0)
            resolved: JSON = {}
            for v in picked:
                self._resolve_user(self.users[int(v)], guild, resolved)
            data["resolved"] = resolved
        return await self._dispatch(3, u, msg.channel_id, data, message=msg)

    async def submit_modal(
        self, user: User | int, opened_by: InteractionResult, values: dict[str, Any] | None = None
    ) -> InteractionResult:
        """Fill and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps an input's custom_id, or its label, to its text (selects: a list).
        """
        u = self.user_of(user)
        origin = opened_by.interaction
        modal = origin.modal
        if modal is None:
            raise DriverError(f"interaction {origin.id} did not open a modal")
        if u is not origin.user:
            raise DriverError("only the user the modal was shown to can submit it")
        values = dict(values or {})
        components = [self._modal_answer(c, values) for c in modal.get("components") or []]
        if values:
            raise DriverError(f"no inputs {sorted(values)} in modal {modal.get('custom_id')!r}")
        data = {"custom_id": modal["custom_id"], "components": components}
        msg = self.messages.get(origin.message_id or 0)
        return await self._dispatch(
            5, u, origin.channel_id, data, message=msg, from_component=msg is not None
        )

    def _modal_answer(self, comp: JSON, values: dict[str, Any], label: str | None = None) -> JSON:
        t = comp.get("type")
        if t == 1:
            return {
                "type": 1,
                "id": comp.get("id"),
                "components": [self._modal_answer(c, values) for c in comp["components"]],
            }
        if t == 18:
            return {
                "type": 18,
                "id": comp.get("id"),
                "component": self._modal_answer(comp["component"], values, comp.get("label")),
            }
        cid = comp.get("custom_id")
        label = comp.get("label") or label
        key = cid if cid in values else label or ""  # "": no answer is keyed by it
        if t == 4:
            value = str(values.pop(key, comp.get("value") or ""))
            if comp.get("required", True) and not value:
                raise DriverError(f"modal input {cid!r} is required")
            if len(value) < int(comp.get("min_length", 0)) or len(value) > int(
                comp.get("max_length", 4000)
            ):
                raise DriverError(f"modal input {cid!r}: length {len(value)} out of bounds")
            return {"type": 4, "id": comp.get("id"), "custom_id": cid, "value": value}
        if t in SELECT_TYPES:
            picked = values.pop(key, [])
            return {
                "type": t,
                "id": comp.get("id"),
                "custom_id": cid,
                "values": [str(v) for v in picked],
            }
        return {"type": t, "id": comp.get("id")}

    def _check_clickable(self, user: User, msg: Message) -> None:
        if not self.can_see(user, msg):
            raise DriverError(f"{user} cannot see message {msg.id}")
        if msg.loading:
            raise DriverError(f"message {msg.id} is still loading")

    # -- building interactions ---------------------------------------------------------------
    def _command_data(
        self,
        user: User,
        channel_id: int,
        command: str,
        options: dict[str, Any],
        *,
        focused: str | None,
    ) -> JSON:
        channel = self.channel_of(channel_id)
        guild = self.guilds.get(channel.guild_id or 0)
        words = command.strip().lstrip("/").split()
        cmd = self.find_command(guild.id if guild else None, words[0])
        if cmd is None:
            raise DriverError(
                f"no synced command /{words[0]} for this channel (synced: {self._synced_names()})"
            )
        self._check_command_allowed(user, channel, guild, cmd)
        resolved: JSON = {}
        opts = self._build_options(
            cmd.get("options") or [], words[1:], dict(options), guild, resolved, focused
        )
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    def _synced_names(self) -> dict[str, list[str]]:
        return {str(scope): [c["name"] for c in cmds] for scope, cmds in self.commands.items()}

    def _check_command_allowed(
        self, user: User, channel: Channel, guild: Guild | None, cmd: JSON
    ) -> None:
        if not self.enforce_command_permissions:
            return
        contexts = cmd.get("contexts")
        if guild is None:
            if cmd.get("dm_permission") is False or (contexts is not None and 1 not in contexts):
                raise DriverError(f"/{cmd['name']} is not available in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise DriverError(f"/{cmd['name']} is not available in guilds")
        needed = cmd.get("default_member_permissions")
        if needed is not None:
            have = guild.permissions(user.id, channel.id)
            if int(needed) & have != int(needed):
                raise DriverError(f"{user} lacks permissions {needed} for /{cmd['name']}")

    def _build_options(
        self,
        defs: list[JSON],
        words: list[str],
        values: dict[str, Any],
        guild: Guild | None,
        resolved: JSON,
        focused: str | None,
    ) -> list[JSON]:
        if words:
            sub = next((o for o in defs if o["name"] == words[0] and o.get("type") in (1, 2)), None)
            if sub is None:
                names = [o["name"] for o in defs if o.get("type") in (1, 2)]
                raise DriverError(f"no subcommand {words[0]!r}; there are {names}")
            inner = self._build_options(
                sub.get("options") or [], words[1:], values, guild, resolved, focused
            )
            return [{"type": sub["type"], "name": sub["name"], "options": inner}]
        subs = [o["name"] for o in defs if o.get("type") in (1, 2)]
        if subs:
            raise DriverError(f"a subcommand is needed: one of {subs}")
        by_name = {o["name"]: o for o in defs}
        unknown = set(values) - set(by_name)
        if unknown:
            raise DriverError(
                f"unknown options {sorted(unknown)}; the command takes {list(by_name)}"
            )
        out: list[JSON] = []
        for opt in defs:
            name = opt["name"]
            if name not in values:
                if opt.get("required") and focused is None:
                    raise DriverError(f"option {name!r} is required")
                continue
            if name == focused:
                out.append(
                    {"type": opt["type"], "name": name, "value": str(values[name]), "focused": True}
                )
            else:
                value = self._option_value(opt, values[name], guild, resolved)
                out.append({"type": opt["type"], "name": name, "value": value})
        return out

    def _option_value(self, opt: JSON, value: Any, guild: Guild | None, resolved: JSON) -> Any:
        t, name = opt["type"], opt["name"]
        if t == 3:
            value = str(value)
            if not self.validate_options:
                return value
            if not int(opt.get("min_length", 0)) <= len(value) <= int(opt.get("max_length", 6000)):
                raise DriverError(f"option {name!r}: length out of bounds")
        elif t == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise DriverError(f"option {name!r} takes an integer, got {value!r}")
        elif t == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise DriverError(f"option {name!r} takes a number, got {value!r}")
        elif t == 5:
            if not isinstance(value, bool):
                raise DriverError(f"option {name!r} takes a boolean, got {value!r}")
        elif t in (6, 9) and (isinstance(value, User) or (t == 6 and int(value) in self.users)):
            user = value if isinstance(value, User) else self.users[int(value)]
            self._resolve_user(user, guild, resolved)
            return str(user.id)
        elif t == 6:
            raise DriverError(f"option {name!r}: unknown user {value!r}")
        elif t in (8, 9):
            role = (
                value
                if isinstance(value, Role)
                else (guild.roles.get(int(value)) if guild else None)
            )
            if role is None:
                raise DriverError(f"option {name!r}: unknown role {value!r}")
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            return str(role.id)
        elif t == 7:
            channel = self.channel_of(value.id if isinstance(value, Channel) else int(value))
            resolved.setdefault("channels", {})[str(channel.id)] = {
                "id": str(channel.id),
                "name": channel.name,
                "type": channel.type,
                "permissions": str(guild.permissions(self.bot_user.id, channel.id) if guild else 0),
            }
            return str(channel.id)
        else:
            raise DriverError(f"option {name!r}: type {t} is not supported by the driver")
        if not self.validate_options:
            return value
        if t in (4, 10) and (
            ("min_value" in opt and value < opt["min_value"])
            or ("max_value" in opt and value > opt["max_value"])
        ):
            raise DriverError(f"option {name!r}: {value} out of range")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise DriverError(
                f"option {name!r}: {value!r} is not one of {[c['value'] for c in choices]}"
            )
        return value

    def _resolve_user(self, user: User, guild: Guild | None, resolved: JSON) -> None:
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id].payload(guild.permissions(user.id))
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member

    async def _dispatch(
        self,
        itype: int,
        user: User,
        channel_id: int,
        data: JSON,
        *,
        message: Message | None = None,
        from_component: bool = False,
    ) -> InteractionResult:
        await self.flush()
        channel = self.channel_of(channel_id)
        guild = self.guilds.get(channel.guild_id or 0)
        iid = self.ids.next()
        token = "itok_" + secrets.token_urlsafe(48)
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": self.attachment_size_limit,
        }
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise DriverError(f"{user} is not a member of guild {guild.name}")
            perms = guild.permissions(user.id, channel.id)
            payload |= {
                "guild_id": str(guild.id),
                "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
                "guild_locale": guild.locale,
                "member": member.payload(perms),
                "channel": channel.payload(perms),
                "app_permissions": str(guild.permissions(self.bot_user.id, channel.id)),
                "authorizing_integration_owners": {"0": str(guild.id)},
                "context": 0,
            }
        else:
            payload |= {
                "user": user.payload(),
                "channel": channel.payload(),
                "app_permissions": str(DEFAULT_BOT_PERMISSIONS),
                "authorizing_integration_owners": {"0": "0"},
                "context": 1,
            }
        if message is not None:
            payload["message"] = message.payload()
        loop = asyncio.get_running_loop()
        now = loop.time()
        inter = Interaction(
            id=iid,
            token=token,
            type=itype,
            user=user,
            guild_id=guild.id if guild else None,
            channel_id=channel.id,
            data=data,
            payload=payload,
            dispatched_at=now,
            deadline=now + self.callback_deadline,
            expires_at=now + self.token_ttl,
            message_id=message.id if message is not None else None,
            from_component=from_component,
        )
        self.interactions[iid] = inter
        self.tokens[token] = inter
        self._timers.append(loop.call_later(self.callback_deadline, self._deadline_passed, inter))
        conn = self.gateway.owner_of(inter.guild_id) if self.gateway is not None else None
        if conn is not None:
            inter.delivered_to = conn.session_id
            await conn.dispatch("INTERACTION_CREATE", payload)
        self.notify()
        return InteractionResult(self, inter)

    def _deadline_passed(self, inter: Interaction) -> None:
        if not inter.acked:
            self.mark_failed(inter)
