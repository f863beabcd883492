"""One possible table behind a player's view: the unseen cards dealt at random, the rest as seen.

A thinking computer player (search.py) knows its own hand and the public facts (card counts, the
discard pile, the colour, whose turn it is, what is left of the card being resolved). Everything
else, the other hands and the order of the draw pile, it samples: the cards it has not seen,
shuffled, dealt to each opponent as many as they hold, the rest as the pile. Nothing is read
from the real game, so the player cannot peek.

Known limits (the samples ignore what play revealed): a hand seen in a challenge or given away
in a swap, and what a player's draws say about their hand.
"""

from __future__ import annotations

import random

from .faces import COLOR_INDEX, COLOR_MASK, MATCH, deck_faces
from .game import Game
from .hand import Hand
from .state import GameState
from .view import PlayerView


def sample_game(view: PlayerView, rng: random.Random) -> Game | None:
    """A game consistent with `view` (None if the view's counts do not add up)."""
    me = view.viewer
    if me is None or view.current_player is None or view.top_card is None:
        return None
    unseen = deck_faces(view.rules.deck)
    for card in (*view.hand, *view.discard):
        try:
            unseen.remove(card.face)
        except ValueError:
            return None
    in_round = [s for s in view.seats if s.in_round]
    hidden = sum(s.cards for s in in_round if s.player != me)
    if hidden > len(unseen) or len(view.discard) != view.discard_pile:
        return None
    rng.shuffle(unseen)
    g = Game.__new__(Game)
    GameState.__init__(g)
    g.rules = view.rules
    g.players = [s.player for s in view.seats]
    g.seats = [s.player for s in in_round]
    g.left = [s.player for s in view.seats if s.left]
    g.eliminated = [s.player for s in view.seats if not s.in_round and not s.left]
    g.totals = {s.player: s.total for s in view.seats}
    g.round_number = view.round_number
    g.dealer = view.dealer
    g.held = {}
    dealt = 0
    for s in in_round:
        if s.player == me:
            g.held[me] = Hand(c.face for c in view.hand)
        else:
            g.held[s.player] = Hand(unseen[dealt : dealt + s.cards])
            dealt += s.cards
    g.pile = unseen[dealt:]
    g.discards = [c.face for c in view.discard]
    g.color_index = COLOR_INDEX[view.color]
    g.direction = view.direction
    g.turn = g.seats.index(view.current_player)
    g.decision = view.decision
    g.steps = list(view.steps)
    g.penalty = view.penalty
    g.penalty_kind = view.penalty_kind
    g.drawn_face = view.drawn.face if view.drawn is not None else -1
    if view.wd4_offender is not None and view.wd4_offender in g.held:
        g.wd4_record = _wd4_record(g, view.wd4_offender, COLOR_INDEX[view.wd4_color_before])
    g.at_risk = [s.player for s in in_round if s.at_risk]
    g.skip_next = list(view.skip_next)
    g.jump_open = True
    g.version = view.version
    g.seed = rng.getrandbits(63)
    return g


def _wd4_record(g: GameState, offender: int, color_before: int) -> tuple[int, int, bool]:
    """The Wild Draw Four's record, its guilt judged on the sampled hand of its player."""
    mask = g.held[offender].mask
    rule = g.rules.wd4_rule
    if rule == "color":
        guilty = bool(mask & COLOR_MASK[color_before])
    elif rule == "no_playable" and len(g.discards) > 1:
        guilty = bool(mask & MATCH[g.discards[-2] * 5 + color_before])
    else:
        guilty = False
    return offender, color_before, guilty
