"""What is played without a click: the turn timer's moves for an absent player, and computer
players' choices.

Only decisions live here, worked out on a game the caller hands in; when they run and how they
are saved and shown is the running game's business (game/owner.py). A computer that thinks long
(the expert) does so in a worker process (below), on the saved state and without any
lock held, so the bot goes on answering everyone else meanwhile.

Computer players that think (the expert searches for tens of milliseconds of pure Python per
decision) choose in a worker process (drawing/workers.py), so their thinking never holds the
interpreter lock against the event loop that answers everyone else.

A decision is `decide(level, seed, view)`: a fresh player of that level, seeded from the game,
the seat and the game's version, choosing from the seat's own view. Nothing else crosses over,
and the expert's budget counts playouts, not seconds, so the process and the thread that stands
in for it choose alike, and a game resumed after a restart is played on as it would have been.
The process starts the first time it is needed: a bot whose servers never seat an expert never
pays for it. A decision has a deadline (`DEADLINE`): a late one is the `hard` player's choice,
made here (a heuristic: tens of microseconds), so a stuck process never holds a game.
"""

from __future__ import annotations

import logging

from bot.engine import Action, Decision, Game, GameError, Leave, NextRound, PlayerView, view_for
from bot.engine import events as E
from bot.engine.ai import make_player
from bot.i18n import t
from cogs.uno.drawing.workers import WorkerLate, WorkerProcess
from cogs.uno.game.clock import MAX_TIMEOUTS
from cogs.uno.game.live import LiveGame

log = logging.getLogger(__name__)

#: Decisions that finish the timed-out player's turn after their first default action.
_FOLLOW_UPS = (Decision.PLAY_DRAWN, Decision.CHOOSE_COLOR, Decision.CHOOSE_TARGET)
#: Default actions the timer takes at most for one player's turn (draw, keep, colour, ...).
_MAX_TIMEOUT_ACTIONS = 4
# Computer player names: "🤖 Ada (hard)".
COMPUTER_NAMES = ("Ada", "Alan", "Grace", "Linus", "Edsger", "Barbara", "Ken", "Margaret", "Donald")


def computer_name(taken: list[str], level: str, locale: object = None) -> str:
    free = [n for n in COMPUTER_NAMES if not any(n in name for name in taken)]
    base = free[0] if free else f"#{len(taken) + 1}"
    return t("computer.name", locale, name=base, level=t(f"computer.level.{level}", locale))


def timeout_moves(
    game: Game, player: int, timeouts_before: int
) -> tuple[list[Action], list[E.Event], bool]:
    """The timer plays `player`'s turn on `game`: (actions, events, removed). Default actions
    until the turn is theirs no more; the third turn in a row lost removes them from the game.
    Raises GameError if the engine refuses its own default (a bug: nothing is saved)."""
    applied: list[Action] = []
    events: list[E.Event] = []
    while len(applied) < _MAX_TIMEOUT_ACTIONS:
        action = game.default_action(player)
        if action is None:
            break
        events += game.apply(player, action)
        applied.append(action)
        if game.current_player != player or game.decision not in _FOLLOW_UPS:
            break
    removed = timeouts_before + 1 >= MAX_TIMEOUTS and game.outcome is None
    if removed:
        events += game.apply(player, Leave())
        applied.append(Leave())
    return applied, events, removed


def computers_may_act(live: LiveGame) -> bool:
    """Whether a computer player has something to do (not merely "start the next round")."""
    game = live.game
    for player in live.levels:
        if player in game.left:
            continue
        legal = game.legal_actions(player)
        if legal and not isinstance(legal[0], NextRound):
            return True
    return False


async def computer_move(live: LiveGame, game: Game) -> tuple[int, Action] | None:
    """The move a computer makes now on the saved `game` (the one to move first, then any
    other with an out-of-turn action), or None when none has anything to do."""
    current = game.current_player
    for player in sorted(live.levels, key=lambda p: p != current):
        if player in game.left:
            continue
        action = await _choice(live, game, player)
        if action is not None and not isinstance(action, NextRound):
            return player, action
    return None


def apply_computer_move(game: Game, player: int, action: Action) -> tuple[Action, list[E.Event]]:
    """Apply a computer's choice; the engine's default move if the choice is illegal, so a game
    never waits on a computer. Raises GameError only if the default fails too."""
    try:
        return action, game.apply(player, action)
    except GameError:
        log.warning("computer %s chose an illegal %s", player, action.code)
        fallback = game.default_action(player)
        if fallback is None or isinstance(fallback, NextRound):
            raise
        return fallback, game.apply(player, fallback)


async def _choice(live: LiveGame, game: Game, player: int) -> Action | None:
    """A computer that thinks long searches in a worker process (game/computers.py); the others
    choose here, in microseconds. A failure plays the engine's default move."""
    computer = live.computer(player)
    if not getattr(computer, "thinks_long", False):
        return computer_choice(live, player, game)
    seed = decision_seed(live.game_id, player, game.version)
    try:
        return await think(live.level(player), seed, view_for(game, player))
    except Exception:
        log.exception("computer %s of game %s failed to choose", player, live.game_id)
        return game.default_action(player)


def computer_choice(live: LiveGame, player: int, game: Game | None = None) -> Action | None:
    """What the computer in this seat plays; the engine's default move if it fails."""
    game = live.game if game is None else game
    try:
        return live.computer(player).choose(view_for(game, player))
    except Exception:
        log.exception("computer %s of game %s failed to choose", player, live.game_id)
        return game.default_action(player)


log = logging.getLogger(__name__)

#: Seconds a decision may take in the process. The expert's budget is 150 ms of search; its
#: slowest decisions, with pickling both ways and a busy machine, stay well under a second.
#: Later than this the process is stuck, not thinking, and the game moves on with `FALLBACK`.
DEADLINE = 1.5
#: The level whose choice stands in for a late decision (the expert's own prior).
FALLBACK = "hard"


def decide(level: str, seed: int, view: PlayerView) -> Action | None:
    """What a `level` computer seeded with `seed` does from `view` (runs in the worker)."""
    return make_player(level, seed).choose(view)


def decision_seed(game_id: int, player: int, version: int) -> int:
    """One seed per decision: the same game, seat and moment always think alike."""
    return (game_id * 1_000_003 + player) * 1_000_003 + version


def warm_up() -> str:
    """Import the engine and think once, so the first real decision is not the slow one."""
    game = Game.new([1, 2], seed=0)
    player = game.current_player
    assert player is not None
    decide("expert", 0, view_for(game, player))
    return "engine loaded"


THINKING = WorkerProcess("thinking", warm_up)


async def think(level: str, seed: int, view: PlayerView) -> Action | None:
    """`decide` in the worker process (started now if it is not yet; a thread meanwhile); the
    `FALLBACK` level's choice, made here, if it is not there within `DEADLINE` seconds."""
    THINKING.start()
    try:
        return await THINKING.run(decide, level, seed, view, deadline=DEADLINE)
    except WorkerLate:
        log.warning("%s decision late (over %g s): %s chooses", level, DEADLINE, FALLBACK)
        return decide(FALLBACK, seed, view)
