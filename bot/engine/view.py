"""What one player may know: their own hand, everyone's card counts, the pile and the turn.

Callers (the UI, computer players) build everything from a `PlayerView`, so nothing outside the
engine ever needs to read another player's hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card, Color
from .game import Game
from .rules import RuleSet
from .scoring import Outcome, RoundOutcome
from .state import Decision


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    cards: int
    at_risk: bool  # down to one card without calling UNO: catchable
    total: int
    in_round: bool
    left: bool
    knocked_out: bool = False  # out of this round by the mercy rule (Show 'Em No Mercy)


@dataclass(frozen=True, slots=True)
class PlayerView:
    viewer: int | None  # None: a spectator
    version: int
    rules: RuleSet
    round_number: int
    dealer: int
    hand: tuple[Card, ...]  # sorted; empty for spectators
    seats: tuple[SeatView, ...]  # every player of the match, in seat order
    top_card: Card | None
    color: Color | None
    direction: int
    decision: Decision
    current_player: int | None
    penalty: int  # cards the pending decision is about (stacks, Draw Two, Wild Draw Four)
    penalty_kind: str
    drawn: Card | None  # the card the viewer just drew, if they may play it
    draw_pile: int
    discard_pile: int
    wd4_offender: int | None
    wd4_color_before: Color | None  # public: the colour that was active before that card
    legal: tuple[Action, ...]
    round_outcome: RoundOutcome | None
    outcome: Outcome | None
    # Public facts a thinking computer player reconstructs the table from (search.py):
    discard: tuple[Card, ...] = ()  # the discard pile, top card last
    steps: tuple[str, ...] = ()  # what is left of resolving the card on top
    skip_next: tuple[int, ...] = ()  # players who miss their next turn
    voids: tuple[tuple[int, int, int], ...] = ()  # (player, faces mask, cards): see state.py
    # UNO Flip (flip.py): whether the dark side is in play, the other side of every other
    # player's cards (sorted; what a person in the viewer's seat sees of their hands: a
    # spectator sees everyone's), and the other side of the draw pile's top card. Never the
    # other side of the viewer's own cards.
    dark: bool = False
    other_sides: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    pile_back: Card | None = None

    @property
    def my_turn(self) -> bool:
        return self.viewer is not None and self.current_player == self.viewer

    def seat(self, player: int) -> SeatView:
        return next(s for s in self.seats if s.player == player)


def view_for(game: Game, viewer: int | None) -> PlayerView:
    """The game as `viewer` sees it (None: as a spectator sees it)."""
    in_round = set(game.seats) if not game.round_over else set(game.held)
    seats = tuple(
        SeatView(
            player=p,
            cards=game.card_count(p),
            at_risk=p in game.at_risk,
            total=game.totals[p],
            in_round=p in in_round and p not in game.left,
            left=p in game.left,
            knocked_out=p in game.knocked_out,
        )
        for p in game.players
    )
    current = game.current_player
    challengeable = game.penalty_kind in ("W4", "WDC")  # (WDC: UNO Flip's Wild Draw Colour)
    wd4 = game.wd4 if game.decision is Decision.RESPOND and challengeable else None
    return PlayerView(
        viewer=viewer,
        version=game.version,
        rules=game.rules,
        round_number=game.round_number,
        dealer=game.dealer,
        hand=tuple(game.hand(viewer)) if viewer is not None else (),
        seats=seats,
        top_card=game.top_card if game.discards else None,
        color=game.color,
        direction=game.direction,
        decision=game.decision,
        current_player=current,
        penalty=game.penalty,
        penalty_kind=game.penalty_kind,
        drawn=game.drawn if current == viewer else None,
        draw_pile=len(game.pile),
        discard_pile=len(game.discards),
        wd4_offender=wd4[0] if wd4 else None,
        wd4_color_before=wd4[1] if wd4 else None,
        legal=tuple(game.legal_actions(viewer)) if viewer is not None else (),
        round_outcome=game.round_outcome,
        outcome=game.outcome,
        discard=tuple(game.discard),
        steps=tuple(game.steps),
        skip_next=tuple(game.skip_next),
        voids=tuple((p, mask, count) for p, (mask, count) in game.voids.items()),
        dark=game.dark,
        other_sides=tuple((p, tuple(game.other_sides(p))) for p in game.held if p != viewer)
        if game.flip_pairs
        else (),
        pile_back=game.pile_back,
    )
