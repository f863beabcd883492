"""What happened: the events `Game.apply` returns, for the table log, the UI and statistics.

Events carry player ids, never display names. `CardsDrawn.cards` and
`ChallengeResolved.revealed_hand` are private: only the drawing player and the challenger
may see them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from .cards import Card, Color

if TYPE_CHECKING:
    from .scoring import Outcome, RoundOutcome


class Event:
    __slots__ = ()


class DrawReason(StrEnum):
    CHOICE = "choice"  # the player drew on their turn
    PENALTY = "penalty"  # Draw Two, Wild Draw Four, stacks
    UNO = "uno"  # caught without calling UNO
    FALSE_CATCH = "false_catch"
    CHALLENGE = "challenge"  # a lost challenge (either side)
    EFFECT = "effect"  # a Customizable card's effect


@dataclass(slots=True)
class RoundStarted(Event):
    round_number: int
    dealer: int
    starter: Card
    commitment: str = ""  # SHA-256 of the round's seed, 64 hex digits (seeds.py)


@dataclass(slots=True)
class StarterIgnored(Event):
    """Show 'Em No Mercy: an action card turned as starter stays on the discard pile without
    effect, and the next card is turned."""

    card: Card


@dataclass(slots=True)
class CardsDiscarded(Event):
    """A Discard All took every other card of its colour from its player's hand onto the
    discard pile (under the Discard All, without their effects)."""

    player: int
    cards: tuple[Card, ...]


@dataclass(slots=True)
class SidesFlipped(Event):
    """UNO Flip: a Flip card (played, or turned as starter: `player` None) turned over every
    hand, the draw pile and the discard pile; `dark` is the side now in play, `top` the card
    now on the discard pile."""

    player: int | None
    dark: bool
    top: Card


@dataclass(slots=True)
class PlayerKnockedOut(Event):
    """The mercy rule: `player` reached `cards` cards and is out of the round; their hand went
    face down under the draw pile."""

    player: int
    cards: int


@dataclass(slots=True)
class StarterReturned(Event):
    """A Wild Draw Four (or a special wild) turned as starter went back into the pile."""

    card: Card


@dataclass(slots=True)
class CardPlayed(Event):
    player: int
    card: Card
    jump_in: bool = False


@dataclass(slots=True)
class ColorChosen(Event):
    player: int
    color: Color


@dataclass(slots=True)
class CardsDrawn(Event):
    player: int
    cards: tuple[Card, ...]
    reason: DrawReason

    @property
    def count(self) -> int:
        return len(self.cards)


@dataclass(slots=True)
class DebtCancelled(Event):
    """Both piles ran out: the rest of a draw was cancelled."""

    player: int
    missing: int


@dataclass(slots=True)
class DrawnCardKept(Event):
    player: int


@dataclass(slots=True)
class TurnPassed(Event):
    player: int


@dataclass(slots=True)
class TurnSkipped(Event):
    player: int


@dataclass(slots=True)
class DirectionChanged(Event):
    direction: int


@dataclass(slots=True)
class PenaltyAccepted(Event):
    player: int
    cards: int


@dataclass(slots=True)
class ChallengeResolved(Event):
    challenger: int
    offender: int
    guilty: bool
    revealed_hand: tuple[Card, ...]


@dataclass(slots=True)
class HandsSwapped(Event):
    player: int
    target: int


@dataclass(slots=True)
class HandsRotated(Event):
    direction: int


@dataclass(slots=True)
class HandsShuffled(Event):
    player: int


@dataclass(slots=True)
class PlayAgain(Event):
    player: int


@dataclass(slots=True)
class UnoCalled(Event):
    player: int


@dataclass(slots=True)
class UnoCaught(Event):
    catcher: int
    target: int
    penalty: int


@dataclass(slots=True)
class FalseCatch(Event):
    catcher: int
    target: int
    penalty: int


@dataclass(slots=True)
class DeckReshuffled(Event):
    cards: int


@dataclass(slots=True)
class PlayerLeft(Event):
    player: int


@dataclass(slots=True)
class PlayerEliminated(Event):
    player: int
    total: int


@dataclass(slots=True)
class RoundEnded(Event):
    outcome: RoundOutcome
    seed: str = ""  # the round's seed revealed, 64 hex digits (empty: a round without one)


@dataclass(slots=True)
class MatchEnded(Event):
    outcome: Outcome
