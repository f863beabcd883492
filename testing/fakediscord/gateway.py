"""The gateway: one websocket per bot connection (a shard, or a whole unsharded bot).

Why: discord.py learns about guilds and receives interactions only here. We speak plain-text
JSON frames (discord.py only decompresses binary frames, so asking for compression is fine),
route each guild to the connection whose shard owns it (``(guild_id >> 22) % count``), and
deliver each interaction to exactly one connection: the newest live one owning the guild.
RESUME is honoured (without replaying missed events): discord.py sleeps 5 s before any
re-IDENTIFY, so resuming keeps reconnect tests fast. ``allow_resume = False`` refuses it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import Any

from aiohttp import WSMsgType, web

from .state import JSON
from .world import World

log = logging.getLogger("fakediscord.gateway")

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE = 3
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11


class GatewayConnection:
    """One websocket; ``shard`` is ``(id, count)`` or None (gets every guild)."""

    def __init__(self, ws: web.WebSocketResponse, world: World) -> None:
        self.ws = ws
        self.world = world
        self.session_id = secrets.token_hex(16)
        self.shard: tuple[int, int] | None = None
        self.intents = 0
        self.seq = 0
        self.ready = False
        self.closed = False
        self.identified_at: float | None = None
        self.heartbeats = 0
        self.received: list[JSON] = []
        self._lock = asyncio.Lock()

    def owns(self, guild_id: int | None) -> bool:
        if self.shard is None:
            return True
        shard_id, count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % count == shard_id

    @property
    def live(self) -> bool:
        return self.ready and not self.closed and not self.ws.closed

    async def send(self, op: int, d: Any, t: str | None = None) -> None:
        async with self._lock:
            if self.ws.closed:
                return
            frame: JSON = {"op": op, "d": d, "s": None, "t": t}
            if op == OP_DISPATCH:
                self.seq += 1
                frame["s"] = self.seq
            try:
                await self.ws.send_str(json.dumps(frame))
            except (ConnectionError, RuntimeError) as exc:
                log.debug("send on closed gateway %s: %s", self.session_id, exc)

    async def dispatch(self, event: str, data: JSON) -> None:
        await self.send(OP_DISPATCH, data, event)

    def __repr__(self) -> str:
        return f"<GatewayConnection {self.session_id[:8]} shard={self.shard} ready={self.ready}>"


class Gateway:
    """Accepts bot connections and routes events to them."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.connections: list[GatewayConnection] = []  # every connection ever made
        self.sessions: dict[str, GatewayConnection] = {}  # session id -> its latest connection
        self.allow_resume = True
        self.resumes = 0
        world.gateway = self

    @property
    def live(self) -> list[GatewayConnection]:
        return [c for c in self.connections if c.live]

    def owner_of(self, guild_id: int | None) -> GatewayConnection | None:
        """The connection that receives this guild's interactions (newest wins)."""
        owners = [c for c in self.live if c.owns(guild_id)]
        return max(owners, key=lambda c: c.identified_at or 0.0) if owners else None

    async def dispatch_to_guild(self, guild_id: int | None, event: str, data: JSON) -> None:
        for conn in self.live:
            if conn.owns(guild_id):
                await conn.dispatch(event, data)

    async def reconnect_all(self) -> None:
        """Ask every live connection to reconnect (op 7), like Discord does on maintenance."""
        for conn in self.live:
            await conn.send(OP_RECONNECT, None)

    async def close_all(self, code: int = 1001) -> None:
        for conn in list(self.connections):
            if not conn.ws.closed:
                await conn.ws.close(code=code, message=b"fakediscord stopping")

    # -- the websocket -----------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(compress=False, max_msg_size=16 * 1024 * 1024)
        await ws.prepare(request)
        conn = GatewayConnection(ws, self.world)
        self.connections.append(conn)
        await conn.send(OP_HELLO, {"heartbeat_interval": self.world.heartbeat_interval_ms})
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                conn.received.append(frame)
                await self._on_frame(conn, frame)
        finally:
            conn.closed = True
            self.world.notify()
        return ws

    async def _on_frame(self, conn: GatewayConnection, frame: JSON) -> None:
        op = frame.get("op")
        d = frame.get("d")
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            await conn.send(OP_HEARTBEAT_ACK, None)
        elif op == OP_IDENTIFY:
            await self._identify(conn, d or {})
        elif op == OP_RESUME:
            await self._resume(conn, d or {})
        elif op == OP_REQUEST_MEMBERS:
            await self._members_chunk(conn, d or {})
        elif op == OP_PRESENCE or op is None:
            return
        elif not conn.ready:
            await conn.ws.close(code=4003, message=b"Not authenticated.")

    async def _identify(self, conn: GatewayConnection, d: JSON) -> None:
        world = self.world
        if conn.ready:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        token = str(d.get("token") or "")
        if token.startswith("Bot "):
            token = token[4:]
        if token != world.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = d.get("shard")
        if shard is not None:
            shard_id, count = int(shard[0]), int(shard[1])
            if count < 1 or not 0 <= shard_id < count:
                await conn.ws.close(code=4010, message=b"Invalid shard.")
                return
            conn.shard = (shard_id, count)
        conn.intents = int(d.get("intents") or 0)
        guilds = [g for g in world.guilds.values() if conn.owns(g.id)]
        ready: JSON = {
            "v": 10,
            "user": world.bot_user.payload() | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": conn.session_id,
            "session_type": "normal",
            "resume_gateway_url": world.gateway_url,
            "application": {"id": str(world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fakediscord"],
        }
        if conn.shard is not None:
            ready["shard"] = list(conn.shard)
        await conn.dispatch("READY", ready)
        for guild in guilds:
            await conn.dispatch("GUILD_CREATE", guild.payload(initial=True))
        conn.identified_at = asyncio.get_running_loop().time()
        conn.ready = True
        self.sessions[conn.session_id] = conn
        world.notify()

    async def _resume(self, conn: GatewayConnection, d: JSON) -> None:
        old = self.sessions.get(str(d.get("session_id")))
        token = str(d.get("token") or "")
        token = token[4:] if token.startswith("Bot ") else token
        bad_token = token != self.world.token
        if not self.allow_resume or old is None or bad_token or conn.ready:
            await conn.send(OP_INVALID_SESSION, False)
            return
        if not old.ws.closed:
            await old.ws.close(code=4009, message=b"Session resumed elsewhere.")
        old.closed = True
        conn.session_id, conn.shard, conn.intents = old.session_id, old.shard, old.intents
        conn.seq = max(old.seq, int(d.get("seq") or 0))
        await conn.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        conn.identified_at = asyncio.get_running_loop().time()
        conn.ready = True
        self.sessions[conn.session_id] = conn
        self.resumes += 1
        self.world.notify()

    async def _members_chunk(self, conn: GatewayConnection, d: JSON) -> None:
        guild = self.world.guilds.get(int(d.get("guild_id") or 0))
        if guild is None:
            return
        wanted = {int(u) for u in d.get("user_ids") or []}
        members = [m.payload() for m in guild.members.values() if not wanted or m.user.id in wanted]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if d.get("nonce") is not None:
            chunk["nonce"] = d["nonce"]
        await conn.dispatch("GUILD_MEMBERS_CHUNK", chunk)
