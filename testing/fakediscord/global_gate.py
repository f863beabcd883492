"""Discord's global limit enforced in a process of its own, in front of the emulator's REST API.

Why: the emulator shares its process and event loop with the scripted users of a benchmark;
under load that loop stalls for tenths of a second, and requests the bot spread evenly are then
counted as they are finally read, bunched into one second (docs/benchmarks.md). Discord's edge
does not stall so. This gate has nothing else to do: it counts each request as it arrives,
answers Discord's global 429 past the limit (``GlobalLimit``, the emulator's own rules), and
passes the others on to the emulator, whose own global limit the caller lifts. A benchmark
points the bot's ``DISCORD_API_BASE`` here (``interaction_latency.py --gate``)::

    python -m testing.fakediscord.global_gate --upstream http://127.0.0.1:PORT/api/v10

It prints ``listening on PORT`` once ready; ``GET /_gate`` answers its counts as JSON.
Interaction routes are exempt by their shape (the emulator also checks the token is real).
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import aiohttp
from aiohttp import web

from testing.fakediscord.global_limit import GLOBAL_PER_SECOND, GlobalLimit, global_429
from testing.fakediscord.global_limit import interaction_token as exempt_token

#: Headers not passed on (the hop's own, and what aiohttp sets again for the new body).
_HOP = {"host", "content-length", "transfer-encoding", "connection"}


class GlobalGate:
    def __init__(self, upstream: str, per_second: int | None) -> None:
        self.upstream = upstream.rstrip("/")
        self.limit = GlobalLimit()
        self.limit.per_second = per_second
        self._session: aiohttp.ClientSession | None = None

    async def pass_on(self, request: web.Request) -> web.StreamResponse:
        tail = "/" + request.match_info["tail"]
        exempt = exempt_token(tail) is not None
        retry = self.limit.admit(request.headers.get("Authorization", ""), exempt=exempt)
        if retry is not None:
            refusal_headers, refusal = global_429(retry)
            self.limit.answered(429, "global")
            return web.json_response(refusal, status=429, headers=refusal_headers)
        if self._session is None:
            self._session = aiohttp.ClientSession(auto_decompress=False)
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        async with self._session.request(
            request.method,
            self.upstream + tail,
            params=request.query,
            headers=headers,
            data=await request.read(),
            allow_redirects=False,
        ) as answer:
            body = await answer.read()
            self.limit.answered(answer.status, answer.headers.get("X-RateLimit-Scope"))
            out = {k: v for k, v in answer.headers.items() if k.lower() not in _HOP}
            return web.Response(status=answer.status, body=body, headers=out)

    async def counts(self, request: web.Request) -> web.Response:
        """The counts so far; ``?reset_peak=1`` then starts the busiest second anew."""
        gl = self.limit
        fields: dict[str, Any] = {
            "limited": gl.limited,
            "exempt": gl.exempt,
            "global_429s": gl.global_429s,
            "invalid": gl.invalid,
            "peak": gl.peak,
        }
        if request.query.get("reset_peak"):
            gl.peak = 0
        return web.json_response(fields)

    async def close(self, _: web.Application) -> None:
        if self._session is not None:
            await self._session.close()


async def serve(upstream: str, per_second: int | None, port: int) -> None:
    gate = GlobalGate(upstream, per_second)
    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_get("/_gate", gate.counts)
    app.router.add_route("*", r"/api/v{version:\d+}/{tail:.*}", gate.pass_on)
    app.on_cleanup.append(gate.close)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    print(f"listening on {runner.addresses[0][1]}", flush=True)
    await asyncio.Event().wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", required=True, help="the emulator's API base")
    parser.add_argument("--per-second", type=int, default=GLOBAL_PER_SECOND)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    asyncio.run(serve(args.upstream, args.per_second, args.port))


if __name__ == "__main__":
    main()
