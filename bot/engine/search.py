"""The expert computer player: determinized Monte-Carlo search over the integer core.

For each decision with a real choice it samples tables consistent with its own view
(determinize.py: the unseen cards dealt at random, nothing read from the real game), tries every
candidate move on each sample, plays the round out with a fast policy, and keeps the move that
won most often. Every candidate is tried on the same samples with the same random numbers, so
the comparison measures the moves, not the luck of the deal. A playout stops after `horizon`
moves and scores the chance to win from there (values.py, fitted from self-play): the moves
tried still show, most of the noise of the rest of the round does not. The budget is a number
of playouts (the same search for the same seed on any machine) with a time cap as a safety net
(at least one sample is always played); a decision with one candidate costs nothing.

Out of turn it acts at once: it calls UNO, catches whoever can be caught, and jumps in.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from . import actions as A
from . import move_codes as M
from . import no_mercy_ai
from .determinize import sample_game
from .faces import COLOR_MASK, COLOR_OF, FACES, IS_WILD, NO_COLOR, RANK_OF, SKIP, W4
from .game import Game
from .hand import Hand
from .state import Decision
from .values import PLAYERS, value, wilds
from .view import PlayerView

#: Playouts per decision by default (spread over the candidates): a budget counted in work,
#: not seconds, so a benchmark gives the same answer for the same seeds on a busy machine.
DEFAULT_PLAYOUTS = 800
#: Seconds per decision at most: a safety net for the bot on a slow or busy machine, well above
#: what DEFAULT_PLAYOUTS take on one core (docs/benchmarks.md, "Computer players").
DEFAULT_BUDGET = 0.15
#: Samples per decision at most (enough when the choice is between two moves).
MAX_SAMPLES = 400
#: Moves a playout plays before it is scored by the value table (values.py) at the next turn.
HORIZON = 20
#: See `ExpertPlayer.confidence`. With playouts scored by the value table the samples are
#: trusted outright (0): against oracle values their best move beat the prior's clearly, with 2
#: and 4 players (benchmarks/expert_regret.py; docs/benchmarks.md, "Computer players").
CONFIDENCE = 0.0
#: A playout longer than this is judged by the cards left instead of played to its end.
MAX_PLAYOUT_MOVES = 250


_SAMPLES_KNOW_BETTER = (Decision.RESPOND, Decision.CHOOSE_COLOR)


@dataclass
class ExpertPlayer:
    #: Its decisions take up to `budget` seconds: the bot runs them off its event loop.
    thinks_long: ClassVar[bool] = True

    playouts: int = DEFAULT_PLAYOUTS
    budget: float = DEFAULT_BUDGET
    horizon: int = HORIZON
    max_samples: int = MAX_SAMPLES
    rng: random.Random = field(default_factory=random.Random)
    #: The move a careful player would make (the `hard` heuristic) is kept unless another
    #: scored this many standard errors more on the same samples (0: it only breaks ties).
    confidence: float = CONFIDENCE
    prior: Callable[[PlayerView], A.Action | None] | None = None
    #: Samples used by the last decision (for benchmarks; 0 for a decision without search).
    last_samples: int = 0

    def choose(self, view: PlayerView) -> A.Action | None:
        self.last_samples = 0
        legal = view.legal
        if not legal:
            return None
        if A.CALL_UNO in legal:
            return A.CALL_UNO
        for action in legal:
            if isinstance(action, A.Catch) and view.seat(action.target).at_risk:
                return action
        if not view.my_turn:
            plays = [a for a in legal if isinstance(a, A.Play)]
            return _with_uno(plays, plays[0]) if plays else None
        if view.decision is Decision.NEXT_ROUND:
            return A.NEXT_ROUND
        candidates = _candidates(legal)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, candidates)

    def _search(self, view: PlayerView, candidates: list[A.Action]) -> A.Action:
        me = view.viewer
        assert me is not None
        deadline = time.perf_counter() + self.budget
        scores: list[list[float]] = [[] for _ in candidates]
        samples = 0
        wanted = min(self.max_samples, max(1, self.playouts // len(candidates)))
        horizon = self.horizon
        while samples < wanted:
            game = sample_game(view, self.rng)
            if game is None:
                break
            codes = [M.code_of(a, game.seats) for a in candidates]
            luck = self.rng.getrandbits(32)
            for i, code in enumerate(codes):
                sim = game.copy()
                sim.make_move(me, code)
                scores[i].append(playout(sim, me, random.Random(luck), horizon))
            samples += 1
            if time.perf_counter() >= deadline:
                break
        self.last_samples = samples
        totals = [sum(s) for s in scores]
        best = max(range(len(candidates)), key=lambda i: totals[i])
        sensible = self.prior(view) if self.prior is not None else None
        if sensible is None or samples == 0:
            return candidates[best]
        sensible = _with_uno(list(view.legal), sensible)
        if sensible not in candidates:
            return candidates[best]
        s = candidates.index(sensible)
        # A challenge and a colour are judged by the samples alone: there the heuristic knows
        # less than they do (careful players seldom bluff, `determinize.BLUFF_BELIEF`; a player
        # who drew lacks what was playable, `PlayerView.voids`).
        confidence = 0.0 if view.decision in _SAMPLES_KNOW_BETTER else self.confidence
        margin = confidence * _spread(scores[best], scores[s])
        return candidates[best] if totals[best] - totals[s] > margin else sensible


def _spread(a: list[float], b: list[float]) -> float:
    """The standard error of sum(a) - sum(b) over paired samples (same deal, same luck)."""
    n = len(a)
    if n < 2:
        return 0.0
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) * n / (n - 1)
    root: float = variance**0.5  # float ** float is typed Any (a negative base gives complex)
    return root


def _candidates(legal: tuple[A.Action, ...]) -> list[A.Action]:
    """The moves worth comparing: no catches or calls, and a play always with its UNO call."""
    out = []
    for action in legal:
        if isinstance(action, A.Catch | A.CallUno):
            continue
        if isinstance(action, A.Play) and not action.uno and A.Play(action.card, True) in legal:
            continue
        out.append(action)
    return out


def _with_uno(legal: Sequence[A.Action], play: A.Action) -> A.Action:
    if isinstance(play, A.Play) and not play.uno:
        called = A.Play(play.card, uno=True)
        if called in legal:
            return called
    return play


def playout(game: Game, me: int, rng: random.Random, horizon: int = MAX_PLAYOUT_MOVES) -> float:
    """Play on with `fast_move` for everyone: 1.0 if `me` wins the round, else 0.0.

    After `horizon` moves the playout stops at the next normal turn and scores `me`'s chance
    to win from there (values.py): the moves just tried still show, most of the luck of the
    rest of the round does not. A round cut off after MAX_PLAYOUT_MOVES counts as won by
    whoever holds the fewest cards. Knocked out by the mercy rule, `me` has lost.
    """
    player = game.current_player
    moves = 0
    tables = len(game.seats) in PLAYERS
    held = game.held
    policy = no_mercy_ai.fast_move if no_mercy_ai.applies(game.rules) else fast_move
    while player is not None and moves < MAX_PLAYOUT_MOVES:
        if moves >= horizon and tables and game.decision is Decision.PLAY:
            if me not in held:
                return 0.0
            hand = held[me]
            other = min((held[p] for p in game.seats if p != me), key=_size)
            return value(
                len(game.seats), hand.size, other.size, player == me, wilds(hand), wilds(other)
            )
        player = game.make_move(player, policy(game, player, rng))
        moves += 1
    if player is None:
        outcome = game.round_outcome
        return 1.0 if outcome is not None and outcome.winner == me else 0.0
    if me not in game.held:
        return 0.0
    fewest = min(game.held[p].size for p in game.seats)
    return 1.0 if game.held[me].size == fewest else 0.0


def _size(hand: Hand) -> int:
    return hand.size


def fast_move(game: Game, player: int, rng: random.Random) -> int:
    """A quick, sensible move, the way the `hard` player plays: an action card when it buys a
    turn, else a coloured card of the colour held most, a wild last; UNO always called, the
    colour held most named, penalties stacked when possible, and every Wild Draw Four
    challenged (as careful players nearly always do: a bluff is then never free)."""
    moves = game.moves(player)
    decision = game.decision
    hand = game.held[player]
    if decision is Decision.PLAY:
        plays = [m for m in moves if m < M.DRAW]
        if not plays:
            return moves[0]  # draw, or pass
        if hand.size == 2:
            plays = [m for m in plays if m >= M.PLAY_UNO]
        plain = [m for m in plays if not IS_WILD[m % FACES]]
        if not plain:  # a plain wild before a Wild Draw Four
            return min(plays, key=lambda m: (m % FACES == W4, rng.random()))
        if len(plain) == 1:
            return plain[0]
        # An action card when it buys a turn (two players) or stops a player about to go out;
        # otherwise stay in the colour held most (a coloured card keeps the wilds for later).
        seats = game.seats
        urgent = len(seats) == 2 or game.held[seats[game.next_seat(game.turn)]].size <= 2
        mask = hand.mask
        return max(
            plain,
            key=lambda m: (
                urgent and RANK_OF[m % FACES] >= SKIP,
                (mask & COLOR_MASK[COLOR_OF[m % FACES]]).bit_count(),
                rng.random(),
            ),
        )
    if decision is Decision.PLAY_DRAWN:
        return moves[1] if hand.size == 2 else moves[0]
    if decision is Decision.CHOOSE_COLOR:
        mask = hand.mask
        best = max(range(NO_COLOR), key=lambda c: (mask & COLOR_MASK[c]).bit_count())
        return M.COLOR + best
    if decision is Decision.CHOOSE_TARGET:
        targets = [m for m in moves if M.TARGET <= m < M.CATCH]
        return min(targets, key=lambda m: game.held[game.seats[m - M.TARGET]].size)
    if decision is Decision.RESPOND:
        stacks = [m for m in moves if m < M.DRAW]
        if stacks:
            return stacks[-1]
        return M.CHALLENGE if M.CHALLENGE in moves else M.ACCEPT
    return moves[0]
