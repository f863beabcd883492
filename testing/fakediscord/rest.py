"""The REST API under ``/api/v10``: what a bot calls, with Discord's answers and refusals.

Why: discord.py drives everything (login, command sync, interaction callbacks, followups,
channel messages) through these routes. Each handler enforces the rule the real Discord
enforces (deadlines, single acknowledgement, token lifetime, form limits, ephemeral privacy)
and records every refusal as a ``Violation`` so a test can assert none happened.
Replies are built by hand: discord.py wants ``Content-Type: application/json`` exactly.

Over 500 lines on purpose: one short handler per Discord route the bot uses, each beside
the rule it enforces; split by resource, the routes would still share `Rest`'s world and
checks, and a reader would lose the one list of what the emulator answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from . import global_limit, limits
from .state import (
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    JSON,
    MANAGE_MESSAGES,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    Channel,
    Fault,
    Interaction,
    Message,
    RequestRecord,
    Violation,
    walk_components,
)
from .world import World

log = logging.getLogger("fakediscord.rest")

# Which callback types each interaction type accepts (1 ping is never sent by the driver).
CALLBACKS: dict[int, set[int]] = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5}}

Reply = tuple[int, Any]

CALLBACK_PATH = re.compile(r"^/interactions/(?P<id>\d+)/[^/]+/callback$")


class ApiError(Exception):
    """A Discord error answer; ``kind`` set: also a rule violation to record."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: JSON | None = None,
        *,
        kind: str | None = None,
        interaction: Interaction | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.kind = kind
        self.interaction = interaction

    def body(self) -> JSON:
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def invalid_form(issues: list[limits.Issue], interaction: Interaction | None = None) -> ApiError:
    return ApiError(
        400,
        50035,
        "Invalid Form Body",
        limits.form_errors(issues),
        kind="invalid_form_body",
        interaction=interaction,
    )


@dataclass
class Upload:
    index: int
    filename: str
    data: bytes
    content_type: str


@dataclass
class Call:
    request: web.Request
    params: dict[str, str]
    json: Any
    record: RequestRecord
    uploads: list[Upload] = field(default_factory=list)

    @property
    def query(self) -> dict[str, str]:
        return dict(self.request.query)

    @property
    def body(self) -> JSON:
        return self.json if isinstance(self.json, dict) else {}


Handler = Callable[[Call], Awaitable[Reply]]


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    if status == 204 or body is None:
        return web.Response(status=204, headers=headers)
    hdrs = {"Content-Type": "application/json"}
    hdrs.update(headers or {})
    return web.Response(status=status, body=json.dumps(body).encode(), headers=hdrs)


def ratelimit_headers() -> dict[str, str]:
    """Generous bucket headers, so discord.py does not serialise requests per route."""
    return {
        "X-RateLimit-Limit": "50",
        "X-RateLimit-Remaining": "49",
        "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
        "X-RateLimit-Reset-After": "1.000",
    }


class Rest:
    """Routes ``/api/v{n}/...`` to handlers; records every call."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._routes: list[tuple[str, re.Pattern[str], Handler, bool]] = []
        r = self._add
        # users, applications, gateway
        r("GET", "/users/@me", self.get_me)
        r("GET", "/users/{user_id}", self.get_user)
        r("POST", "/users/@me/channels", self.create_dm)
        r("DELETE", "/users/@me/guilds/{guild_id}", self.leave_guild)
        r("GET", "/oauth2/applications/@me", self.get_application)
        r("GET", "/applications/@me", self.get_application)
        r("GET", "/gateway", self.get_gateway)
        r("GET", "/gateway/bot", self.get_gateway_bot)
        # application commands
        for prefix in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self.list_commands)
            r("PUT", prefix + "/commands", self.put_commands)
            r("POST", prefix + "/commands", self.upsert_command)
            r("GET", prefix + "/commands/{command_id}", self.get_command)
            r("PATCH", prefix + "/commands/{command_id}", self.patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self.delete_command)
        r("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self.no_perms)
        # interactions (no bot token: the interaction token authenticates)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self.callback, auth=False)
        hook = "/webhooks/{app_id}/{token}"
        r("POST", hook, self.followup, auth=False)
        r("GET", hook + "/messages/{message_id}", self.get_hook_message, auth=False)
        r("PATCH", hook + "/messages/{message_id}", self.edit_hook_message, auth=False)
        r("DELETE", hook + "/messages/{message_id}", self.delete_hook_message, auth=False)
        # channels
        r("GET", "/channels/{channel_id}", self.get_channel)
        r("GET", "/channels/{channel_id}/messages", self.list_messages)
        r("POST", "/channels/{channel_id}/messages", self.create_message)
        r("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message)
        r("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message)
        r("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message)
        r("POST", "/channels/{channel_id}/typing", self.typing)
        # guilds
        r("GET", "/guilds/{guild_id}", self.get_guild)
        r("GET", "/guilds/{guild_id}/channels", self.get_guild_channels)
        r("GET", "/guilds/{guild_id}/roles", self.get_guild_roles)
        r("GET", "/guilds/{guild_id}/members", self.list_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member)

    def _add(self, method: str, pattern: str, handler: Handler, *, auth: bool = True) -> None:
        regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern)
        self._routes.append((method, re.compile(f"^{regex}$"), handler, auth))

    # -- plumbing ----------------------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.Response:
        world = self.world
        path = "/" + request.match_info.get("tail", "")
        record = RequestRecord(request.method, path, dict(request.query), None)
        world.requests.append(record)
        headers = ratelimit_headers()
        refused = self._over_global_limit(request, path, record)
        if refused is not None:
            return refused
        try:
            call = await self._parse(request, path, record)
            fault = self._fault(call)
            if fault is not None:
                if fault.applied:  # carried out; only the answer is lost
                    with contextlib.suppress(ApiError):
                        await self._route(call)
                    world.notify()
                return json_response(fault.status, fault.body(), headers)
            if not await self._arrived(call):
                return web.Response(status=204)  # the bot is gone: nobody reads this
            status, body = await self._route(call)
        except ApiError as err:
            status, body = err.status, err.body()
            if err.status == 429:
                headers = err.errors or {}
                body = {
                    "message": err.message,
                    "retry_after": float(headers["Retry-After"]),
                    "global": False,
                }
            elif err.kind is not None:
                world.record_violation(
                    Violation(
                        err.kind,
                        err.message,
                        request.method,
                        path,
                        err.status,
                        err.code,
                        err.errors,
                        err.interaction.id if err.interaction else None,
                    )
                )
                log.warning(
                    "fakediscord refused %s %s: %s %s",
                    request.method,
                    re.sub(r"itok_[\w-]+", "itok_...", path),
                    err.message,
                    err.errors or "",
                )
        record.status = status
        self._answered(status, headers.get("X-RateLimit-Scope"), record)
        world.notify()
        return json_response(status, body, headers)

    def _over_global_limit(
        self, request: web.Request, path: str, record: RequestRecord
    ) -> web.Response | None:
        """Discord's answer when the address is banned or the token is past its global limit
        (``World.global_limit``), else None."""
        limit = self.world.global_limit
        if limit.banned():
            # Cloudflare's ban: no JSON, no Via header (discord.py tells it from a 429 so).
            record.status = 429
            self.world.notify()
            return web.Response(status=429, text="error code: 1015", content_type="text/plain")
        token = global_limit.interaction_token(path)
        exempt = token is not None and token in self.world.tokens
        retry = limit.admit(
            request.headers.get("Authorization", "") or str(request.remote), exempt=exempt
        )
        if retry is None:
            return None
        headers, body = global_limit.global_429(retry)
        record.status = 429
        self._answered(429, "global", record)
        self.world.notify()
        return json_response(429, body, headers)

    def _answered(self, status: int, scope: str | None, record: RequestRecord) -> None:
        if self.world.global_limit.answered(status, scope):
            self.world.record_violation(
                Violation(
                    "cloudflare_ban",
                    f"{self.world.global_limit.invalid_max} invalid requests (401, 403, 429) "
                    "within the window: the address is banned",
                    record.method,
                    record.path,
                    429,
                    0,
                    None,
                    None,
                )
            )

    async def _parse(self, request: web.Request, path: str, record: RequestRecord) -> Call:
        payload: Any = None
        uploads: list[Upload] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                assert isinstance(part, BodyPartReader)  # discord.py nests no multipart
                name = getattr(part, "name", None) or ""
                if name == "payload_json":
                    payload = json.loads(await part.text())
                    continue
                data = await part.read()
                m = re.match(r"files\[(\d+)\]", name)
                index = int(m.group(1)) if m else len(uploads)
                filename = getattr(part, "filename", None) or f"file{index}"
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                uploads.append(Upload(index, filename, bytes(data), ctype))
                record.files.append(filename)
        elif request.can_read_body:
            raw = await request.read()
            if raw:
                try:
                    payload = json.loads(raw)
                except ValueError as exc:
                    raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc
        record.json = payload
        return Call(request, {}, payload, record, uploads)

    def _fault(self, call: Call) -> Fault | None:
        """The injected fault (``World.fail_route``) this call meets, recorded, if any."""
        record = call.record
        fault = self.world.fault_for(record.method, record.path, record.json)
        if fault is not None:
            fault.hits.append(record)
            record.status = fault.status
            self.world.notify()
        return fault

    async def _arrived(self, call: Call) -> bool:
        """Model ``callback_latency``: an interaction callback reaches Discord that much later,
        and not at all if its connection closed meanwhile (``record.status`` stays 0)."""
        w = self.world
        m = CALLBACK_PATH.match(call.record.path)
        if m is None or w.callback_latency <= 0:
            return True
        inter_id = int(m["id"])
        w.callbacks_in_transit.add(inter_id)
        w.notify()
        try:
            await asyncio.sleep(w.callback_latency)
        finally:
            w.callbacks_in_transit.discard(inter_id)
            w.notify()
        transport = call.request.transport
        return transport is not None and not transport.is_closing()

    async def _route(self, call: Call) -> Reply:
        request = call.request
        path = call.record.path
        path_known = False
        for method, regex, handler, auth in self._routes:
            m = regex.match(path)
            if m is None:
                continue
            path_known = True
            if method != request.method:
                continue
            if auth:
                self._check_auth(request)
            call.params = m.groupdict()
            return await handler(call)
        self.world.unknown_routes.append(call.record)
        log.warning("fakediscord: unknown route %s %s", request.method, path)
        if path_known:
            raise ApiError(405, 0, "405: Method Not Allowed")
        raise ApiError(404, 0, "404: Not Found")

    def _check_auth(self, request: web.Request) -> None:
        auth = request.headers.get("Authorization", "")
        token = auth[4:] if auth.startswith("Bot ") else ""
        if token != self.world.token:
            raise ApiError(401, 0, "401: Unauthorized")

    # -- users, application, gateway ---------------------------------------------------------
    async def get_me(self, call: Call) -> Reply:
        return 200, self.world.bot_user.payload() | {"verified": True, "mfa_enabled": False}

    async def get_user(self, call: Call) -> Reply:
        user = self.world.users.get(_int(call.params["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    async def create_dm(self, call: Call) -> Reply:
        user = self.world.users.get(_int(call.body.get("recipient_id")))
        if user is None:
            raise ApiError(400, 50035, "Invalid Form Body", {"recipient_id": {"_errors": []}})
        return 200, self.world.dm_channel(user).payload()

    async def leave_guild(self, call: Call) -> Reply:
        guild = self._guild(call)
        self.world.guilds.pop(guild.id, None)
        if self.world.gateway is not None:
            gone = {"id": str(guild.id), "unavailable": False}
            await self.world.gateway.dispatch_to_guild(guild.id, "GUILD_DELETE", gone)
        return 204, None

    async def get_application(self, call: Call) -> Reply:
        w = self.world
        return 200, {
            "id": str(w.application_id),
            "name": w.bot_user.username,
            "icon": None,
            "description": "",
            "summary": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": w.bot_user.payload(),
            "owner": w.app_owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(w.guilds),
        }

    async def get_gateway(self, call: Call) -> Reply:
        return 200, {"url": self.world.gateway_url}

    async def get_gateway_bot(self, call: Call) -> Reply:
        return 200, {
            "url": self.world.gateway_url,
            "shards": self.world.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    # -- application commands ----------------------------------------------------------------
    def _scope(self, call: Call) -> int | None:
        if call.params.get("app_id") != str(self.world.application_id):
            raise ApiError(404, 10002, "Unknown Application", kind="unknown_application")
        gid = call.params.get("guild_id")
        if gid is None:
            return None
        if _int(gid) not in self.world.guilds:
            raise ApiError(403, 50001, "Missing Access", kind="missing_access")
        return _int(gid)

    def _full_command(self, cmd: JSON, scope: int | None, old: JSON | None) -> JSON:
        w = self.world
        full: JSON = dict(cmd)
        full.setdefault("type", 1)
        full.setdefault("description", "" if full["type"] != 1 else full.get("description"))
        full.setdefault("options", [])
        full.setdefault("default_member_permissions", None)
        full.setdefault("nsfw", False)
        full.setdefault("name_localizations", None)
        full.setdefault("description_localizations", None)
        full["id"] = old["id"] if old else str(w.ids.next())
        full["application_id"] = str(w.application_id)
        if scope is not None:
            full["guild_id"] = str(scope)
        same = old is not None and _definition(old) == _definition(full)
        full["version"] = old["version"] if old is not None and same else str(w.ids.next())
        return full

    def _commit_commands(self, scope: int | None, commands: list[JSON]) -> None:
        self.world.commands[scope] = commands
        self.world.command_syncs[scope] += 1
        self.world.notify()

    async def list_commands(self, call: Call) -> Reply:
        return 200, self.world.commands.get(self._scope(call), [])

    async def put_commands(self, call: Call) -> Reply:
        scope = self._scope(call)
        body = call.json if isinstance(call.json, list) else []
        issues = limits.check_commands(body)
        if issues:
            raise invalid_form(issues)
        old = {(c["name"], c.get("type", 1)): c for c in self.world.commands.get(scope, [])}
        new = [self._full_command(c, scope, old.get((c["name"], c.get("type", 1)))) for c in body]
        self._commit_commands(scope, new)
        return 200, new

    async def upsert_command(self, call: Call) -> Reply:
        scope = self._scope(call)
        issues = limits.check_commands([call.body])
        if issues:
            raise invalid_form(issues)
        current = list(self.world.commands.get(scope, []))
        key = (call.body.get("name"), call.body.get("type", 1))
        old = next((c for c in current if (c["name"], c.get("type", 1)) == key), None)
        full = self._full_command(call.body, scope, old)
        current = [c for c in current if c is not old] + [full]
        self._commit_commands(scope, current)
        return (200 if old else 201), full

    def _command(self, call: Call) -> tuple[int | None, JSON]:
        scope = self._scope(call)
        for cmd in self.world.commands.get(scope, []):
            if cmd["id"] == call.params["command_id"]:
                return scope, cmd
        raise ApiError(404, 10063, "Unknown application command", kind="unknown_command")

    async def get_command(self, call: Call) -> Reply:
        return 200, self._command(call)[1]

    async def patch_command(self, call: Call) -> Reply:
        scope, cmd = self._command(call)
        full = self._full_command(cmd | call.body, scope, cmd)
        self._commit_commands(scope, [full if c is cmd else c for c in self.world.commands[scope]])
        return 200, full

    async def delete_command(self, call: Call) -> Reply:
        scope, cmd = self._command(call)
        self._commit_commands(scope, [c for c in self.world.commands[scope] if c is not cmd])
        return 204, None

    async def no_perms(self, call: Call) -> Reply:
        return 200, []

    # -- attachments -------------------------------------------------------------------------
    def _attachments(
        self, call: Call, channel_id: int, existing: list[JSON] | None, body: JSON | None = None
    ) -> list[JSON] | None:
        """The message's attachments after this request (None: unchanged). `body`: where the
        message's fields are (an interaction callback has them under ``data``)."""
        w = self.world
        body = call.body if body is None else body
        if "attachments" not in body and not call.uploads:
            return None
        for up in call.uploads:
            if len(up.data) > w.attachment_size_limit:
                raise ApiError(413, 40005, "Request entity too large", kind="file_too_large")
        uploads = {up.index: up for up in call.uploads}
        old = {str(a["id"]): a for a in existing or []}
        shown = {w.attachment_blobs.get(int(aid)) for aid in old if aid.isdigit()}
        for up in call.uploads:
            if up.data in shown:
                path = call.request.path
                how = next(k for k in ("interactions", "webhooks", "channels", "") if k in path)
                w.identical_uploads.append((channel_id, up.filename, len(up.data), how))
        listed = body.get("attachments")
        result: list[JSON] = []
        if listed is None:
            result = list(existing or [])
            listed = [{"id": i} for i in uploads]
        used: set[int] = set()
        for entry in listed:
            eid = str(entry.get("id"))
            if eid in old:
                result.append(old[eid])
            elif eid.isdigit() and int(eid) in uploads:
                up = uploads[int(eid)]
                used.add(up.index)
                result.append(self._store_upload(up, channel_id, entry))
        for index, up in uploads.items():
            if index not in used and {"id": index} not in listed:
                result.append(self._store_upload(up, channel_id, {}))
        return result

    def _store_upload(self, up: Upload, channel_id: int, entry: JSON) -> JSON:
        w = self.world
        aid = w.ids.next()
        w.attachment_blobs[aid] = up.data
        w.attachment_names[aid] = up.filename
        filename = entry.get("filename") or up.filename
        url = f"{w.base_url}/attachments/{channel_id}/{aid}/{filename}"
        data: JSON = {
            "id": str(aid),
            "filename": filename,
            "size": len(up.data),
            "url": url,
            "proxy_url": url,
            "content_type": up.content_type,
        }
        if entry.get("description"):
            data["description"] = entry["description"]
        return data

    # -- validation --------------------------------------------------------------------------
    def _validate(
        self,
        state: JSON,
        *,
        creating: bool,
        prefix: limits.Path = (),
        interaction: Interaction | None = None,
        loading: bool = False,
    ) -> None:
        issues = limits.check_message(state, creating=creating, prefix=prefix)
        issues += self._unknown_emojis(state, prefix)
        if issues:
            raise invalid_form(issues, interaction)
        if not loading and limits.is_empty(state):
            raise ApiError(
                400,
                50006,
                "Cannot send an empty message",
                kind="empty_message",
                interaction=interaction,
            )

    def _unknown_emojis(self, state: JSON, prefix: limits.Path) -> list[limits.Issue]:
        """A component's custom emoji must exist: the application's (the bot's only kind)."""
        issues = []
        for comp in walk_components(state.get("components") or []):
            emoji = comp.get("emoji")
            eid = emoji.get("id") if isinstance(emoji, dict) else None
            if eid and int(eid) not in self.world.app_emojis:
                path = (*prefix, "components", "emoji", "id")
                issues.append(limits.Issue(path, "COMPONENT_INVALID_EMOJI", "Invalid emoji"))
        return issues

    # -- interaction callbacks ---------------------------------------------------------------
    async def callback(self, call: Call) -> Reply:
        w = self.world
        inter = w.interactions.get(_int(call.params["interaction_id"]))
        if inter is None or inter.token != call.params["token"]:
            raise ApiError(404, 10062, "Unknown interaction", kind="unknown_interaction")
        now = w.now()
        if inter.acked:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                kind="already_acknowledged",
                interaction=inter,
            )
        if inter.failed or now > inter.deadline:
            w.mark_failed(inter)
            raise ApiError(
                404, 10062, "Unknown interaction", kind="late_callback", interaction=inter
            )
        body = call.body
        rtype = body.get("type")
        data: JSON = dict(body.get("data") or {})
        allowed = set(CALLBACKS.get(inter.type, set()))
        if inter.type == 5 and inter.from_component:
            allowed |= {6, 7}
        if rtype not in allowed:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "type": {
                        "_errors": [
                            {
                                "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                                "message": f"Response type {rtype} is invalid "
                                f"for interaction type {inter.type}",
                            }
                        ]
                    }
                },
                kind="invalid_callback_type",
                interaction=inter,
            )
        message: Message | None = None
        if rtype in (4, 5):
            flags = int(data.get("flags") or 0)
            eph = inter.user.id if flags & FLAG_EPHEMERAL else None
            msg_type = 20 if inter.type == 2 else 0
            if rtype == 4:
                atts = self._attachments(call, inter.channel_id, None, data)
                if atts is not None:
                    data["attachments"] = atts
                self._validate(data, creating=True, prefix=("data",), interaction=inter)
                message = w.new_message(
                    inter.channel_id, data, ephemeral_for=eph, interaction=inter, msg_type=msg_type
                )
            else:
                message = w.new_message(
                    inter.channel_id,
                    {},
                    ephemeral_for=eph,
                    interaction=inter,
                    msg_type=msg_type,
                    extra_flags=FLAG_LOADING,
                )
            inter.original_message_id = message.id
            w.add_message(message)
        elif rtype in (6, 7):
            message = w.messages.get(inter.message_id or 0)
            if message is None or message.deleted:
                raise ApiError(
                    404, 10008, "Unknown Message", kind="unknown_message", interaction=inter
                )
            if rtype == 7:
                state = w.merged_edit(message, data)
                atts = self._attachments(call, message.channel_id, message.attachments, data)
                if atts is not None:
                    state["attachments"] = atts
                self._validate(state, creating=False, prefix=("data",), interaction=inter)
                w.commit_edit(message, state)
            inter.original_message_id = message.id
        elif rtype == 8:
            choices = list(data.get("choices") or [])
            issues = limits.check_choices(choices)
            if issues:
                raise invalid_form(issues, inter)
            inter.choices = choices
        elif rtype == 9:
            issues = limits.check_modal(data)
            if issues:
                raise invalid_form(issues, inter)
            inter.modal = data
        inter.ack_type = rtype
        inter.acked_at = now
        w.interaction_latencies.append(now - inter.dispatched_at)
        w.interaction_answer_times.append(now)
        inter.done.set()
        w.notify()
        if call.query.get("with_response", "").lower() not in ("1", "true"):
            return 204, None
        info: JSON = {
            "id": str(inter.id),
            "type": inter.type,
            "response_message_loading": rtype == 5,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        reply: JSON = {"interaction": info}
        if message is not None:
            info["response_message_id"] = str(message.id)
            if rtype in (4, 5, 7):
                reply["resource"] = {"type": rtype, "message": message.payload()}
        return 200, reply

    # -- interaction webhooks ----------------------------------------------------------------
    def _hook(self, call: Call) -> Interaction:
        w = self.world
        if call.params["app_id"] != str(w.application_id):
            raise ApiError(404, 10015, "Unknown Webhook", kind="unknown_webhook")
        inter = w.tokens.get(call.params["token"])
        if inter is None:
            raise ApiError(404, 10015, "Unknown Webhook", kind="unknown_webhook")
        if w.now() > inter.expires_at:
            raise ApiError(
                401, 50027, "Invalid Webhook Token", kind="expired_token", interaction=inter
            )
        if inter.failed:
            raise ApiError(404, 10015, "Unknown Webhook", kind="dead_token", interaction=inter)
        if not inter.acked:
            raise ApiError(
                404, 10015, "Unknown Webhook", kind="webhook_before_ack", interaction=inter
            )
        return inter

    def _hook_message(self, call: Call, inter: Interaction) -> Message:
        mid = call.params["message_id"]
        target = inter.original_message_id if mid == "@original" else _int(mid)
        allowed = {inter.original_message_id, *inter.followup_ids}
        msg = self.world.messages.get(target or 0)
        if msg is None or msg.deleted or target not in allowed:
            raise ApiError(404, 10008, "Unknown Message", kind="unknown_message", interaction=inter)
        return msg

    async def followup(self, call: Call) -> Reply:
        w = self.world
        inter = self._hook(call)
        data: JSON = dict(call.body)
        original = w.messages.get(inter.original_message_id or 0)
        if inter.ack_type == 5 and original is not None and original.loading and original.deleted:
            # The "thinking" message was deleted before anything filled it: Discord has no
            # message left for the first follow-up to complete (discord-api-docs #3087).
            raise ApiError(404, 10008, "Unknown Message", kind="unknown_message", interaction=inter)
        if inter.ack_type == 5 and original is not None and original.loading:
            # The first followup after a "thinking" deferral completes that message.
            state = w.merged_edit(original, data)
            atts = self._attachments(call, original.channel_id, original.attachments)
            if atts is not None:
                state["attachments"] = atts
            self._validate(state, creating=True, interaction=inter)
            w.commit_edit(original, state)
            return 200, original.payload()
        atts = self._attachments(call, inter.channel_id, None)
        if atts is not None:
            data["attachments"] = atts
        self._validate(data, creating=True, interaction=inter)
        eph = inter.user.id if int(data.get("flags") or 0) & FLAG_EPHEMERAL else None
        msg = w.new_message(inter.channel_id, data, ephemeral_for=eph, interaction=inter)
        inter.followup_ids.append(msg.id)
        w.add_message(msg)
        return 200, msg.payload()

    async def get_hook_message(self, call: Call) -> Reply:
        inter = self._hook(call)
        return 200, self._hook_message(call, inter).payload()

    async def edit_hook_message(self, call: Call) -> Reply:
        w = self.world
        inter = self._hook(call)
        msg = self._hook_message(call, inter)
        # Discord's limit is the message's age, whichever route edits it (an `@original` of a
        # click can be a message older than an hour).
        self._refuse_old_edit(msg)
        state = w.merged_edit(msg, call.body)
        atts = self._attachments(call, msg.channel_id, msg.attachments)
        if atts is not None:
            state["attachments"] = atts
        self._validate(state, creating=False, interaction=inter)
        w.commit_edit(msg, state)
        return 200, msg.payload()

    async def delete_hook_message(self, call: Call) -> Reply:
        inter = self._hook(call)
        self.world.delete_message(self._hook_message(call, inter))
        return 204, None

    # -- channels ----------------------------------------------------------------------------
    def _channel(self, call: Call, *, need: int = VIEW_CHANNEL) -> Channel:
        w = self.world
        channel = w.channels.get(_int(call.params["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel", kind="unknown_channel")
        if channel.guild_id is not None:
            guild = w.guilds.get(channel.guild_id)
            if guild is None:
                raise ApiError(404, 10003, "Unknown Channel", kind="unknown_channel")
            perms = guild.permissions(w.bot_user.id, channel.id)
            if perms & need != need:
                raise ApiError(403, 50013, "Missing Permissions", kind="missing_permissions")
        return channel

    def _channel_message(self, call: Call, channel: Channel) -> Message:
        msg = self.world.messages.get(_int(call.params["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != channel.id:
            raise ApiError(404, 10008, "Unknown Message", kind="unknown_message")
        if msg.ephemeral_for is not None:
            raise ApiError(404, 10008, "Unknown Message", kind="ephemeral_via_channel")
        return msg

    async def get_channel(self, call: Call) -> Reply:
        channel = self._channel(call, need=0)
        perms = None
        if channel.guild_id is not None:
            perms = self.world.guilds[channel.guild_id].permissions(
                self.world.bot_user.id, channel.id
            )
        return 200, channel.payload(perms)

    async def list_messages(self, call: Call) -> Reply:
        channel = self._channel(call, need=VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        q = call.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = self.world.channel_messages(channel.id)
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][:limit]
        return 200, [m.payload() for m in reversed(msgs[-limit:])]

    async def create_message(self, call: Call) -> Reply:
        w = self.world
        channel = self._channel(call, need=VIEW_CHANNEL | SEND_MESSAGES)
        data: JSON = dict(call.body)
        nonce = data.pop("nonce", None)
        enforce = bool(data.pop("enforce_nonce", False))
        if nonce is not None and (not isinstance(nonce, str | int) or len(str(nonce)) > 25):
            raise invalid_form(
                [limits.Issue(("nonce",), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")]
            )
        key = (channel.id, w.bot_user.id, str(nonce))
        if nonce is not None and enforce:
            # Discord: "If true and nonce is present, it will be checked for uniqueness in the
            # past few minutes. If another message was created by the same author with the same
            # nonce, that message will be returned and no new message will be created."
            earlier = w.nonces.get(key)
            if earlier is not None and time.monotonic() - earlier[1] < w.nonce_window:
                msg = w.messages.get(earlier[0])
                if msg is not None:
                    return 200, {**msg.payload(), "nonce": nonce}
        atts = self._attachments(call, channel.id, None)
        if atts is not None:
            data["attachments"] = atts
        self._validate(data, creating=True)
        msg = w.new_message(channel.id, data, msg_type=19 if data.get("message_reference") else 0)
        w.add_message(msg)
        if nonce is None:
            return 200, msg.payload()
        w.nonces[key] = (msg.id, time.monotonic())
        return 200, {**msg.payload(), "nonce": nonce}

    async def get_message(self, call: Call) -> Reply:
        channel = self._channel(call, need=VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        return 200, self._channel_message(call, channel).payload()

    async def edit_message(self, call: Call) -> Reply:
        w = self.world
        channel = self._channel(call)
        msg = self._channel_message(call, channel)
        if msg.author is not w.bot_user:
            raise ApiError(
                403, 50005, "Cannot edit a message authored by another user", kind="edit_foreign"
            )
        self._rate_limit_edit(channel.id)
        self._refuse_old_edit(msg)
        state = w.merged_edit(msg, call.body)
        atts = self._attachments(call, channel.id, msg.attachments)
        if atts is not None:
            state["attachments"] = atts
        self._validate(state, creating=False)
        w.channel_edit_times[channel.id].append(time.monotonic())
        w.commit_edit(msg, state)
        return 200, msg.payload()

    def _refuse_old_edit(self, msg: Message) -> None:
        w = self.world
        if w.old_message_edit_limit is None or time.time() - msg.created_at < w.old_message_age:
            return
        if msg.old_edits >= w.old_message_edit_limit:
            raise ApiError(
                400,
                30046,
                "Maximum number of edits to messages older than 1 hour reached. Try again later",
            )
        msg.old_edits += 1

    def _rate_limit_edit(self, channel_id: int) -> None:
        w = self.world
        if w.channel_edit_limit is None:
            return
        count, window = w.channel_edit_limit
        now = time.monotonic()
        recent = [t for t in w.channel_edit_times[channel_id] if now - t < window]
        if len(recent) >= count:
            retry = max(0.001, window - (now - recent[-count]))
            w.rate_limited += 1
            raise ApiError(
                429,
                20028,
                "You are being rate limited.",
                {
                    "Retry-After": f"{retry:.3f}",
                    "X-RateLimit-Limit": str(count),
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{retry:.3f}",
                    "X-RateLimit-Scope": "user",
                    "Via": "1.1 google",
                },
            )

    async def delete_message(self, call: Call) -> Reply:
        w = self.world
        channel = self._channel(call)
        msg = self._channel_message(call, channel)
        if msg.author is not w.bot_user and channel.guild_id is not None:
            perms = w.guilds[channel.guild_id].permissions(w.bot_user.id, channel.id)
            if not perms & MANAGE_MESSAGES:
                raise ApiError(403, 50013, "Missing Permissions", kind="missing_permissions")
        w.delete_message(msg)
        return 204, None

    async def typing(self, call: Call) -> Reply:
        self._channel(call, need=VIEW_CHANNEL | SEND_MESSAGES)
        return 204, None

    # -- guilds ------------------------------------------------------------------------------
    def _guild(self, call: Call) -> Any:
        guild = self.world.guilds.get(_int(call.params["guild_id"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild", kind="unknown_guild")
        return guild

    async def get_guild(self, call: Call) -> Reply:
        return 200, self._guild(call).rest_payload()

    async def get_guild_channels(self, call: Call) -> Reply:
        guild = self._guild(call)
        return 200, [c.payload() for c in guild.channels.values()]

    async def get_guild_roles(self, call: Call) -> Reply:
        return 200, [r.payload() for r in self._guild(call).roles.values()]

    async def list_members(self, call: Call) -> Reply:
        guild = self._guild(call)
        limit = int(call.query.get("limit", 1))
        return 200, [m.payload() for m in list(guild.members.values())[:limit]]

    async def get_member(self, call: Call) -> Reply:
        guild = self._guild(call)
        member = guild.members.get(_int(call.params["user_id"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return -1


def _definition(cmd: JSON) -> JSON:
    """The parts of a command whose change makes Discord bump its version."""
    return {
        k: v for k, v in cmd.items() if k not in ("id", "version", "application_id", "guild_id")
    }
