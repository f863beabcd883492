"""What a match is made of: the decision it waits for, and every field of its state.

The fields are the core's: cards are faces (small integers, faces.py) and hands are `Hand`s
(counts plus a bitmask). `Game` (game.py) adds the readable boundary (`Card`, `Color`) and the
modules dealing.py, legality.py, resolve.py, turns.py and rounds.py the rules that change this
state; `snapshot` turns it into plain data and back. They all import this module, never `Game`.

Randomness is derived, not carried. Each round has a seed of its own, 32 bytes (`round_seed`,
secret until the round ends), and every shuffle of the round is a documented function of it
(seeds.py, "uno-shuffle-v1"): a table shows its commitment at the deal and reveals it at the end,
so anyone can check the deal. The first dealer is one HMAC of the match's integer `seed`
(`seeds.first_dealer_seat`; a record names it). A match started with a fixed integer seed
(tests, simulations) derives its round seeds from it; one started without gets fresh secret
ones. A snapshot stores these few values, and a resumed game still deals exactly as the
original would have.
"""

from __future__ import annotations

import hashlib
import random
import struct
from enum import StrEnum

from . import seeds
from .faces import NO_COLOR
from .hand import Hand
from .rules import RuleSet
from .scoring import Outcome, RoundOutcome

#: Seeds are drawn from this many bits when the caller gives none.
SEED_BITS = 63
MIN_PLAYERS = 2
MAX_PLAYERS = 10
_OFFICIAL = RuleSet()


class _KeyLayout(dict[int, tuple[struct.Struct, bytes, bytes]]):
    """`layout[n]`, for shuffling n items: the struct of n little-endian doubles, and the bytes
    that make each double's top two bytes those of a float in [1, 2) (made once per n)."""

    def __missing__(self, n: int) -> tuple[struct.Struct, bytes, bytes]:
        value = self[n] = (struct.Struct(f"<{n}d"), b"\xf0" * n, b"\x3f" * n)
        return value


_KEY_LAYOUT = _KeyLayout()


class Decision(StrEnum):
    """The one decision the game waits for."""

    PLAY = "play"  # play a card or draw
    PLAY_DRAWN = "play_drawn"  # play the card just drawn, or keep it
    CHOOSE_COLOR = "choose_color"
    CHOOSE_TARGET = "choose_target"
    RESPOND = "respond"  # a pending penalty: accept, challenge, stack or deflect
    NEXT_ROUND = "next_round"  # the round is over, the match is not
    MATCH_OVER = "match_over"


# The same members as module constants, which the rules import: CPython 3.11 reads an Enum
# member through its class in about 70 ns (a global in 10 ns), and a move reads several.
PLAY = Decision.PLAY
PLAY_DRAWN = Decision.PLAY_DRAWN
CHOOSE_COLOR = Decision.CHOOSE_COLOR
CHOOSE_TARGET = Decision.CHOOSE_TARGET
RESPOND = Decision.RESPOND
NEXT_ROUND = Decision.NEXT_ROUND
MATCH_OVER = Decision.MATCH_OVER


def new_seed() -> int:
    """A seed for a match nobody asked to reproduce."""
    return random.SystemRandom().getrandbits(SEED_BITS)


class GameState:
    """Every field of one match at one table; players are integer ids in seat order."""

    __slots__ = (
        "at_risk",
        "color_index",
        "dealer",
        "decision",
        "direction",
        "discards",
        "drawn_face",
        "eliminated",
        "flip_pairs",
        "held",
        "jump_open",
        "knocked_out",
        "left",
        "legal",
        "legal_for",
        "outcome",
        "passes",
        "penalty",
        "penalty_kind",
        "pile",
        "players",
        "positions",
        "preset_seeds",
        "random_steps",
        "round_number",
        "round_outcome",
        "round_seed",
        "round_shuffles",
        "rules",
        "seats",
        "secret_rounds",
        "seed",
        "side",
        "skip_next",
        "steps",
        "totals",
        "turn",
        "version",
        "voids",
        "wd4_record",
    )

    def __init__(self) -> None:
        # Use Game.new / Game.start / Game.from_dict; this only declares the state.
        self.rules = _OFFICIAL
        self.players: list[int] = []
        self.seats: list[int] = []  # players dealt into the current round, in seat order
        self.left: list[int] = []
        self.eliminated: list[int] = []
        # This round's players knocked out by the mercy rule (rules.mercy_limit), in order. A
        # player is added the moment their hand reaches the limit and leaves the round's seats
        # at the end of that move (perform.settle_knockouts).
        self.knocked_out: list[int] = []
        self.totals: dict[int, int] = {}
        self.round_number = 0
        self.dealer = 0
        self.held: dict[int, Hand] = {}
        self.pile: list[int] = []  # the draw pile as faces; the top card is the last one
        self.discards: list[int] = []  # the discard pile as faces; the top card is the last one
        self.color_index = NO_COLOR  # the active colour (faces.COLOR_INDEX)
        self.direction = 1
        self.turn = 0  # seat index of the player who acts (or who played the card being resolved)
        self.decision = NEXT_ROUND
        self.steps: list[str] = []  # what is left of resolving the card just played
        self.penalty = 0
        self.penalty_kind = ""  # "D", "W4" or "S" while a response is pending
        self.drawn_face = -1  # the card just drawn that may be played, or -1
        # The last Wild Draw Four: offender, colour index before it, whether they were guilty.
        self.wd4_record: tuple[int, int, bool] | None = None
        # What the table saw a player lack: they drew instead of playing, so (as far as anyone
        # can tell) none of the `mask` faces was among the `count` cards they held then. A
        # public belief for thinking computer players (determinize.py); a play or a hand that
        # changes owner forgets it.
        self.voids: dict[int, tuple[int, int]] = {}
        self.at_risk: list[int] = []
        self.skip_next: list[int] = []
        self.passes = 0
        self.jump_open = False  # nothing has happened since the top card was played
        self.version = 0
        # What `legal_moves(legal_for)` answered, kept until the state changes (legality.py).
        self.legal_for: int | None = None
        self.legal: tuple[int, ...] = ()
        self.round_outcome: RoundOutcome | None = None
        self.outcome: Outcome | None = None
        # Positions seen this round while the draw pile was empty, by digest (rounds.py).
        self.positions: dict[str, int] = {}
        self.seed = 0  # the match's random seed
        self.random_steps = 0  # random steps taken so far
        self.round_seed = b""  # this round's seed (empty: a round dealt before round seeds)
        self.round_shuffles = 0  # shuffles of this round so far
        self.secret_rounds = False  # round seeds are fresh secrets, not derived from `seed`
        self.preset_seeds: list[bytes] | None = None  # the next rounds' seeds (a replay)
        # UNO Flip (flip.py): the side in play (0 light, 1 dark) and this round's pairing of
        # the sides, `flip_pairs[face]` the other side of a card showing `face` (empty outside
        # Flip). Hands, piles and the colour are always of the side in play.
        self.side = 0
        self.flip_pairs: tuple[int, ...] = ()

    def next_round_seed(self) -> bytes:
        """The seed of the round about to be dealt: preset (a replay), secret, or derived."""
        preset = self.preset_seeds
        if preset:
            return preset.pop(0)
        if self.secret_rounds:
            return seeds.new_round_seed()
        return seeds.derived_round_seed(self.seed, self.round_number)

    def next_random(self) -> random.Random:
        """The generator of the next random step (derived from the seed and the step number)."""
        self.random_steps += 1
        return random.Random(f"{self.seed}:{self.random_steps}")

    def shuffle(self, items: list[int]) -> None:
        """Shuffle `items` in place as the round's next shuffle (seeds.py: "uno-shuffle-v1").

        A round dealt before round seeds existed (a snapshot of format 2 resumed) goes on with
        the former shuffle of the match seed and the step number, written out below.

        `random.shuffle` runs a Python function per card and was the largest cost of dealing a
        simulated round, so this one runs no Python code per item: each item becomes a sort
        key, a double in [1, 2) whose 40 bits above its lowest byte are random and whose lowest
        byte is the item itself; one sort of the keys, and the lowest bytes of the sorted keys
        are the shuffled items. As uniform as Fisher-Yates: only two keys with the same 40
        random bits (about once in 10^8 deals) keep the smaller item first.
        The bits are SHAKE-256 of the seed and the step number: no generator to set up.
        """
        round_seed = self.round_seed
        if round_seed:
            seeds.shuffle_in_place(items, round_seed, self.round_shuffles)
            self.round_shuffles += 1
            return
        n = len(items)
        if n > 256:  # (more cards than any deck: 112 at most; a test shuffles more)
            self.next_random().shuffle(items)
            return
        self.random_steps += 1
        doubles, exponent_low, exponent_high = _KEY_LAYOUT[n]
        keys = bytearray(hashlib.shake_256(b"%d:%d" % (self.seed, self.random_steps)).digest(8 * n))
        keys[0::8] = bytes(items)  # (a ValueError for an item outside 0-255)
        keys[6::8] = exponent_low
        keys[7::8] = exponent_high
        items[:] = doubles.pack(*sorted(doubles.unpack(keys)))[::8]

    def touch(self) -> None:
        """The state was changed from outside the rules (a test setting up a position)."""
        self.legal_for = None

    def next_seat(self, index: int, steps: int = 1) -> int:
        return (index + self.direction * steps) % len(self.seats)

    def seats_from(self, seat: int) -> list[int]:
        """The players after `seat` in turn order, ending with the one at `seat`."""
        n = len(self.seats)
        d = self.direction
        return [self.seats[(seat + d * k) % n] for k in range(1, n + 1)]

    def copy_into(self, other: GameState) -> None:
        """Make `other` an independent copy of this state (for simulations)."""
        for name in GameState.__slots__:
            setattr(other, name, getattr(self, name))
        other.players = self.players[:]
        other.seats = self.seats[:]
        other.left = self.left[:]
        other.eliminated = self.eliminated[:]
        other.knocked_out = self.knocked_out[:]
        other.totals = dict(self.totals)
        other.held = {p: h.copy() for p, h in self.held.items()}
        other.pile = self.pile[:]
        other.discards = self.discards[:]
        other.steps = self.steps[:]
        other.at_risk = self.at_risk[:]
        other.skip_next = self.skip_next[:]
        other.positions = dict(self.positions)
        other.voids = dict(self.voids)
        if self.preset_seeds is not None:
            other.preset_seeds = self.preset_seeds[:]
        other.legal_for = None
