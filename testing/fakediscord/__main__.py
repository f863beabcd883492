"""Run the emulator standalone: ``python -m testing.fakediscord --port 8080``.

Why: for manual checks of a real bot process. It creates one guild with a channel and a few
users, prints the environment variables to give the bot, and serves ``/_emu/state``,
``POST /_emu/slash`` and ``POST /_emu/click`` to drive it with curl.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging

from .server import FakeDiscord
from .state import MANAGE_GUILD


async def serve(port: int, host: str) -> None:
    emu = FakeDiscord(host=host, port=port)
    await emu.start()
    guild = emu.add_guild("Fake Guild")
    users = [
        emu.add_user("alice", guild, permissions=MANAGE_GUILD),
        emu.add_user("bob", guild),
        emu.add_user("carol", guild, locale="fr"),
    ]
    print(f"fakediscord on {emu.base_url}")
    for key, value in emu.env().items():
        print(f"  export {key}={value}")
    print(f"guild {guild.id} channel {guild.default_channel}")
    print("users " + ", ".join(f"{u.username}={u.id}" for u in users))
    print(f"state: curl {emu.base_url}/_emu/state")
    try:
        await asyncio.Event().wait()
    finally:
        await emu.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description="A Discord emulator for tests.")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.port, args.host))


if __name__ == "__main__":
    main()
