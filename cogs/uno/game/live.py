"""A running game held in memory: the engine object, who plays, and what the table shows.

The database snapshot is the truth; this is a copy of it as last saved: a change is worked out on
a copy of `game` and replaces it only once saved (game/owner.py), so nothing unsaved is ever here.
Staleness: a click rendered before the clicker's own last action (or before
this round, or before the bot loaded the game) is stale; clicks on hands that are merely older
than other players' moves are still fine, so nobody needs to refresh just because others played.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from bot.engine import Game, PlayerView, view_for
from bot.engine import events as E
from bot.engine.ai import LEVELS, Player, is_computer, make_player
from bot.engine.game_kinds import game_of
from bot.i18n import t
from bot.store import GameRecord
from bot.ui.turn_log import TurnLog

#: Changes kept for the hands' last moves (more than the lines shown: a line may need several).
RECENT_CHANGES = 4
#: One change as the hands retell it: its events, and the timer's player and count, if any.
Recent = tuple[tuple[E.Event, ...], int | None, int]

#: The level of a computer player whose stored level is unknown.
DEFAULT_LEVEL = "normal"


class RecentChanges:
    """The last changes as told, for the hands' "last moves" in each reader's own language.

    Every hand of a table is drawn again after each change (and its signature compared), each
    in its reader's language: the lines are told once per language until the next change,
    rather than once per hand (retelling four changes was a twelfth of the bot's time with a
    thousand games open, benchmarks/interaction_latency.py)."""

    __slots__ = ("_changes", "_told", "serial")

    def __init__(self) -> None:
        self._changes: deque[Recent] = deque(maxlen=RECENT_CHANGES)
        self._told: dict[tuple[object, int], list[str]] = {}
        self.serial = 0  # one more per change: what a hand's signature compares

    def append(self, change: Recent) -> None:
        self._changes.append(change)
        self._told.clear()
        self.serial += 1

    def forget_told(self) -> None:
        """The names may have changed (the game was reloaded): tell the lines again."""
        self._told.clear()
        self.serial += 1

    def __iter__(self) -> Iterator[Recent]:
        return iter(self._changes)

    def __len__(self) -> int:
        return len(self._changes)

    def lines(self, names: dict[int, str], locale: object, count: int) -> list[str]:
        """The last `count` lines the table's log would tell of these changes, in `locale`
        (the same list for every hand in that language: do not change it)."""
        told = self._told.get((locale, count))
        if told is None:
            log = TurnLog()
            for events, timed, lost in self._changes:
                if timed is not None:
                    log.note_for(timed, t("turn.timed_out", locale, count=lost), names, locale)
                log.record(events, names, locale)
            told = self._told[locale, count] = log.lines()[-count:]
        return told


@dataclass
class LiveGame:
    game_id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: Game
    names: dict[int, str]
    baseline: int  # the version when loaded, or when the current round began
    table_message_id: int | None = None
    acted_at: dict[int, int] = field(default_factory=dict)
    log: TurnLog = field(default_factory=TurnLog)
    levels: dict[int, str] = field(default_factory=dict)  # computer player -> level
    timeouts: dict[int, int] = field(default_factory=dict)  # turns in a row lost to the timer
    deadline: datetime | None = None  # when the current turn times out (stored with each save)
    turn_key: tuple[int | None, int] | None = None  # (current player, round) the deadline is for
    computers: dict[int, Player] = field(default_factory=dict)
    # Who asked to wait in this round's break (each once; forgotten as the next round starts,
    # and after a restart: the break's end itself is saved, turn_clock.waited_deadline).
    waited: set[int] = field(default_factory=set)
    # The last changes as told, for the hands' "last moves" in each reader's own language:
    # (events, whose turn the timer played or None, their turns lost in a row).
    recent: RecentChanges = field(default_factory=RecentChanges)
    # The players' views of `game` (view_for), kept while `game` is this very object at this
    # version: a change replaces the object (game/owner.py), a test may apply moves to it;
    # the hands' signatures, their messages and the table ask for the same views per change.
    _views: dict[int | None, PlayerView] = field(default_factory=dict, repr=False)
    _views_of: Game | None = field(default=None, repr=False)
    _views_version: int = field(default=-1, repr=False)

    @property
    def game_kind(self) -> str:
        """Which game this is (bot/engine/game_kinds.py): whose totals its clicks add to."""
        return game_of(self.game.rules)

    @classmethod
    def from_record(cls, record: GameRecord, game: Game) -> LiveGame:
        return cls(
            game_id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            host_id=record.host_id,
            game=game,
            names={s.user_id: s.display_name for s in record.seats},
            baseline=game.version,
            table_message_id=record.table_message_id,
            levels={s.user_id: s.bot_level or "normal" for s in record.seats if s.is_bot},
            timeouts={s.user_id: s.timeouts for s in record.seats if s.timeouts},
            deadline=record.turn_deadline,
            turn_key=(game.current_player, game.round_number),
        )

    def reload(self, record: GameRecord, game: Game) -> None:
        """Take the database's state in place (another save came first): the same object, so
        whoever holds it sees the fresh state; the log and who acted when are kept."""
        fresh = LiveGame.from_record(record, game)
        self.game, self.names, self.baseline = fresh.game, fresh.names, fresh.baseline
        self.table_message_id, self.levels = fresh.table_message_id, fresh.levels
        self.timeouts, self.deadline, self.turn_key = fresh.timeouts, fresh.deadline, fresh.turn_key
        self.computers.clear()
        self.waited.clear()
        self.recent.forget_told()

    def view(self, viewer: int | None) -> PlayerView:
        """`view_for(self.game, viewer)`, worked out once per state of the game."""
        game = self.game
        if self._views_of is not game or self._views_version != game.version:
            self._views.clear()
            self._views_of, self._views_version = game, game.version
        seen = self._views.get(viewer)
        if seen is None:
            seen = self._views[viewer] = view_for(game, viewer)
        return seen

    def level(self, player: int) -> str:
        """The level of the computer in this seat (a bad stored level plays at the default)."""
        level = self.levels[player]
        return level if level in LEVELS else DEFAULT_LEVEL

    def computer(self, player: int) -> Player:
        """The engine AI playing this seat (its choices depend only on its own view)."""
        ai = self.computers.get(player)
        if ai is None:
            level = self.level(player)
            ai = self.computers[player] = make_player(level, seed=self.game_id * 1000 + player)
        return ai

    @property
    def humans(self) -> list[int]:
        """Players still at the table who are people."""
        return [p for p in self.game.players if not is_computer(p) and p not in self.game.left]

    def is_stale(self, user: int, version: int) -> bool:
        """Whether a click rendered at `version` must be refused (answered with a fresh hand)."""
        current = self.game.version
        if version == current:
            return False
        if version > current:
            return True
        return version < max(self.baseline, self.acted_at.get(user, 0))

    def acted(self, user: int, events: list[E.Event]) -> None:
        self.acted_at[user] = self.game.version
        if any(isinstance(e, E.RoundStarted) for e in events):
            self.baseline = self.game.version

    @property
    def host_present(self) -> bool:
        return self.host_id in self.game.players and self.host_id not in self.game.left


def stat_counters(events: list[E.Event]) -> dict[int, dict[str, int]]:
    """Leaderboard counters from engine events: cards played, UNO calls, catches, challenges."""
    out: dict[int, dict[str, int]] = {}

    def add(user: int, key: str) -> None:
        counts = out.setdefault(user, {})
        counts[key] = counts.get(key, 0) + 1

    for e in events:
        if isinstance(e, E.CardPlayed):
            add(e.player, "cards_played")
        elif isinstance(e, E.UnoCalled):
            add(e.player, "uno_calls")
        elif isinstance(e, E.UnoCaught):
            add(e.catcher, "catches")
        elif isinstance(e, E.ChallengeResolved):
            add(e.challenger, "challenges_won" if e.guilty else "challenges_lost")
    return out
