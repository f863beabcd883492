"""Carrying on after a restart: every running game of this process's shards is loaded again.

The stored snapshot is the truth, so a game resumes exactly where its last saved action left it.
Its buttons need nothing (they are DynamicItems); its recorded table message is refreshed (or
re-posted when old or gone) with a log line saying the game was resumed.
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from bot.engine import Game
from bot.i18n import t
from cogs.uno.running import RunningGames

log = logging.getLogger(__name__)


def shard_filter(
    shard_count: int | None, shard_ids: Collection[int] | None
) -> tuple[list[int] | None, int]:
    """(shard ids to load, shard count) for `running_games`; (None, 1) means every game."""
    if not shard_count or shard_ids is None or set(shard_ids) >= set(range(shard_count)):
        return None, 1
    return sorted(shard_ids), shard_count


async def resume_running_games(
    games: RunningGames,
    *,
    shard_count: int | None = None,
    shard_ids: Collection[int] | None = None,
) -> int:
    """Load the running games this process owns and refresh their tables; how many resumed.
    Their clocks are armed once the gateway is up (`RunningGames.arm_all`)."""
    shared = games.shared
    ids, count = shard_filter(shard_count, shard_ids)
    async with shared.db.read() as unit:
        saved = await unit.games.running_games(shard_ids=ids, shard_count=count)
    resumed = 0
    for item in saved:
        game_id = item.game.id
        try:
            game = Game.from_dict(item.state)
        except Exception:
            log.exception("game %s has an unreadable snapshot: not resumed", game_id)
            continue
        if games.peek(game_id) is not None:  # a click loaded it first: as fresh or newer
            continue
        running = games.hold(item.game, game)
        guild_id = running.live.guild_id
        await shared.load_settings(guild_id)
        running.resumed(t("log.resumed", shared.public_locale(guild_id)))
        resumed += 1
    log.info("resumed %d running games", resumed)
    return resumed
