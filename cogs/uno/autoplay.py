"""What is played without a click: the turn timer's moves for an absent player, and computer
players' choices.

Only decisions live here, worked out on a game the caller hands in; when they run and how they
are saved and shown is the running game's business (running.py). A computer that thinks long
(the expert) does so in a worker process (thinking.py), on the saved state and without any lock
held, so the bot goes on answering everyone else meanwhile.
"""

from __future__ import annotations

import logging

from bot.engine import Action, Decision, Game, GameError, Leave, NextRound, view_for
from bot.engine import events as E
from bot.i18n import t
from cogs.uno.live import LiveGame
from cogs.uno.thinking import decision_seed, think
from cogs.uno.turn_clock import MAX_TIMEOUTS

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
    """A computer that thinks long searches in a worker process (thinking.py); the others
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
