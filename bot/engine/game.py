"""The match as one object: create it, ask it, apply actions to it, save and restore it.

`legal_actions(player)` answers "what may this player do now" (including out-of-turn jump-ins
and catches); `apply(player, action)` changes the state and returns what happened as events, or
raises a `GameError` and changes nothing. Everything needed to resume a game exactly, its random
seed included, round-trips through `to_dict()` / `from_dict()`.

This is the readable boundary: it speaks `Card`, `Color` and `Action`. The rules themselves
work on integers (faces.py) in legality.py, drawing.py, resolve.py, turns.py and rounds.py.
Simulations call `apply(player, action, events=False)`: the same rules, nothing recorded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import actions as A
from . import events as E
from . import seeds, snapshot
from .cards import Card, Color
from .errors import GameOver, NotInGame
from .faces import CARDS, COLOR_INDEX, SIDE_COLORS, deck_size
from .flip import other_sides, pile_back
from .hand import Hand, HandsView
from .legality import (
    checked_code,
    default_action,
    favourite_color,
    is_playable,
    legal_actions,
    legal_moves,
    playable_faces,
)
from .move_codes import code_of
from .perform import make_move
from .rounds import deal_round, end_round, finish_match, unseat
from .rules import InvalidRules, RuleSet
from .scoring import Outcome, RoundEnd, Termination
from .state import (
    CHOOSE_COLOR,
    CHOOSE_TARGET,
    MATCH_OVER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEXT_ROUND,
    RESPOND,
    GameState,
    new_seed,
)

FORMAT_VERSION = snapshot.FORMAT_VERSION


class Game(GameState):
    """One match at one table: players are integer ids in seat order (clockwise)."""

    __slots__ = ()

    # ----------------------------------------------------------------- creation

    @classmethod
    def start(
        cls,
        players: Sequence[int],
        rules: RuleSet | None = None,
        seed: int | None = None,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
        round_seeds: Sequence[bytes] | None = None,
    ) -> tuple[Game, list[E.Event]]:
        """A new match with round 1 dealt, and the events of that deal.

        Without `seed` every round gets a fresh secret seed (seeds.py); with one, the match is
        reproducible: its round seeds derive from it. `round_seeds` fixes the seeds of the first
        rounds (a replay of a record). `deck` fixes round 1's cards in draw order (hands are
        dealt in seat order, `hand_size` each, then the starter is turned); tests use it to set
        up exact situations.
        """
        game = cls._seated(players, rules, seed, dealer, round_seeds)
        events: list[E.Event] = []
        deal_round(game, deck, events)
        return game, events

    @classmethod
    def new(
        cls,
        players: Sequence[int],
        rules: RuleSet | None = None,
        seed: int | None = None,
        *,
        dealer: int | None = None,
        deck: Sequence[Card] | None = None,
        round_seeds: Sequence[bytes] | None = None,
    ) -> Game:
        """`start` without the events of the deal (simulations deal a new match per playout:
        recording the deal, its commitment's SHA-256 included, would be thrown away)."""
        game = cls._seated(players, rules, seed, dealer, round_seeds)
        deal_round(game, deck, None)
        return game

    @classmethod
    def _seated(
        cls,
        players: Sequence[int],
        rules: RuleSet | None,
        seed: int | None,
        dealer: int | None,
        round_seeds: Sequence[bytes] | None,
    ) -> Game:
        """A new match before its first deal: the rules checked, the players seated."""
        rules = rules or RuleSet()
        players = list(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise InvalidRules("players", f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if len(set(players)) != len(players):
            raise InvalidRules("players", "a player can only take one seat")
        if len(players) * rules.hand_size >= deck_size(rules.deck):
            raise InvalidRules("hand_size", "not enough cards to deal that many to every player")
        game = cls()
        game.rules = rules
        game.players = players
        game.totals = dict.fromkeys(players, 0)
        game.seed = new_seed() if seed is None else seed
        game.secret_rounds = seed is None
        if round_seeds is not None:
            game.preset_seeds = [bytes(s) for s in round_seeds]
        if dealer is not None and dealer not in players:
            raise InvalidRules("dealer", "the dealer must be one of the players")
        if dealer is None:
            dealer = players[seeds.first_dealer_seat(game.seed, len(players))]
        game.dealer = dealer
        return game

    def copy(self) -> Game:
        """An independent copy, for simulations: the same round seed, so the same shuffles
        this round (later rounds of a match with secret seeds get fresh ones)."""
        other = Game.__new__(Game)
        self.copy_into(other)
        return other

    # ----------------------------------------------------------------- queries

    @property
    def current_player(self) -> int | None:
        """Who must decide now (None between rounds and after the match)."""
        decision = self.decision
        if decision is NEXT_ROUND or decision is MATCH_OVER:
            return None
        return self.seats[self.turn]

    @property
    def commitment(self) -> str | None:
        """SHA-256 of this round's seed, 64 hex digits (None: a round dealt without one). The
        seed itself stays in the state, never shown before the round is over."""
        return seeds.commitment(self.round_seed) if self.round_seed else None

    @property
    def round_over(self) -> bool:
        decision = self.decision
        return decision is NEXT_ROUND or decision is MATCH_OVER

    @property
    def top_card(self) -> Card:
        return CARDS[self.discards[-1]]

    @property
    def hands(self) -> HandsView:
        """Every hand as sorted cards, by player (callers show each to its owner only)."""
        return HandsView(self)

    @property
    def draw_pile(self) -> list[Card]:
        """The draw pile as cards; the top card is the last one."""
        return [CARDS[f] for f in self.pile]

    @draw_pile.setter
    def draw_pile(self, cards: Sequence[Card]) -> None:
        self.pile = [c.face for c in cards]
        self.touch()

    @property
    def discard(self) -> list[Card]:
        """The discard pile as cards; the top card is the last one."""
        return [CARDS[f] for f in self.discards]

    @discard.setter
    def discard(self, cards: Sequence[Card]) -> None:
        self.discards = [c.face for c in cards]
        self.touch()

    @property
    def color(self) -> Color | None:
        """The active colour (None only before the starter wild's colour is named), of the
        side in play in UNO Flip."""
        return SIDE_COLORS[self.side][self.color_index]

    @color.setter
    def color(self, color: Color | None) -> None:
        self.color_index = COLOR_INDEX[color]
        self.touch()

    @property
    def drawn(self) -> Card | None:
        """The card just drawn that may now be played, if any."""
        return CARDS[self.drawn_face] if self.drawn_face >= 0 else None

    @property
    def wd4(self) -> tuple[int, Color | None, bool] | None:
        """The last Wild Draw Four: who played it, the colour before it, whether it was a bluff."""
        record = self.wd4_record
        if record is None:
            return None
        return record[0], SIDE_COLORS[self.side][record[1]], record[2]

    def hand(self, player: int) -> list[Card]:
        """A copy of one player's hand, sorted (callers show it to that player only)."""
        held = self.held.get(player)
        return held.cards() if held is not None else []

    @property
    def dark(self) -> bool:
        """UNO Flip: the dark side is in play."""
        return bool(self.side)

    def other_sides(self, player: int) -> list[Card]:
        """UNO Flip: the other side of `player`'s cards, sorted, which every other player sees
        (never show it to `player`); empty in other games."""
        return other_sides(self, player)

    @property
    def pile_back(self) -> Card | None:
        """UNO Flip: the other side of the draw pile's top card, which everybody sees."""
        return pile_back(self)

    def card_count(self, player: int) -> int:
        held = self.held.get(player)
        return held.size if held is not None else 0

    def can_draw(self) -> bool:
        return bool(self.pile) or len(self.discards) > 1

    def next_player(self, player: int) -> int:
        return self.seats[self.next_seat(self.seats.index(player))]

    def is_playable(self, card: Card, hand: Sequence[Card], *, drawn: bool = False) -> bool:
        """Whether `card` (held in `hand`) may be played on the top card on a normal turn."""
        return is_playable(self, card.face, Hand(c.face for c in hand), drawn=drawn)

    def playable_cards(self, player: int) -> list[Card]:
        """Distinct cards `player` may play now on their turn (empty when it is not their turn)."""
        return [CARDS[f] for f in playable_faces(self, player)]

    def legal_actions(self, player: int) -> list[A.Action]:
        """Everything `player` may do right now; `Leave` is always allowed and not listed."""
        return legal_actions(self, player)

    #: `moves(player)`: `legal_actions` as move codes (move_codes.py), for simulations; do not
    #: mutate the list. The function itself, not a wrapper: simulations ask it once per move.
    moves = legal_moves

    def is_legal(self, player: int, action: A.Action) -> bool:
        return code_of(action, self.seats) in legal_moves(self, player)

    def default_action(self, player: int) -> A.Action | None:
        """What happens when `player` lets their time run out: draw and pass, accept, a colour."""
        return default_action(self, player)

    def favourite_color(self, player: int) -> Color:
        """The colour `player` holds most of (ties: R, Y, G, B)."""
        return favourite_color(self, player)

    # ----------------------------------------------------------------- apply

    def apply(self, player: int, action: A.Action, *, events: bool = True) -> list[E.Event]:
        """Perform `action` for `player` and return what happened.

        Raises `NotInGame`, `NotYourTurn`, `IllegalAction` or `GameOver`; the game is then
        unchanged. Every state change adds one to `version`. With `events=False` (simulations)
        nothing is recorded and an empty list comes back.
        """
        if type(action) is A.Leave:
            version = self.version
            ev = self._leave(player)
            self.version = version + 1  # one change, whatever the leaver still owed
            return ev
        out: list[E.Event] | None = [] if events else None
        make_move(self, player, checked_code(self, player, action), out)
        return out if out is not None else []

    #: `make_move(player, code)`: apply a move code from `moves(player)` without recording
    #: events (simulations) and return who must decide next (None when the round or the match
    #: is over); raises `IllegalAction` for a code that is not among them, changing nothing.
    #: The function itself (perform.py), not a wrapper: simulations call it once per move.
    make_move = make_move

    # ----------------------------------------------------------------- leaving

    def _leave(self, player: int) -> list[E.Event]:
        if player not in self.totals or player in self.left:
            raise NotInGame()
        if self.decision is MATCH_OVER:
            raise GameOver()
        ev: list[E.Event] = []
        # Resolve what the leaver still owes the table, the way a timeout would.
        while self.current_player == player and self.decision in (
            CHOOSE_COLOR,
            CHOOSE_TARGET,
            RESPOND,
        ):
            action = self.default_action(player)
            assert action is not None
            make_move(self, player, checked_code(self, player, action), ev)
        self.legal_for = None
        self.left.append(player)
        ev.append(E.PlayerLeft(player))
        in_round = player in self.held and not self.round_over
        if in_round:
            unseat(self, player, ev)
        remaining = [p for p in self.players if p not in self.left and p not in self.eliminated]
        if len(remaining) < MIN_PLAYERS:
            if in_round:
                end_round(self, None, RoundEnd.ABANDONED, ev)
            finish_match(
                self, Outcome(Termination.LAST_STANDING, tuple(remaining), dict(self.totals)), ev
            )
        elif in_round and len(self.seats) == 1:
            # The others of the round were knocked out (the mercy rule): the one left wins it.
            end_round(self, self.seats[0], RoundEnd.LAST_STANDING, ev)
        return ev

    # ----------------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able data from which `from_dict` rebuilds this exact game."""
        return snapshot.dump(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The game `to_dict` described (raises GameError for unreadable data)."""
        game = cls()
        snapshot.load_into(game, data)
        return game

    # Defining __eq__ leaves __hash__ None: a game changes, so it is not hashable.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __repr__(self) -> str:
        top = self.top_card.code if self.discards else "-"
        return (
            f"<Game v{self.version} round {self.round_number} {self.decision.value} "
            f"turn={self.current_player} top={top}>"
        )
