"""The `/uno` game on Discord, grouped by what each part is for: `game/` (a running game and
its owner), `lobby/` (a game before it runs), `drawing/` (pictures and other work off the event
loop), `records/` (game records and replays), and beside them the entry points (`commands.py`,
`clicks.py`), the answers (`answers.py`), what every flow shares (`shared.py`, `app.py`) and
what a server sees beyond one game (`boards.py`, `outbox.py`).

The map and a click's path: docs/architecture.md (the one map; tests/test_architecture_map.py
keeps it whole).
"""

from __future__ import annotations

from bot.host import UnoHost
from cogs.uno.commands import UnoCog


async def setup(bot: UnoHost) -> None:
    await bot.add_cog(UnoCog(bot))
