"""``FakeDiscord``: the emulator as one object, served by aiohttp on 127.0.0.1.

Why: tests need one handle that starts the HTTP + websocket server in their own event loop,
tells the bot where to connect (``env()`` for a subprocess, ``patch_discord()`` for an
in-process client) and exposes the driver API. Small debug routes under ``/_emu/`` let a
person poke a standalone emulator with curl.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from aiohttp import web

from . import app_emojis
from .driver import Driver, DriverError
from .gateway import Gateway
from .process import BotProcess, bot_process
from .rest import Rest, json_response

log = logging.getLogger("fakediscord")


class FakeDiscord(Driver):
    """A Discord emulator. ``async with FakeDiscord() as emu:`` or ``await emu.start()``."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        token: str | None = None,
        bot_name: str = "UNO Bot",
    ) -> None:
        super().__init__(token=token, bot_name=bot_name)
        self.host = host
        self.port = port
        self.rest = Rest(self)
        app_emojis.install(self.rest)
        self.gateway: Gateway = Gateway(self)
        self._runner: web.AppRunner | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", self.rest.handle)
        app.router.add_get("/ws", self.gateway.handle)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        app.router.add_get("/_emu/state", self._debug_state)
        app.router.add_post("/_emu/slash", self._debug_slash)
        app.router.add_post("/_emu/click", self._debug_click)
        return app

    async def start(self) -> FakeDiscord:
        self.loop = asyncio.get_running_loop()
        self._runner = web.AppRunner(self.make_app(), access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.base_url = f"http://{self.host}:{self.port}"
        log.info("fakediscord listening on %s", self.base_url)
        return self

    async def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        for task in list(self._flushers):
            task.cancel()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- pointing a bot at us ----------------------------------------------------------------
    def env(self, token: str | None = None) -> dict[str, str]:
        """Environment variables for a bot subprocess."""
        return {
            "DISCORD_TOKEN": token or self.token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    def bot_process(
        self,
        args: Sequence[str] | None = None,
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | None = None,
    ) -> BotProcess:
        """A bot subprocess (default ``python -m bot``) wired to us; ``await p.start()``."""
        return bot_process(self.env(), args, env=env, cwd=cwd)

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py in this process at the emulator; restore on exit."""
        import discord.gateway
        import discord.http
        import yarl

        old_base = discord.http.Route.BASE
        old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway

    async def reconnect_bots(self) -> None:
        """Send op 7 RECONNECT to every bot connection."""
        await self.gateway.reconnect_all()

    # -- small extra routes ------------------------------------------------------------------
    async def _attachment(self, request: web.Request) -> web.Response:
        blob = self.attachment_blobs.get(int(request.match_info["attachment_id"]))
        if blob is None:
            return json_response(404, {"message": "404: Not Found", "code": 0})
        return web.Response(body=blob, content_type="application/octet-stream")

    async def _debug_state(self, request: web.Request) -> web.Response:
        return json_response(200, self.debug_dump())

    async def _debug_slash(self, request: web.Request) -> web.Response:
        """``{"user": id, "channel": id, "command": "uno new", "options": {...}}``."""
        body = json.loads(await request.read() or b"{}")
        try:
            res = await self.slash(
                int(body["user"]), int(body["channel"]), body["command"], **body.get("options", {})
            )
            await res.wait()
        except (DriverError, KeyError, ValueError) as exc:
            return json_response(400, {"error": repr(exc)})
        return json_response(200, _result_summary(res))

    async def _debug_click(self, request: web.Request) -> web.Response:
        """``{"user": id, "message": id, "custom_id": "..."}`` (or ``"label"``)."""
        body = json.loads(await request.read() or b"{}")
        try:
            res = await self.click(
                int(body["user"]),
                int(body["message"]),
                body.get("custom_id"),
                label=body.get("label"),
            )
            await res.wait()
        except (DriverError, KeyError, ValueError, LookupError) as exc:
            return json_response(400, {"error": repr(exc)})
        return json_response(200, _result_summary(res))


def _result_summary(res: Any) -> dict[str, Any]:
    msg = res.message
    return {
        "interaction_id": str(res.id),
        "ack_type": res.ack_type,
        "failed": res.failed,
        "message": None if msg is None else msg.payload() | {"ephemeral_for": msg.ephemeral_for},
        "errors": [str(e) for e in res.errors],
    }
