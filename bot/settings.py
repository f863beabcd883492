"""One settings object from the environment and `.env`; the token is a secret, never logged."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    data_dir: Path = Path("data")
    database_url: str | None = Field(
        default=None, description="SQLAlchemy async URL; default: a SQLite file in data_dir"
    )
    database_pool_size: int = Field(
        default=20,
        ge=1,
        description="connections to a database server (PostgreSQL) each process keeps open; a "
        "burst may open 10 more for a moment (SQLite: not used)",
    )
    dev_guild_id: int | None = None
    discord_api_base: str | None = None
    discord_gateway_url: str | None = None
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    owner_ids: list[int] = Field(default_factory=list)
    log_level: str = "INFO"
    table_edit_interval: float = Field(
        default=1.0, ge=0, description="seconds between two edits of one public table"
    )
    request_budget: float = Field(
        default=40,
        ge=0,
        description="requests the bot token may make in any 1.4 s on routes under Discord's "
        "global limit (50 a second per bot token, shared by every process; interaction routes "
        "are exempt): Discord's second plus 0.4 s for the requests' differing delays on "
        "the way; on PostgreSQL the token's processes share it by themselves "
        "(bot/budget_sharing.py); 0: not scheduled, only counted",
    )
    table_repost_after: float = Field(
        default=3000,
        gt=0,
        description="seconds after which a table is posted anew instead of edited (Discord "
        "refuses most edits of messages older than an hour)",
    )
    hand_token_ttl: float = Field(
        default=840,
        gt=0,
        description="seconds after a click that its private hand is kept up to date through the "
        "click's token (Discord keeps a token 900 s; the rest is a safety margin)",
    )
    table_token_ttl: float = Field(
        default=840,
        gt=0,
        description="seconds after a click that a game's public table is edited through the "
        "click's token, on routes exempt from Discord's global limit (Discord keeps a token "
        "900 s; the rest is a safety margin)",
    )
    # Computer players wait this long (seconds, at random between the two) before each move.
    computer_delay_min: float = Field(default=0.6, ge=0)
    computer_delay_max: float = Field(default=1.5, ge=0)
    # A lobby nobody starts closes itself this many seconds after it was opened.
    lobby_close_after: float = Field(default=1800, gt=0)

    # Test hooks, never set in production (cogs/uno/lobby/lobbies.py, cogs/uno/game/clock.py,
    # cogs/uno/drawing/renderer.py):
    # the game's id is added to this seed for its deals; a JSON file of fixed deals by channel
    # id; turn timers run this many times their length; while this file exists, the first
    # drawing thread of each kind to start a picture is stuck for good.
    uno_test_seed: int | None = None
    uno_test_decks: Path | None = None
    uno_test_timer_scale: float = Field(default=1.0, gt=0)
    uno_test_stuck_pictures: Path | None = None

    @field_validator(
        "dev_guild_id",
        "shard_count",
        "uno_test_seed",
        "uno_test_decks",
        "uno_test_stuck_pictures",
        mode="before",
    )
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("shard_ids", "owner_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [int(part) for part in value.replace(" ", "").split(",") if part]
        if isinstance(value, int):
            return [value]
        return value

    @property
    def resolved_database_url(self) -> str:
        """The database URL, defaulting to a SQLite file inside data_dir (created if missing)."""
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite+aiosqlite:///{(self.data_dir / 'uno.db').resolve()}"
