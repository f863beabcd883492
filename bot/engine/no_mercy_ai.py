"""How a careful player plays Show 'Em No Mercy (the `hard` heuristic of ai.py, on that deck).

The classic heuristic sheds points and keeps wilds; No Mercy is won otherwise. Nearly every
round ends by the mercy rule (a hand of 25 is out), so what counts is the size of the hands
and the draw cards that decide the stacks. A careful player:

- plays a 7 or a 0 when the hand it gets is smaller than its own, and not otherwise (the
  classic heuristic played them as plain numbers: half the time it took the bigger hand);
- plays Discard All when it sheds many cards, and stays in the colour held most;
- keeps its draw cards to answer a stack, unless one knocks the next player out or stops one
  about to go out, and answers a stack with its smallest draw card that will do (the big ones
  stay for the next round of the stack);
- takes an extra turn (Skip, Skip Everyone, Reverse with two) when it can;
- names its strongest colour after a wild, and the colour it has seen least for a Roulette,
  and swaps with whoever holds the fewest cards (these as in the classic game: ai.py).

Weights were picked by rounds won head to head (docs/benchmarks.md, "Computer players").
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from . import actions as A
from . import move_codes as M
from .cards import Card, Color, Rank
from .faces import COLOR_MASK, COLOR_OF, FACES, IS_WILD, NO_COLOR, RANK_INDEX, RANK_OF, RANKS
from .faces import DRAW_VALUE as FACE_DRAW_VALUE
from .game import Game
from .rules import RuleSet
from .state import Decision
from .view import PlayerView

#: The draw cards and what each makes the next player draw.
DRAW_VALUE: dict[Rank, int] = {
    Rank.DRAW_TWO: 2,
    Rank.DRAW_FOUR: 4,
    Rank.WILD_REVERSE_DRAW_FOUR: 4,
    Rank.WILD_DRAW_SIX: 6,
    Rank.WILD_DRAW_TEN: 10,
}
#: Cards that give the player another turn with two players (Skip Everyone always does).
_EXTRA_TURN = frozenset((Rank.SKIP, Rank.REVERSE, Rank.SKIP_EVERYONE))


def applies(rules: RuleSet) -> bool:
    """Whether these rules are No Mercy's (its deck): then this module's judgement is used."""
    return rules.deck == "no_mercy168"


@dataclass(frozen=True, slots=True)
class Weights:
    """What a careful No Mercy player values in a card to play (scores add up)."""

    color: float = 3.0  # per card held of the card's colour
    discard_all: float = 6.0  # per other card of its colour it sheds
    swap: float = 6.0  # per card fewer after a 7 or 0 (negative: more)
    extra_turn: float = 6.0  # Skip, Skip Everyone, or Reverse with two players
    keep_draw: float = 4.0  # per card of penalty given up to answer a stack later
    knock_out: float = 60.0  # a draw card that would put the next player at the mercy limit
    threat: float = 20.0  # an action or draw card on a player with two cards or fewer
    wild: float = 20.0  # a wild: it names the colour held most (most are draw cards too)
    roulette: float = 20.0  # a Colour Roulette played on the next player
    smallest_answer: bool = True  # answer a stack with the smallest draw card (else biggest)


WEIGHTS = Weights()


def hand_sizes(view: PlayerView) -> tuple[int, int, int]:
    """(Cards held by the next player, by the previous one, fewest held by another)."""
    order = [s.player for s in view.seats if s.in_round]
    me = view.viewer
    if me not in order or len(order) < 2:
        return 0, 0, 0
    i = order.index(me)
    nxt = view.seat(order[(i + view.direction) % len(order)]).cards
    prev = view.seat(order[(i - view.direction) % len(order)]).cards
    fewest = min(view.seat(p).cards for p in order if p != me)
    return nxt, prev, fewest


def pick_card(view: PlayerView, cards: list[Card], w: Weights = WEIGHTS) -> Card:
    """The card a careful player plays from `cards` (those playable, none empty)."""
    hand = view.hand
    mine = len(hand)
    colors: Counter[Color | None] = Counter(c.color for c in hand if c.color is not None)
    nxt, prev, fewest = hand_sizes(view)
    two = sum(1 for s in view.seats if s.in_round) == 2
    limit = view.rules.mercy_limit or 1000
    threatened = nxt <= 2

    def score(card: Card) -> float:
        rank = card.rank
        s = 0.0
        if card.is_wild:
            s += w.wild
        else:
            s += colors[card.color] * w.color
        if rank is Rank.SEVEN and view.rules.seven_o:
            s += w.swap * (mine - 1 - fewest)
        elif rank is Rank.ZERO and view.rules.seven_o:
            s += w.swap * (mine - 1 - prev)
        elif rank is Rank.WILD_COLOR_ROULETTE:
            s += w.roulette
        elif rank is Rank.DISCARD_ALL:
            s += w.discard_all * (colors[card.color] - 1)
        if rank in _EXTRA_TURN and (two or rank is Rank.SKIP_EVERYONE):
            s += w.extra_turn
        value = DRAW_VALUE.get(rank, 0)
        if value:
            if nxt + value >= limit:
                s += w.knock_out
            else:
                s -= w.keep_draw * value
        if threatened and (value or rank in _EXTRA_TURN):
            s += w.threat
        return s

    return max(cards, key=score)


def respond(view: PlayerView, w: Weights = WEIGHTS) -> A.Action:
    """Answer a pending stack with the smallest draw card that will do, else take it."""
    stacks = [a for a in view.legal if isinstance(a, A.Play) and not a.uno]
    if not stacks:
        return A.ACCEPT if A.ACCEPT in view.legal else view.legal[0]
    sign = 1 if w.smallest_answer else -1
    return min(stacks, key=lambda a: (sign * DRAW_VALUE.get(a.card.rank, 0), a.card.is_wild))


_SEVEN, _ZERO = RANK_INDEX[Rank.SEVEN], RANK_INDEX[Rank.ZERO]
_ROULETTE, _DISCARD_ALL = RANK_INDEX[Rank.WILD_COLOR_ROULETTE], RANK_INDEX[Rank.DISCARD_ALL]
_SKIP_EVERYONE, _REVERSE = RANK_INDEX[Rank.SKIP_EVERYONE], RANK_INDEX[Rank.REVERSE]
#: Per face: the cards it makes the next player draw, whether it gives another turn with two
#: players, and with more.
_FACE_DRAW = tuple(FACE_DRAW_VALUE[RANK_OF[f]] for f in range(FACES))
_EXTRA_TWO = tuple(RANKS[RANK_OF[f]] in _EXTRA_TURN for f in range(FACES))
_EXTRA_MANY = tuple(RANK_OF[f] == _SKIP_EVERYONE for f in range(FACES))


def fast_move(game: Game, player: int, rng: random.Random, w: Weights = WEIGHTS) -> int:
    """`pick_card` and `respond` on the integer core, for the expert's playouts (search.py):
    the same judgement, the rest as `search.fast_move` plays."""
    moves = game.moves(player)
    decision = game.decision
    hand = game.held[player]
    if decision is Decision.PLAY:
        plays = [m for m in moves if m < M.DRAW]
        if not plays:
            return moves[0]  # draw, or pass
        if hand.size == 2:
            plays = [m for m in plays if m >= M.PLAY_UNO]
        if len(plays) == 1:
            return plays[0]
        seats = game.seats
        held = game.held
        turn = game.turn
        mine = hand.size
        nxt = held[seats[game.next_seat(turn)]].size
        prev = held[seats[game.next_seat(turn, -1)]].size
        fewest = min(held[p].size for p in seats if p != player)
        two = len(seats) == 2
        extra = _EXTRA_TWO if two else _EXTRA_MANY
        limit = game.rules.mercy_limit or 1000
        swaps = game.rules.seven_o
        mask = hand.mask
        best, best_score = plays[0], -1e9
        for m in plays:
            f = m % FACES
            rank = RANK_OF[f]
            if IS_WILD[f]:
                s = w.wild
            else:
                held_of_color = (mask & COLOR_MASK[COLOR_OF[f]]).bit_count()
                s = held_of_color * w.color
                if rank == _DISCARD_ALL:
                    s += w.discard_all * (held_of_color - 1)
            if swaps and rank == _SEVEN:
                s += w.swap * (mine - 1 - fewest)
            elif swaps and rank == _ZERO:
                s += w.swap * (mine - 1 - prev)
            elif rank == _ROULETTE:
                s += w.roulette
            value = _FACE_DRAW[f]
            if extra[f]:
                s += w.extra_turn
            if value:
                s += w.knock_out if nxt + value >= limit else -w.keep_draw * value
            if nxt <= 2 and (value or extra[f]):
                s += w.threat
            s += rng.random()
            if s > best_score:
                best, best_score = m, s
        return best
    if decision is Decision.RESPOND:
        stacks = [m for m in moves if m < M.DRAW]
        if stacks:
            sign = 1 if w.smallest_answer else -1
            return min(stacks, key=lambda m: (sign * _FACE_DRAW[m % FACES], IS_WILD[m % FACES]))
        return M.ACCEPT if M.ACCEPT in moves else moves[0]
    if decision is Decision.PLAY_DRAWN:
        return moves[1] if hand.size == 2 and len(moves) > 1 else moves[0]
    if decision is Decision.CHOOSE_COLOR:
        mask = hand.mask
        return M.COLOR + max(range(NO_COLOR), key=lambda c: (mask & COLOR_MASK[c]).bit_count())
    if decision is Decision.CHOOSE_TARGET:
        targets = [m for m in moves if M.TARGET <= m < M.CATCH]
        return min(targets, key=lambda m: game.held[game.seats[m - M.TARGET]].size)
    return moves[0]
