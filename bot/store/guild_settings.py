"""Per-server settings and the bot's small global key/value facts.

A server without a row simply has the defaults of `GuildConfig`. Stored rule sets are validated
by the engine's `RuleSet.from_dict` on load, so a bad row raises `InvalidRules` instead of
starting a game with nonsense rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.engine.rules import RuleSet
from bot.store.models import BotState, GuildSettings, utcnow
from bot.store.records import GuildConfig
from bot.store.upsert import insert_for


class SettingsRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def guild(self, guild_id: int) -> GuildConfig:
        """The server's settings (defaults if it never changed any). Raises InvalidRules."""
        row = await self._session.get(GuildSettings, guild_id, populate_existing=True)
        return _config(guild_id, row)

    async def save_guild(self, config: GuildConfig) -> None:
        """Store a server's settings whole (for a reset; one option: `update_guild`)."""
        values = _values(config)
        stmt = insert_for(self._session, GuildSettings).values(guild_id=config.guild_id, **values)
        await self._session.execute(
            stmt.on_conflict_do_update(index_elements=["guild_id"], set_=values)
        )

    async def update_guild(
        self, guild_id: int, change: Callable[[GuildConfig], GuildConfig]
    ) -> GuildConfig:
        """Change a server's settings atomically: `change` gets the stored settings, read with
        the row locked (PostgreSQL; SQLite write units are serialised already), and what it
        returns is stored in the same transaction. So two admins changing two options at the
        same moment both keep their change, and of two changes of one option the later wins.
        An exception from `change` (InvalidRules) rolls the unit back: nothing is stored.
        """
        # The row must exist to be locked; a concurrent first insert waits for ours.
        defaults = insert_for(self._session, GuildSettings).values(
            guild_id=guild_id, **_values(GuildConfig(guild_id))
        )
        await self._session.execute(defaults.on_conflict_do_nothing(index_elements=["guild_id"]))
        row = await self._session.get(
            GuildSettings, guild_id, populate_existing=True, with_for_update=True
        )
        config = change(_config(guild_id, row))
        await self.save_guild(config)
        return config

    async def get_value(self, key: str) -> str | None:
        return await self._session.scalar(select(BotState.value).where(BotState.key == key))

    async def set_value(self, key: str, value: str) -> None:
        values = {"value": value, "updated_at": utcnow()}
        stmt = insert_for(self._session, BotState).values(key=key, **values)
        await self._session.execute(stmt.on_conflict_do_update(index_elements=["key"], set_=values))


def _config(guild_id: int, row: GuildSettings | None) -> GuildConfig:
    if row is None:
        return GuildConfig(guild_id)
    return GuildConfig(
        guild_id=guild_id,
        rules=RuleSet.from_dict(row.rules) if row.rules is not None else RuleSet(),
        turn_timeout_seconds=row.turn_timeout_seconds,
        language=row.language,
        manager_role_id=row.manager_role_id,
        start_policy=row.start_policy,
        turn_ping_seconds=row.turn_ping_seconds,
        card_images=row.card_images,
        season_length=row.season_length,
        season_channel_id=row.season_channel_id,
        round_break_seconds=row.round_break_seconds,
    )


def _values(config: GuildConfig) -> dict[str, Any]:
    return {
        "rules": config.rules.to_dict(),
        "turn_timeout_seconds": config.turn_timeout_seconds,
        "language": config.language,
        "manager_role_id": config.manager_role_id,
        "start_policy": config.start_policy,
        "turn_ping_seconds": config.turn_ping_seconds,
        "card_images": config.card_images,
        "season_length": config.season_length,
        "season_channel_id": config.season_channel_id,
        "round_break_seconds": config.round_break_seconds,
        "updated_at": utcnow(),
    }
