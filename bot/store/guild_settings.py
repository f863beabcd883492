"""Per-server settings and the bot's small global key/value facts.

A server without a row simply has the defaults of `GuildConfig`. Stored rule sets are validated
by the engine's `RuleSet.from_dict` on load, so a bad row raises `InvalidRules` instead of
starting a game with nonsense rules.
"""

from __future__ import annotations

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
        if row is None:
            return GuildConfig(guild_id)
        return GuildConfig(
            guild_id=guild_id,
            rules=RuleSet.from_dict(row.rules) if row.rules is not None else RuleSet(),
            turn_timeout_seconds=row.turn_timeout_seconds,
            language=row.language,
            manager_role_id=row.manager_role_id,
            start_policy=row.start_policy,
        )

    async def save_guild(self, config: GuildConfig) -> None:
        """Store a server's settings (build it with dataclasses.replace on `guild()`)."""
        values = {
            "rules": config.rules.to_dict(),
            "turn_timeout_seconds": config.turn_timeout_seconds,
            "language": config.language,
            "manager_role_id": config.manager_role_id,
            "start_policy": config.start_policy,
            "updated_at": utcnow(),
        }
        stmt = insert_for(self._session, GuildSettings).values(guild_id=config.guild_id, **values)
        await self._session.execute(
            stmt.on_conflict_do_update(index_elements=["guild_id"], set_=values)
        )

    async def get_value(self, key: str) -> str | None:
        return await self._session.scalar(select(BotState.value).where(BotState.key == key))

    async def set_value(self, key: str, value: str) -> None:
        values = {"value": value, "updated_at": utcnow()}
        stmt = insert_for(self._session, BotState).values(key=key, **values)
        await self._session.execute(stmt.on_conflict_do_update(index_elements=["key"], set_=values))
