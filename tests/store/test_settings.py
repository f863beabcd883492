"""Per-server settings and the bot's key/value facts."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sqlalchemy import update

from bot.engine.rules import PRESETS, InvalidRules, RuleSet
from bot.store import Database, GuildConfig, StartPolicy
from bot.store.models import GuildSettings
from tests.store.conftest import GUILD


async def test_a_new_server_has_the_defaults(db: Database) -> None:
    async with db.read() as unit:
        config = await unit.settings.guild(GUILD)
    assert config == GuildConfig(GUILD)
    assert config.rules == RuleSet() and config.start_policy is StartPolicy.HOST


async def test_settings_round_trip_and_update(db: Database) -> None:
    config = GuildConfig(
        GUILD,
        rules=PRESETS["party"],
        turn_timeout_seconds=90,
        language="pt-BR",
        manager_role_id=555_000_000_000_000_555,
        start_policy=StartPolicy.ANYONE,
        turn_ping_seconds=None,
        card_images=False,
        round_break_seconds=120,
    )
    async with db.write() as unit:
        await unit.settings.save_guild(config)
    async with db.write() as unit:
        assert await unit.settings.guild(GUILD) == config
        changed = replace(
            config,
            turn_timeout_seconds=30,
            turn_ping_seconds=0,
            card_images=True,
            round_break_seconds=10,
        )
        await unit.settings.save_guild(changed)
    async with db.read() as unit:
        stored = await unit.settings.guild(GUILD)
        assert stored.turn_timeout_seconds == 30 and stored.turn_ping_seconds == 0
        assert stored.card_images is True and stored.round_break_seconds == 10
        assert await unit.settings.guild(GUILD + 1) == GuildConfig(GUILD + 1)


def test_settings_are_validated() -> None:
    with pytest.raises(ValueError):
        GuildConfig(GUILD, turn_timeout_seconds=1)
    with pytest.raises(ValueError):
        GuildConfig(GUILD, turn_ping_seconds=-1)
    for seconds in (0, 9, 301):  # the break between rounds: 10-300 s
        with pytest.raises(ValueError):
            GuildConfig(GUILD, round_break_seconds=seconds)
    assert GuildConfig(GUILD).round_break_seconds == 15  # docs/playing.md "Between rounds"
    with pytest.raises(ValueError):
        GuildConfig(GUILD, language="")
    with pytest.raises(ValueError):
        GuildConfig(GUILD, start_policy="everyone")
    assert GuildConfig(GUILD, start_policy="anyone").start_policy is StartPolicy.ANYONE


async def test_stored_rules_are_validated_by_the_engine_on_load(db: Database) -> None:
    async with db.write() as unit:
        await unit.settings.save_guild(GuildConfig(GUILD))
        await unit.session.execute(
            update(GuildSettings).values(rules={"hand_size": 99}),
            execution_options={"synchronize_session": False},
        )
    async with db.read() as unit:
        with pytest.raises(InvalidRules):
            await unit.settings.guild(GUILD)


async def test_key_values(db: Database) -> None:
    async with db.write() as unit:
        assert await unit.settings.get_value("command_sync_hash") is None
        await unit.settings.set_value("command_sync_hash", "abc")
        await unit.settings.set_value("command_sync_hash", "def")
    async with db.read() as unit:
        assert await unit.settings.get_value("command_sync_hash") == "def"
