"""Persistence for the bot: games, their live engine state, history and per-server stats.

Open it once at start-up and hand it to the bot::

    database = await open_database(settings.resolved_database_url)  # also migrates
    async with database.write() as unit:
        game = await unit.games.open_lobby(...)

No discord imports here; the store knows the engine only through RuleSet and JSON snapshots.
"""

from bot.store.click_save import ClickSave
from bot.store.database import Database, UnitOfWork, create_engine, open_database
from bot.store.errors import (
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    NotSeated,
    StaleVersion,
    StorageBusy,
    StorageUnavailable,
    StoreError,
    TableFull,
    WrongStatus,
)
from bot.store.games import UNCHANGED, GameRepository
from bot.store.guild_settings import SettingsRepository
from bot.store.history import ENDED_STATUSES, HistoryRepository
from bot.store.models import COUNTERS, GameStatus, StartPolicy
from bot.store.public_posts import PendingPost, PostKind, PublicPostRepository
from bot.store.records import (
    ActionRecord,
    GameRecord,
    GuildConfig,
    LeaderboardPage,
    LeaderboardSort,
    NewAction,
    PlayerStats,
    RoundRecord,
    SavedGame,
    SeatRecord,
    is_leaderboard_sort,
)
from bot.store.stats import StatsRepository
from bot.store.upgrade import migrate

__all__ = [
    "COUNTERS",
    "ENDED_STATUSES",
    "UNCHANGED",
    "ActionRecord",
    "AlreadySeated",
    "ChannelBusy",
    "ClickSave",
    "Database",
    "GameNotFound",
    "GameRecord",
    "GameRepository",
    "GameStatus",
    "GuildConfig",
    "HistoryRepository",
    "LeaderboardPage",
    "LeaderboardSort",
    "NewAction",
    "NotSeated",
    "PendingPost",
    "PlayerStats",
    "PostKind",
    "PublicPostRepository",
    "RoundRecord",
    "SavedGame",
    "SeatRecord",
    "SettingsRepository",
    "StaleVersion",
    "StartPolicy",
    "StatsRepository",
    "StorageBusy",
    "StorageUnavailable",
    "StoreError",
    "TableFull",
    "UnitOfWork",
    "WrongStatus",
    "create_engine",
    "is_leaderboard_sort",
    "migrate",
    "open_database",
]
