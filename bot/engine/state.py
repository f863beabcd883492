"""What a match is made of: the decision it waits for, and every field of its state.

`Game` (game.py) adds the rules that change this state; `snapshot` turns it into plain data and
back. Both import this module and not each other, so the engine has no import circle.

Randomness is derived, not carried: every random step (a shuffle, the first dealer, a random
starting player) gets a fresh generator seeded from the match's `seed` and the step's number.
A snapshot stores those two integers instead of a Mersenne Twister's 625 words, and a resumed
game still deals exactly as the original would have.
"""

from __future__ import annotations

import random
from enum import StrEnum

from . import actions as A
from .cards import Card, Color
from .rules import RuleSet
from .scoring import Outcome, RoundOutcome

#: Seeds are drawn from this many bits when the caller gives none.
SEED_BITS = 63


class Decision(StrEnum):
    """The one decision the game waits for."""

    PLAY = "play"  # play a card or draw
    PLAY_DRAWN = "play_drawn"  # play the card just drawn, or keep it
    CHOOSE_COLOR = "choose_color"
    CHOOSE_TARGET = "choose_target"
    RESPOND = "respond"  # a pending penalty: accept, challenge, stack or deflect
    NEXT_ROUND = "next_round"  # the round is over, the match is not
    MATCH_OVER = "match_over"


def new_seed() -> int:
    """A seed for a match nobody asked to reproduce."""
    return random.SystemRandom().getrandbits(SEED_BITS)


class GameState:
    """Every field of one match at one table; players are integer ids in seat order."""

    def __init__(self) -> None:
        # Use Game.new / Game.start / Game.from_dict; this only declares the state.
        self.rules = RuleSet()
        self.players: list[int] = []
        self.seats: list[int] = []  # players dealt into the current round, in seat order
        self.left: list[int] = []
        self.eliminated: list[int] = []
        self.totals: dict[int, int] = {}
        self.round_number = 0
        self.dealer = 0
        self.hands: dict[int, list[Card]] = {}
        self.draw_pile: list[Card] = []  # the top card is the last one
        self.discard: list[Card] = []  # the top card is the last one
        self.color: Color | None = None
        self.direction = 1
        self.turn = 0  # seat index of the player who acts (or who played the card being resolved)
        self.decision = Decision.NEXT_ROUND
        self.steps: list[str] = []  # what is left of resolving the card just played
        self.penalty = 0
        self.penalty_kind = ""  # "D", "W4" or "S" while a response is pending
        self.drawn: Card | None = None
        self.wd4: tuple[int, Color | None, bool] | None = None  # offender, colour before, guilty
        self.at_risk: list[int] = []
        self.skip_next: list[int] = []
        self.passes = 0
        self.jump_open = False  # nothing has happened since the top card was played
        self.version = 0
        self._legal_cache: tuple[int, int, list[A.Action]] | None = None
        self.round_outcome: RoundOutcome | None = None
        self.outcome: Outcome | None = None
        # Positions seen this round while the draw pile was empty, by digest (see Game).
        self.positions: dict[str, int] = {}
        self.seed = 0  # the match's random seed
        self.random_steps = 0  # random steps taken so far

    def next_random(self) -> random.Random:
        """The generator of the next random step (derived from the seed and the step number)."""
        self.random_steps += 1
        return random.Random(f"{self.seed}:{self.random_steps}")
