"""The `/uno` game on Discord: one module per flow, arrows one way (tests/test_layers.py).

commands.py     slash commands (entry points) -> the flow that owns each one
components.py   the click router (every DynamicItem) with its re-checks -> the flows
app.py          composition root: builds every flow once; installed as `bot.components`
house.py        shared state: bot, database, live games, channel locks, server settings
lobby.py        new lobby, join/leave/kick/computers, Start, End, lobby expiry (dealing.py)
lobby_rules.py  a lobby's rules (its panel and `/uno setrule`); config_panel.py: the selects
moves.py        a move (click or command) -> engine -> save -> the player's answer
hands.py        a player's private hand;  saving.py: the per-move transaction
live_hands.py   each player's latest hand, edited through its token as their view changes
results.py      after a save, in public: log, round results, table, end of the game
table_posts.py  the table's rendering and `/uno table` (tables.py coalesces the edits)
autoplay.py     timers, computer players, lobby expiry (turn_clock.py: deadlines)
pings.py        the public reminder that mentions whose turn it is
resume.py       running games loaded again at start-up;  deadline.py + callback.py: answers
pictures.py     card pictures rendered off the loop and attached; card_emojis.py: emoji upload
workers.py      a worker process with a thread as fallback; thinking.py: computers think there
"""

from __future__ import annotations

from typing import Any

from cogs.uno.commands import UnoCog


async def setup(bot: Any) -> None:
    await bot.add_cog(UnoCog(bot))
