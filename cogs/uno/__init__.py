"""The `/uno` command group, the game's buttons and the central error handler."""

from __future__ import annotations

from typing import Any

from cogs.uno.commands import UnoCog


async def setup(bot: Any) -> None:
    await bot.add_cog(UnoCog(bot))
