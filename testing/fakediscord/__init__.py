"""A small Discord emulator for end-to-end tests of the bot.

Why: the real bot (discord.py) must be tested as it runs in production: over HTTP and a
gateway websocket, with Discord's deadlines and limits enforced. ``FakeDiscord`` serves both on
127.0.0.1 and offers a driver API (``slash``, ``click``, ``select``...) to act as users.

    emu = FakeDiscord(); await emu.start()
    guild = emu.add_guild("Test"); alice = emu.add_user("alice", guild)
    # start the bot with emu.env() (subprocess) or inside emu.patch_discord() (in-process)
    await emu.wait_for_bot(); await emu.wait_for_commands(guild)
    res = await emu.slash(alice, guild.default_channel, "uno new")
    msg = await res.response()
    emu.assert_clean()
"""

from .driver import DriverError, InteractionFailed, InteractionResult
from .process import BotProcess
from .server import FakeDiscord
from .state import (
    ADMINISTRATOR,
    MANAGE_GUILD,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    Button,
    Channel,
    Fault,
    Guild,
    Interaction,
    Member,
    Message,
    RequestRecord,
    Role,
    User,
    Violation,
)

__all__ = [
    "ADMINISTRATOR",
    "MANAGE_GUILD",
    "SEND_MESSAGES",
    "VIEW_CHANNEL",
    "BotProcess",
    "Button",
    "Channel",
    "DriverError",
    "FakeDiscord",
    "Fault",
    "Guild",
    "Interaction",
    "InteractionFailed",
    "InteractionResult",
    "Member",
    "Message",
    "RequestRecord",
    "Role",
    "User",
    "Violation",
]
