"""The running game's owner (cogs/uno/game/owner.py) on a real SQLite file: a change is saved, then
adopted, then shown in one fixed order; a change that cannot be saved leaves the game exactly
as saved and shows nothing (the round-winning play a failed save must not leak into any hand).

The publishers here are recorders (they note what they were asked to show, in order); the
game, the engine, the save and the database are the real ones. Faults are real SQLite faults:
a trigger refuses the rows of the change.
"""

from __future__ import annotations

import contextlib
import gc
import random
import sqlite3
import weakref
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.engine import Card, Game, NextRound, Play, RuleSet
from bot.engine import events as E
from bot.settings import Settings
from bot.store import Database, NewAction, create_engine
from bot.ui.errors import UserError
from cogs.uno.game.owner import RunningGame
from cogs.uno.game.registry import RunningGames
from cogs.uno.game.saving import Change, Saving
from cogs.uno.shared import Shared

GUILD, CHANNEL = 1_000_000_000_000_000_001, 2_000_000_000_000_000_002
ALICE, BOB = 3_000_000_000_000_000_003, 4_000_000_000_000_000_004


class _Shown:
    """Every publisher in one: notes what each step of a publication was asked to show. It
    stands for the results and for the services that make a game's table, hands and ping (the
    owner's own objects, which note into the same list)."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, Any]] = []

    # Results
    async def announce(self, live: Any, events: list[E.Event], note: Any = None) -> bool:
        self.steps.append(("results", [type(e).__name__ for e in events]))
        return False

    # TableUpdater, PrivateHands, TurnPings: the game's own table, hands and ping
    def table(self, game_id: int, render: Any, on_posted: Any) -> _Table:
        return _Table(self.steps, game_id)

    def hands(self, live: Any, lock: Any) -> _Hands:
        return _Hands(self.steps, live)

    def ping(self, live: Any, clock: Any, retired: Any) -> _Ping:
        return _Ping(self.steps, live)


class _Table:
    def __init__(self, steps: list[tuple[str, Any]], game_id: int) -> None:
        self.steps, self.game_id = steps, game_id

    def request(self, *, repost: bool = False) -> None:
        self.steps.append(("table", self.game_id))

    async def flush(self, timeout: float | None = None) -> bool:
        return True

    def retire(self) -> None:
        self.steps.append(("table retired", self.game_id))


class _Hands:
    def __init__(self, steps: list[tuple[str, Any]], live: Any) -> None:
        self.steps, self.live = steps, live

    def refresh(self, events: Any = (), **told: Any) -> None:
        self.steps.append(("hands", self.live.game.to_dict()))


class _Ping:
    def __init__(self, steps: list[tuple[str, Any]], live: Any) -> None:
        self.steps, self.live = steps, live

    def after_change(self) -> None:
        self.steps.append(("pings", self.live.game.version))

    async def host_round_over(self) -> None:
        """(The server has a turn timer: the host is not pinged, see the fixture.)"""

    async def call_off_host(self) -> None:
        """(Nothing to call off.)"""

    def farewell(self) -> None:
        """(Nothing to delete.)"""


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[RunningGames, _Shown, Path]]:
    path = tmp_path / "uno.db"
    db = Database(create_engine(f"sqlite+aiosqlite:///{path}"))
    await db.migrate()
    shared = Shared(SimpleNamespace(), db, Settings(_env_file=None, discord_token=None))
    shared.remember_settings(GUILD, "en", 60)  # a turn timer: no host ping to post
    shown = _Shown()
    games = RunningGames(shared, Saving(shared), shown, shown, shown, shown)
    try:
        yield games, shown, path
    finally:
        await games.close()
        await db.close()


async def _running(games: RunningGames, hands: list[str], starter: str) -> RunningGame:
    """A started two-player game; Alice is to play first with `hands[0]`."""
    rules = RuleSet().with_options(hand_size=len(hands[0].split()))
    deck = [Card.of(c) for c in _deck(hands, starter)]
    game, _ = Game.start([ALICE, BOB], rules, seed=1, dealer=BOB, deck=deck)
    async with games.shared.db.write() as unit:
        lobby = await unit.games.open_lobby(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice", rules=rules
        )
        await unit.games.seat(lobby.id, BOB, "Bob")
        record = await unit.games.start(lobby.id, state=game.to_dict(), version=game.version)
    return games.hold(record, game)


def _deck(hands: list[str], starter: str) -> list[str]:
    from bot.engine import build_deck

    rest = [c.code for c in build_deck("classic108")]
    order = []
    for code in [*" ".join(hands).split(), starter]:
        rest.remove(code)
        order.append(code)
    return order + rest


def _play(user: int, code: str) -> Any:
    def plan(draft: Game) -> Change:
        action = Play(Card.of(code))
        return Change([action], draft.apply(user, action), actor=user)

    return plan


async def _stored(games: RunningGames, game_id: int) -> dict[str, Any]:
    async with games.shared.db.read() as unit:
        return (await unit.games.load(game_id)).state


@contextlib.contextmanager
def _refused(path: Path, table: str) -> Any:
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute(
            f"CREATE TRIGGER injected BEFORE INSERT ON {table} "
            "BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
        )
        try:
            yield
        finally:
            conn.execute("DROP TRIGGER injected")


@pytest.mark.parametrize("table", ["rounds", "game_actions"])
async def test_a_round_winning_play_that_cannot_be_saved_changes_and_shows_nothing(
    world: tuple[RunningGames, _Shown, Path], table: str
) -> None:
    games, shown, path = world
    running = await _running(games, ["R1", "B7"], "R5")  # Alice's last card wins the round
    saved = running.live.game.to_dict()
    with _refused(path, table), pytest.raises(Exception, match="injected fault"):
        await running.commit(_play(ALICE, "R1"))
    # Memory is the database: the game is exactly as saved, and nothing was shown.
    assert running.live.game.to_dict() == saved == await _stored(games, running.game_id)
    assert running.live.game.round_over is False
    await running.publish()
    assert shown.steps == []
    # Once saving works, the same play goes through, and is shown in the fixed order.
    change = await running.commit(_play(ALICE, "R1"))
    assert any(isinstance(e, E.RoundEnded) for e in change.events)
    assert running.live.game.to_dict() == await _stored(games, running.game_id)
    await running.publish()
    assert [step for step, _ in shown.steps] == ["results", "table", "hands", "pings"]
    assert shown.steps[2][1] == running.live.game.to_dict()  # the hands saw the saved state


async def test_a_conflicting_save_reloads_the_saved_state_and_asks_to_try_again(
    world: tuple[RunningGames, _Shown, Path],
) -> None:
    games, shown, _ = world
    running = await _running(games, ["R1 R2", "B7 B8"], "R5")
    other = running.live.game.copy()  # another process plays Alice's R1 first
    action = Play(Card.of("R1"))
    other.apply(ALICE, action)
    async with games.shared.db.write() as unit:
        await unit.games.save_action(
            running.game_id,
            expected_version=running.live.game.version,
            state=other.to_dict(),
            actions=[NewAction(version=other.version, action=action.code, actor_id=ALICE)],
        )
    with pytest.raises(UserError) as refused:
        await running.commit(_play(ALICE, "R2"))
    assert refused.value.key == "error.conflict"
    assert running.live.game.to_dict() == other.to_dict()  # reloaded in place
    await running.publish()
    assert shown.steps == []


async def test_changes_are_shown_in_the_order_they_were_saved(
    world: tuple[RunningGames, _Shown, Path],
) -> None:
    games, shown, _ = world
    running = await _running(games, ["R1 R2 R3", "R7 R8 R9"], "R5")
    await running.commit(_play(ALICE, "R1"))
    await running.commit(_play(BOB, "R7"))
    await running.publish()  # one call shows both, the older first
    versions = [v for step, v in shown.steps if step == "pings"]
    assert len(versions) == 2
    assert [step for step, _ in shown.steps] == ["results", "table", "hands", "pings"] * 2


async def test_the_channel_lock_is_the_owners_and_goes_with_it(
    world: tuple[RunningGames, _Shown, Path],
) -> None:
    """A lobby flow in the channel waits on the running game's own lock; once the owner is
    retired and nobody holds the lock, nothing of the game is left in the process."""
    games, _, _ = world
    running = await _running(games, ["R1", "B7"], "R5")
    assert games.shared.lock(CHANNEL) is running.lock
    gone = weakref.ref(running.lock)
    async with running.lock:
        running.stop()  # the end, saved elsewhere in this test: the owner retires
    assert games.peek(running.game_id) is None and running.closed
    del running
    gc.collect()
    assert gone() is None  # the process keeps no lock per channel once nobody holds it


@pytest.mark.parametrize("seed", range(20))
def test_a_change_worked_on_a_copy_saves_what_the_game_itself_would(seed: int) -> None:
    """The owner applies every change to `Game.copy()` and saves the copy: the copy must be the
    game, bit for bit, for every kind of move (shuffles included)."""
    rng = random.Random(seed)
    rules = RuleSet.preset(rng.choice(["official", "party", "norway"]))
    game = Game.new([1, 2, 3], rules, seed=seed)
    for _ in range(300):
        player = game.current_player
        actors = [p for p in game.players if game.legal_actions(p)]
        if not actors:
            break
        actor = player if player in actors else rng.choice(actors)
        action = rng.choice(game.legal_actions(actor))
        draft = game.copy()
        draft.apply(actor, action)
        game.apply(actor, action)
        assert draft.to_dict() == game.to_dict()


async def test_a_break_is_the_servers_round_break_and_a_wait_moves_only_its_end(
    world: tuple[RunningGames, _Shown, Path],
) -> None:
    """The break after a round is the server's `round_break` (not its 60-s turn timer); a Wait
    is a change like any other, through the owner: the deadline alone is saved (same version,
    same state), then adopted and shown; one that cannot be saved changes nothing."""
    from datetime import timedelta

    from cogs.uno.game.clock import WAIT_SECONDS, now, waited_deadline

    games, shown, path = world
    games.shared.round_breaks[GUILD] = 45
    running = await _running(games, ["R1", "B7"], "R5")
    before = now()
    await running.commit(_play(ALICE, "R1"))  # the round's end: the break begins
    live = running.live
    assert live.deadline is not None
    assert timedelta(seconds=44) <= live.deadline - before <= timedelta(seconds=46)
    version, state, ends = live.game.version, live.game.to_dict(), live.deadline

    def wait(draft: Game) -> Change:
        return Change([], [], actor=BOB, break_until=waited_deadline(live))

    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute(
            "CREATE TRIGGER injected BEFORE UPDATE ON games "
            "BEGIN SELECT RAISE(ABORT, 'injected fault'); END"
        )
        with pytest.raises(Exception, match="injected fault"):
            await running.commit(wait)
        conn.execute("DROP TRIGGER injected")
    assert live.deadline == ends and live.waited == set()  # nothing changed, nothing spent
    await running.publish()
    shown.steps.clear()
    await running.commit(wait)
    assert live.deadline == ends + timedelta(seconds=WAIT_SECONDS) and live.waited == {BOB}
    assert live.game.version == version and live.game.to_dict() == state
    async with games.shared.db.read() as unit:
        record = await unit.games.get(running.game_id)
    assert record.turn_deadline == live.deadline and record.version == version
    await running.publish()
    assert [step for step, _ in shown.steps] == ["results", "table", "hands", "pings"]
    # The next round begins: a new break will have a new Wait for everyone.

    def next_round(draft: Game) -> Change:
        return Change([NextRound()], draft.apply(ALICE, NextRound()), actor=ALICE)

    await running.commit(next_round)
    assert live.waited == set() and not live.game.round_over
