"""Moves as small integers: the core's spelling of `Action`s, for simulations and the engine.

0-135 play a face, 136-271 play a face and call UNO with it, then the simple verbs, the
colours, and a target or a catch by seat index. `action_of` and `code_of` convert at the
boundary, so `Game.legal_actions` and `Game.moves` are one query spelled two ways.
"""

from __future__ import annotations

from typing import Final

from . import actions as A
from .cards import COLORS, DARK_COLORS
from .faces import CARDS, COLOR_INDEX, FACES

PLAY_UNO: Final = FACES  # + face
DRAW: Final = 2 * FACES
KEEP: Final = DRAW + 1
PASS: Final = DRAW + 2
ACCEPT: Final = DRAW + 3
CHALLENGE: Final = DRAW + 4
CALL_UNO: Final = DRAW + 5
NEXT_ROUND: Final = DRAW + 6
COLOR: Final = DRAW + 7  # + colour index 0-3
TARGET: Final = COLOR + 4  # + seat index
CATCH: Final = TARGET + 32  # + seat index

_FIXED: dict[int, A.Action] = {
    **{f: A.Play(c) for f, c in enumerate(CARDS)},
    **{PLAY_UNO + f: A.Play(c, uno=True) for f, c in enumerate(CARDS)},
    DRAW: A.DRAW,
    KEEP: A.KEEP,
    PASS: A.PASS,
    ACCEPT: A.ACCEPT,
    CHALLENGE: A.CHALLENGE,
    CALL_UNO: A.CALL_UNO,
    NEXT_ROUND: A.NEXT_ROUND,
    **{COLOR + i: A.ChooseColor(c) for i, c in enumerate(COLORS)},
}
ACTION_OF: Final = tuple(_FIXED.get(code) for code in range(TARGET))
#: The same on UNO Flip's dark side, where the colours named are the dark ones.
DARK_ACTION_OF: Final = tuple(
    A.ChooseColor(DARK_COLORS[code - COLOR]) if COLOR <= code < COLOR + 4 else action
    for code, action in enumerate(ACTION_OF)
)
_SIMPLE_CODE: Final = {
    A.Draw: DRAW,
    A.Keep: KEEP,
    A.Pass: PASS,
    A.Accept: ACCEPT,
    A.Challenge: CHALLENGE,
    A.CallUno: CALL_UNO,
    A.NextRound: NEXT_ROUND,
}


def action_of(code: int, seats: list[int], dark: bool = False) -> A.Action:
    """The `Action` a move code spells (targets and catches name the player at that seat;
    colours are the dark side's while UNO Flip's is in play: `dark`)."""
    if code < TARGET:
        action = DARK_ACTION_OF[code] if dark else ACTION_OF[code]
        assert action is not None
        return action
    if code < CATCH:
        return A.ChooseTarget(seats[code - TARGET])
    return A.Catch(seats[code - CATCH])


def code_of(action: A.Action, seats: list[int]) -> int:
    """The move code of `action`, or -1 when no move spells it (a player not seated)."""
    # `type(x) is C` rather than isinstance: exact classes, and mypy narrows on it too.
    if type(action) is A.Play:
        face = action.card.face
        return face + PLAY_UNO if action.uno else face
    simple = _SIMPLE_CODE.get(type(action))
    if simple is not None:
        return simple
    if type(action) is A.ChooseColor:
        return COLOR + COLOR_INDEX[action.color]
    if type(action) is A.ChooseTarget:
        player = action.player
        return TARGET + seats.index(player) if player in seats else -1
    if type(action) is A.Catch:
        target = action.target
        return CATCH + seats.index(target) if target in seats else -1
    return -1
