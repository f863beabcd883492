"""The match state machine: deal, turns, effects, UNO calls, challenges, scoring, next round.

`legal_actions(player)` answers "what may this player do now" (including out-of-turn jump-ins
and catches); `apply(player, action)` changes the state and returns what happened as events, or
raises a `GameError` and changes nothing. Everything needed to resume a game exactly, its random
seed included, round-trips through `to_dict()` / `from_dict()`. The fields live in `state.py`.

Longer than our usual 400 lines for now: every handler of the state machine shares its private
helpers (turns, draws, the UNO window). Splitting it by concept (dealing, legality, resolving a
card, turns, scoring) comes with the engine's integer core (tracker issue 14).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from . import actions as A
from . import events as E
from . import snapshot
from .cards import ALL_CARDS, COLORS, Card, Color, Rank, build_deck
from .errors import GameOver, IllegalAction, NotInGame, NotYourTurn
from .rules import InvalidRules, RuleSet
from .scoring import (
    Outcome,
    RoundEnd,
    RoundOutcome,
    Termination,
    hand_value,
    match_outcome,
    round_points,
)
from .state import Decision, GameState, new_seed

FORMAT_VERSION = snapshot.FORMAT_VERSION
MIN_PLAYERS = 2
#: The time a position comes back that ends a round as blocked (see `_note_position`).
REPEATED_POSITION = 3
MAX_PLAYERS = 10

_PLAY = {c: A.Play(c) for c in ALL_CARDS}
_PLAY_UNO = {c: A.Play(c, uno=True) for c in _PLAY}
_CHOOSE = tuple(A.ChooseColor(c) for c in COLORS)
_REDRAW_STARTERS = (Rank.WILD_DRAW_FOUR, Rank.SWAP_HANDS, Rank.SHUFFLE_HANDS, Rank.CUSTOMIZABLE)


class Game(GameState):
    """One match at one table: players are integer ids in seat order (clockwise)."""

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
    ) -> tuple[Game, list[E.Event]]:
        """A new match with round 1 dealt, and the events of that deal.

        `deck` fixes round 1's cards in draw order (hands are dealt in seat order, `hand_size`
        each, then the starter is turned); tests use it to set up exact situations.
        """
        rules = rules or RuleSet()
        players = list(players)
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise InvalidRules("players", f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
        if len(set(players)) != len(players):
            raise InvalidRules("players", "a player can only take one seat")
        if len(players) * rules.hand_size >= len(build_deck(rules.deck)):
            raise InvalidRules("hand_size", "not enough cards to deal that many to every player")
        game = cls()
        game.rules = rules
        game.players = players
        game.totals = dict.fromkeys(players, 0)
        game.seed = new_seed() if seed is None else seed
        if dealer is not None and dealer not in players:
            raise InvalidRules("dealer", "the dealer must be one of the players")
        game.dealer = dealer if dealer is not None else game.next_random().choice(players)
        events = game._deal_round(deck)
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
    ) -> Game:
        return cls.start(players, rules, seed, dealer=dealer, deck=deck)[0]

    # ----------------------------------------------------------------- queries

    @property
    def current_player(self) -> int | None:
        """Who must decide now (None between rounds and after the match)."""
        if self.decision in (Decision.NEXT_ROUND, Decision.MATCH_OVER):
            return None
        return self.seats[self.turn]

    @property
    def top_card(self) -> Card:
        return self.discard[-1]

    @property
    def round_over(self) -> bool:
        return self.decision in (Decision.NEXT_ROUND, Decision.MATCH_OVER)

    def hand(self, player: int) -> list[Card]:
        """A copy of one player's hand (callers show it to that player only)."""
        return list(self.hands.get(player, ()))

    def card_count(self, player: int) -> int:
        return len(self.hands.get(player, ()))

    def can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1

    def next_seat(self, index: int, steps: int = 1) -> int:
        return (index + self.direction * steps) % len(self.seats)

    def next_player(self, player: int) -> int:
        return self.seats[self.next_seat(self.seats.index(player))]

    def is_playable(self, card: Card, hand: Sequence[Card], *, drawn: bool = False) -> bool:
        """Whether `card` (held in `hand`) may be played on the top card on a normal turn.

        A Wild Draw Four from the hand may be a bluff while a challenge can catch it (RULES.md
        section 3); a card just drawn is judged by the Wild Draw Four rule itself (case 22).
        """
        if len(hand) == 1 and not self.rules.go_out_on_action and not card.is_number:
            return False
        if card.is_wild:
            if card.rank is Rank.WILD_DRAW_FOUR:
                if self.rules.challenge_possible and not drawn:
                    return True
                return self._wd4_allowed(hand)
            return True
        return card.color is self.color or card.rank is self.discard[-1].rank

    def _wd4_allowed(self, hand: Sequence[Card]) -> bool:
        rule = self.rules.wd4_rule
        if rule == "color":
            color = self.color
            return not any(c.color is color for c in hand)
        if rule == "no_playable":
            top_rank = self.discard[-1].rank
            color = self.color
            return not any(
                c.rank is not Rank.WILD_DRAW_FOUR
                and (c.is_wild or c.color is color or c.rank is top_rank)
                for c in hand
            )
        return True

    def playable_cards(self, player: int) -> list[Card]:
        """Distinct cards `player` may play now on their turn (empty when it is not their turn)."""
        if self.decision is not Decision.PLAY or self.seats[self.turn] != player:
            return []
        hand = self.hands[player]
        if len(hand) == 1 and not self.rules.go_out_on_action and not hand[0].is_number:
            return []
        color = self.color
        top_rank = self.discard[-1].rank
        out = []
        for c in dict.fromkeys(hand):  # distinct cards, in hand order
            if c.is_wild:
                if c.rank is not Rank.WILD_DRAW_FOUR or self.is_playable(c, hand):
                    out.append(c)
            elif c.color is color or c.rank is top_rank:
                out.append(c)
        return out

    def _response_cards(self, player: int) -> list[Card]:
        """Cards that stack on or deflect the pending penalty."""
        hand = self.hands[player]
        rules = self.rules
        kind = self.penalty_kind
        allowed: set[Card] = set()
        for c in hand:
            rank = c.rank
            if kind == "D":
                if (rank is Rank.DRAW_TWO and (rules.stacking != "off" or rules.deflect_d2)) or (
                    rank is Rank.WILD_DRAW_FOUR and rules.stacking == "mixed"
                ):
                    allowed.add(c)
            elif kind == "W4":
                if (rank is Rank.WILD_DRAW_FOUR and rules.stacking != "off") or (
                    rank is Rank.DRAW_TWO and rules.deflect_wd4 and c.color is self.color
                ):
                    allowed.add(c)
            elif kind == "S" and c is self.discard[-1]:
                allowed.add(c)
        if len(hand) == 1 and not rules.go_out_on_action:
            return []
        return sorted(allowed)

    def _can_challenge(self) -> bool:
        return (
            self.penalty_kind == "W4"
            and self.rules.challenge_possible
            and self.wd4 is not None
            and self.wd4[0] in self.seats
        )

    def _jump_in_cards(self, player: int) -> list[Card]:
        if (
            not self.rules.jump_in
            or self.decision is not Decision.PLAY
            or self.seats[self.turn] == player
            or self.penalty
            or not self.jump_open
        ):
            return []
        top = self.discard[-1]
        if top.is_wild:
            return []
        hand = self.hands[player]
        if top not in hand or (
            len(hand) == 1 and not self.rules.go_out_on_action and not top.is_number
        ):
            return []
        return [top]

    def legal_actions(self, player: int) -> list[A.Action]:
        """Everything `player` may do right now; `Leave` is always allowed and not listed."""
        cached = self._legal_cache
        if cached is not None and cached[0] == self.version and cached[1] == player:
            return list(cached[2])
        out = self._legal_actions(player)
        self._legal_cache = (self.version, player, out)
        return list(out)

    def _legal_actions(self, player: int) -> list[A.Action]:
        decision = self.decision
        if decision is Decision.MATCH_OVER or player not in self.totals or player in self.left:
            return []
        if decision is Decision.NEXT_ROUND:
            return [A.NEXT_ROUND]
        if player not in self.hands:
            return []
        out: list[A.Action] = []
        hand = self.hands[player]
        two = len(hand) == 2
        if self.seats[self.turn] == player:
            if decision is Decision.PLAY:
                cards = self.playable_cards(player)
                out += [_PLAY[c] for c in cards]
                if two:
                    out += [_PLAY_UNO[c] for c in cards]
                if self.can_draw():
                    if self.rules.voluntary_draw or not cards:
                        out.append(A.DRAW)
                elif not cards:
                    out.append(A.PASS)
            elif decision is Decision.PLAY_DRAWN:
                drawn = self.drawn
                assert drawn is not None
                out.append(_PLAY[drawn])
                if two:
                    out.append(_PLAY_UNO[drawn])
                if not self.rules.force_play_drawn:
                    out.append(A.KEEP)
            elif decision is Decision.CHOOSE_COLOR:
                out += _CHOOSE
            elif decision is Decision.CHOOSE_TARGET:
                out += [A.ChooseTarget(p) for p in self.seats if p != player]
            elif decision is Decision.RESPOND:
                cards = self._response_cards(player)
                out += [_PLAY[c] for c in cards]
                if two:
                    out += [_PLAY_UNO[c] for c in cards]
                out.append(A.ACCEPT)
                if self._can_challenge():
                    out.append(A.CHALLENGE)
        else:
            cards = self._jump_in_cards(player)
            out += [_PLAY[c] for c in cards]
            if two:
                out += [_PLAY_UNO[c] for c in cards]
        if player in self.at_risk:
            out.append(A.CALL_UNO)
        for target in self.seats:
            if target != player and (target in self.at_risk or self.rules.false_catch_penalty):
                out.append(A.Catch(target))
        return out

    def _legal_for_check(self, player: int) -> list[A.Action]:
        cached = self._legal_cache
        if cached is not None and cached[0] == self.version and cached[1] == player:
            return cached[2]
        return self._legal_actions(player)

    def is_legal(self, player: int, action: A.Action) -> bool:
        return action in self.legal_actions(player)

    def default_action(self, player: int) -> A.Action | None:
        """What happens when `player` lets their time run out: draw and pass, accept, a colour."""
        if self.current_player != player:
            return None
        decision = self.decision
        if decision is Decision.PLAY or decision is Decision.PLAY_DRAWN:
            legal = self.legal_actions(player)
            for preferred in (A.DRAW, A.KEEP, A.PASS):
                if preferred in legal:
                    return preferred
            return next(a for a in legal if isinstance(a, A.Play))
        if decision is Decision.CHOOSE_COLOR:
            return A.ChooseColor(self.favourite_color(player))
        if decision is Decision.CHOOSE_TARGET:
            return A.ChooseTarget(self.next_player(player))
        return A.ACCEPT

    def favourite_color(self, player: int) -> Color:
        """The colour `player` holds most of (ties: R, Y, G, B)."""
        counts = dict.fromkeys(COLORS, 0)
        for c in self.hands.get(player, ()):
            if c.color is not None:
                counts[c.color] += 1
        return max(COLORS, key=lambda col: counts[col])

    # ----------------------------------------------------------------- apply

    def apply(self, player: int, action: A.Action) -> list[E.Event]:
        """Perform `action` for `player` and return what happened.

        Raises `NotInGame`, `NotYourTurn`, `IllegalAction` or `GameOver`; the game is then
        unchanged. Every state change adds one to `version`.
        """
        if isinstance(action, A.Leave):
            events = self._leave(player)
        else:
            self._check(player, action)
            events = self._perform(player, action)
        self.version += 1
        return events

    def _check(self, player: int, action: A.Action) -> None:
        if player not in self.totals or player in self.left:
            raise NotInGame()
        if self.decision is Decision.MATCH_OVER:
            raise GameOver()
        legal = self._legal_for_check(player)
        for allowed in legal:  # identity first: the engine's own action objects are shared
            if allowed is action:
                return
        if action in legal:
            return
        if isinstance(action, A.Catch):
            raise IllegalAction("catch_nobody", target=action.target)
        if isinstance(action, A.CallUno):
            raise IllegalAction("uno_not_needed")
        if self.decision is Decision.NEXT_ROUND:
            raise IllegalAction("round_over")
        if player not in self.hands:
            raise NotInGame("eliminated")
        if self.seats[self.turn] != player:
            if isinstance(action, A.Play) and self.rules.jump_in:
                raise IllegalAction("no_jump_in", card=action.card.code)
            raise NotYourTurn(player=self.seats[self.turn])
        if isinstance(action, A.Play):
            if action.card not in self.hands[player]:
                raise IllegalAction("card_not_in_hand", card=action.card.code)
            if action.uno and len(self.hands[player]) != 2:
                raise IllegalAction("uno_too_early")
            raise IllegalAction(
                "card_not_playable", card=action.card.code, decision=self.decision.value
            )
        raise IllegalAction("not_now", action=action.code, decision=self.decision.value)

    def _perform(self, player: int, action: A.Action) -> list[E.Event]:
        ev: list[E.Event] = []
        self._legal_cache = None
        _HANDLERS[type(action)](self, player, action, ev)
        if self.decision is Decision.PLAY and not self.draw_pile:
            self._note_position(ev)
        return ev

    def _note_position(self, ev: list[E.Event]) -> None:
        """§9.24 carried to its end: with the draw pile used up, a round can come back to the same
        position (every hand, the discards, the turn, the direction and the colour as they were)
        and, when every move is forced (`voluntary_draw` off, `force_play_drawn` on, ...), repeat
        it for ever. The third time a position comes back, the round ends as a blocked round:
        the lowest hand wins. Positions are only kept while the draw pile is empty."""
        key = "|".join(
            (
                str(self.seats[self.turn]),
                str(self.direction),
                self.color.value if self.color else "-",
                " ".join(c.code for c in self.discard),
                ";".join(" ".join(sorted(c.code for c in self.hands[p])) for p in self.seats),
                ",".join(map(str, self.at_risk)),
                ",".join(map(str, self.skip_next)),
                str(self.penalty),
            )
        )
        digest = hashlib.blake2b(key.encode(), digest_size=8).hexdigest()
        seen = self.positions[digest] = self.positions.get(digest, 0) + 1
        if seen >= REPEATED_POSITION:
            self._end_round(self._blocked_winner(), RoundEnd.BLOCKED, ev)

    def _on_play(self, player: int, action: A.Play, ev: list[E.Event]) -> None:
        self._close_uno_window()
        self._play(player, action, ev)

    def _on_draw(self, player: int, action: A.Draw, ev: list[E.Event]) -> None:
        self.jump_open = False
        self._close_uno_window()
        self._draw_turn(player, ev)

    def _on_color(self, player: int, action: A.ChooseColor, ev: list[E.Event]) -> None:
        self.color = action.color
        ev.append(E.ColorChosen(player, action.color))
        self._continue(ev)

    def _on_target(self, player: int, action: A.ChooseTarget, ev: list[E.Event]) -> None:
        self._swap(player, action.player, ev)
        if not self._someone_out(ev):
            self._continue(ev)

    def _on_keep(self, player: int, action: A.Keep, ev: list[E.Event]) -> None:
        self.jump_open = False
        ev.append(E.DrawnCardKept(player))
        self._start_turn(self.next_seat(self.turn), ev)

    def _on_pass(self, player: int, action: A.Pass, ev: list[E.Event]) -> None:
        self.jump_open = False
        self._close_uno_window()
        ev.append(E.TurnPassed(player))
        self.passes += 1
        if self.passes >= len(self.seats):
            self._end_round(self._blocked_winner(), RoundEnd.BLOCKED, ev)
        else:
            self._start_turn(self.next_seat(self.turn), ev)

    def _on_accept(self, player: int, action: A.Accept, ev: list[E.Event]) -> None:
        self.jump_open = False
        self._close_uno_window()
        self._take_penalty(self.turn, ev)

    def _on_challenge(self, player: int, action: A.Challenge, ev: list[E.Event]) -> None:
        self.jump_open = False
        self._close_uno_window()
        self._challenge(player, ev)

    def _on_uno(self, player: int, action: A.CallUno, ev: list[E.Event]) -> None:
        self.at_risk.remove(player)
        ev.append(E.UnoCalled(player))

    def _on_catch(self, player: int, action: A.Catch, ev: list[E.Event]) -> None:
        self._catch(player, action.target, ev)

    def _on_next_round(self, player: int, action: A.NextRound, ev: list[E.Event]) -> None:
        self._next_round(ev)

    # ----------------------------------------------------------------- playing a card

    def _play(self, player: int, action: A.Play, ev: list[E.Event]) -> None:
        card = action.card
        seat = self.seats.index(player)
        jump_in = seat != self.turn
        responding = self.decision is Decision.RESPOND
        self.turn = seat
        hand = self.hands[player]
        hand.remove(card)
        self.discard.append(card)
        color_before = self.color
        self.color = card.color
        self.drawn = None
        self.passes = 0
        self.jump_open = True
        ev.append(E.CardPlayed(player, card, jump_in))
        rank = card.rank
        if rank is Rank.WILD_DRAW_FOUR:
            self._record_wd4(player, hand, color_before)
        if not responding:
            self.penalty = 0
        self.penalty_kind = ""

        if not hand:
            if rank is Rank.SWAP_HANDS and self.rules.last_card_swap == "apply":
                # RULES §8 `apply`: the swap is done, so the player does not go out. They name
                # the target while holding no card (the only decision ever owed with an empty
                # hand); the target then holds the empty hand and, by §6 (a hand empty after a
                # play ends the round), goes out and wins the round: no colour is named.
                self.steps = ["target", "color", "effect"]
                self._continue(ev)
                return
            if rank is Rank.SHUFFLE_HANDS and self.rules.last_card_shuffle == "apply":
                self._shuffle_hands(player, ev)
                if self._someone_out(ev):
                    return
                self.steps = ["color", "effect"]
                self._continue(ev)
                return
            if rank is Rank.DRAW_TWO or rank is Rank.WILD_DRAW_FOUR:
                amount = self._penalty_after(card)
                self.penalty = 0
                victim = self.seats[self.next_seat(seat)]
                self._draw(victim, amount, E.DrawReason.PENALTY, ev)
            self._end_round(player, RoundEnd.WENT_OUT, ev)
            return

        if len(hand) == 1:
            if action.uno:
                ev.append(E.UnoCalled(player))
            else:
                self.at_risk.append(player)

        if card.is_wild:
            if rank is Rank.WILD_DRAW_FOUR or rank is Rank.WILD:
                self.steps = ["color", "effect"]
            elif rank is Rank.SWAP_HANDS:
                self.steps = ["target", "color", "effect"]
            elif rank is Rank.SHUFFLE_HANDS:
                self._shuffle_hands(player, ev)
                if self._someone_out(ev):
                    return
                self.steps = ["color", "effect"]
            else:
                self.steps = ["color", "custom", "effect"]
        elif self.rules.seven_o and rank is Rank.SEVEN:
            self.steps = ["target", "effect"]
        elif self.rules.seven_o and rank is Rank.ZERO:
            self._rotate_hands(ev)
            self.steps = ["effect"]
        else:
            self.steps = ["effect"]
        self._continue(ev)

    def _record_wd4(self, player: int, hand_after: list[Card], prev_color: Color | None) -> None:
        """Remember who played a Wild Draw Four and whether a challenge would find them guilty."""
        before = self.discard[-2]
        rule = self.rules.wd4_rule
        if rule == "color":
            guilty = any(c.color is prev_color for c in hand_after)
        elif rule == "no_playable":
            guilty = any(
                c.rank is not Rank.WILD_DRAW_FOUR
                and (c.is_wild or c.color is prev_color or c.rank is before.rank)
                for c in hand_after
            )
        else:
            guilty = False
        self.wd4 = (player, prev_color, guilty)

    def _penalty_after(self, card: Card) -> int:
        stacking = self.rules.stacking != "off"
        amount = 2 if card.rank is Rank.DRAW_TWO else 4
        return self.penalty + amount if stacking else amount

    def _continue(self, ev: list[E.Event]) -> None:
        """Run what is left of the card being resolved, stopping at the next decision."""
        actor = self.seats[self.turn]
        while self.steps:
            step = self.steps.pop(0)
            if step == "color":
                self.decision = Decision.CHOOSE_COLOR
                return
            if step == "target":
                self.decision = Decision.CHOOSE_TARGET
                return
            if step == "turn":
                self.decision = Decision.PLAY
                return
            if step == "custom":
                self._custom_effect(actor, ev)
            elif step == "effect":
                self._effect(actor, ev)
                return

    def _effect(self, actor: int, ev: list[E.Event]) -> None:
        """The card on top acts on the turn order: skip, reverse, draw penalties."""
        card = self.discard[-1]
        rank = card.rank
        seat = self.turn
        n = len(self.seats)
        if rank is Rank.SKIP:
            victim_seat = self.next_seat(seat)
            victim = self.seats[victim_seat]
            if self.rules.deflect_skip and card in self.hands[victim]:
                self._await_response(victim_seat, "S")
                return
            ev.append(E.TurnSkipped(victim))
            self._start_turn(self.next_seat(victim_seat), ev)
        elif rank is Rank.REVERSE:
            self.direction = -self.direction
            ev.append(E.DirectionChanged(self.direction))
            if n == 2 and self.rules.two_player_reverse == "skip":
                ev.append(E.TurnSkipped(self.seats[self.next_seat(seat)]))
                self._start_turn(seat, ev)
            else:
                self._start_turn(self.next_seat(seat), ev)
        elif rank is Rank.DRAW_TWO or rank is Rank.WILD_DRAW_FOUR:
            self.penalty = self._penalty_after(card)
            kind = "D" if rank is Rank.DRAW_TWO else "W4"
            victim_seat = self.next_seat(seat)
            self.penalty_kind = kind
            self.turn = victim_seat
            if self._response_cards(self.seats[victim_seat]) or self._can_challenge():
                self.decision = Decision.RESPOND
                return
            self.turn = seat
            self._take_penalty(victim_seat, ev)
        elif rank is Rank.CUSTOMIZABLE and self.rules.custom_effect == "play_again":
            ev.append(E.PlayAgain(actor))
            self._start_turn(seat, ev)
        else:
            self._start_turn(self.next_seat(seat), ev)

    def _await_response(self, victim_seat: int, kind: str) -> None:
        self.penalty_kind = kind
        self.turn = victim_seat
        self.decision = Decision.RESPOND

    def _take_penalty(self, victim_seat: int, ev: list[E.Event]) -> None:
        """The victim of a pending penalty draws it (if any) and loses the turn."""
        victim = self.seats[victim_seat]
        amount = self.penalty
        self.penalty = 0
        self.penalty_kind = ""
        if amount:
            self._draw(victim, amount, E.DrawReason.PENALTY, ev)
            ev.append(E.PenaltyAccepted(victim, amount))
        ev.append(E.TurnSkipped(victim))
        self._start_turn(self.next_seat(victim_seat), ev)

    def _challenge(self, challenger: int, ev: list[E.Event]) -> None:
        assert self.wd4 is not None
        offender, prev_color, guilty = self.wd4
        total = self.penalty
        ev.append(E.ChallengeResolved(challenger, offender, guilty, tuple(self.hands[offender])))
        self.penalty = 0
        self.penalty_kind = ""
        self.wd4 = None
        if guilty:
            if self.rules.challenge_guilty == "de":
                if len(self.discard) > 1:  # (a reshuffle may have taken what was under it)
                    self.hands[offender].append(self.discard.pop())
                self.color = prev_color
                self.skip_next.append(offender)
            self._draw(offender, total, E.DrawReason.CHALLENGE, ev)
            self._start_turn(self.turn, ev)
        else:
            extra = max(0, total + self.rules.challenge_fail_draw - 4)
            self._draw(challenger, extra, E.DrawReason.CHALLENGE, ev)
            ev.append(E.TurnSkipped(challenger))
            self._start_turn(self.next_seat(self.turn), ev)

    def _custom_effect(self, actor: int, ev: list[E.Event]) -> None:
        effect = self.rules.custom_effect
        if effect == "swap_hands":
            self.steps.insert(0, "target")
        elif effect == "others_draw_2":
            for p in self._others_in_turn_order(actor):
                self._draw(p, 2, E.DrawReason.EFFECT, ev)
        elif effect == "draw_to_7":
            for p in self._others_in_turn_order(actor):
                missing = 7 - len(self.hands[p])
                if missing > 0:
                    self._draw(p, missing, E.DrawReason.EFFECT, ev)

    def _others_in_turn_order(self, actor: int) -> list[int]:
        seat = self.seats.index(actor)
        return [self.seats[self.next_seat(seat, k)] for k in range(1, len(self.seats))]

    def _start_turn(self, seat: int, ev: list[E.Event]) -> None:
        """Give the turn to the player at `seat`, passing over those who must miss it."""
        while self.skip_next and self.seats[seat] in self.skip_next:
            self.skip_next.remove(self.seats[seat])
            ev.append(E.TurnSkipped(self.seats[seat]))
            seat = self.next_seat(seat)
        self.turn = seat
        self.decision = Decision.PLAY
        self.drawn = None
        self.steps = []

    # ----------------------------------------------------------------- drawing

    def _draw_turn(self, player: int, ev: list[E.Event]) -> None:
        self.passes = 0
        hand = self.hands[player]
        if self.rules.draw_until_playable:
            drawn: list[Card] = []
            while True:
                got = self._take(1, ev)
                if not got:
                    break
                drawn += got
                hand += got
                if self.is_playable(got[0], hand, drawn=True):
                    break
            ev.append(E.CardsDrawn(player, tuple(drawn), E.DrawReason.CHOICE))
        else:
            drawn = self._take(1, ev)
            hand += drawn
            ev.append(E.CardsDrawn(player, tuple(drawn), E.DrawReason.CHOICE))
        if player in self.at_risk:
            self.at_risk.remove(player)
        last = drawn[-1] if drawn else None
        if last is not None and self.is_playable(last, hand, drawn=True):
            self.drawn = last
            self.decision = Decision.PLAY_DRAWN
        else:
            self._start_turn(self.next_seat(self.turn), ev)

    def _take(self, count: int, ev: list[E.Event]) -> list[Card]:
        """Up to `count` cards off the draw pile, reshuffling the discards when it runs out."""
        pile = self.draw_pile
        if len(pile) < count and len(self.discard) > 1:
            top = self.discard.pop()
            rest = self.discard
            self.next_random().shuffle(rest)
            pile[:0] = rest  # under what is left, so the old pile is drawn first
            self.discard = [top]
            ev.append(E.DeckReshuffled(len(rest)))
        if count >= len(pile):
            taken = pile[::-1]
            pile.clear()
            return taken
        taken = pile[-count:]
        del pile[-count:]
        taken.reverse()
        return taken

    def _draw(self, player: int, count: int, reason: E.DrawReason, ev: list[E.Event]) -> None:
        if count <= 0:
            return
        cards = self._take(count, ev)
        self.hands[player] += cards
        ev.append(E.CardsDrawn(player, tuple(cards), reason))
        if len(cards) < count:
            ev.append(E.DebtCancelled(player, count - len(cards)))
        if player in self.at_risk:
            self.at_risk.remove(player)

    # ----------------------------------------------------------------- UNO

    def _close_uno_window(self) -> None:
        """The next play, draw, accept or challenge ends the chance to catch anyone."""
        if self.at_risk:
            self.at_risk.clear()

    def _catch(self, catcher: int, target: int, ev: list[E.Event]) -> None:
        if target in self.at_risk:
            self.at_risk.remove(target)
            penalty = self.rules.uno_penalty
            ev.append(E.UnoCaught(catcher, target, penalty))
            self._draw(target, penalty, E.DrawReason.UNO, ev)
        else:
            penalty = self.rules.false_catch_penalty
            ev.append(E.FalseCatch(catcher, target, penalty))
            self._draw(catcher, penalty, E.DrawReason.FALSE_CATCH, ev)

    def _hands_changed(self, players: Iterable[int]) -> None:
        """Whoever now holds one card after a swap, rotation or shuffle must call UNO."""
        for p in players:
            if len(self.hands[p]) == 1:
                if p not in self.at_risk:
                    self.at_risk.append(p)
            elif p in self.at_risk:
                self.at_risk.remove(p)

    # ----------------------------------------------------------------- hand effects

    def _swap(self, player: int, target: int, ev: list[E.Event]) -> None:
        self.hands[player], self.hands[target] = self.hands[target], self.hands[player]
        ev.append(E.HandsSwapped(player, target))
        self._hands_changed((player, target))

    def _rotate_hands(self, ev: list[E.Event]) -> None:
        seats = self.seats
        old = [self.hands[p] for p in seats]
        for i, hand in enumerate(old):
            self.hands[seats[self.next_seat(i)]] = hand
        ev.append(E.HandsRotated(self.direction))
        self._hands_changed(seats)

    def _shuffle_hands(self, player: int, ev: list[E.Event]) -> None:
        pool = [c for p in self.seats for c in self.hands[p]]
        self.next_random().shuffle(pool)
        order = [self.seats[self.next_seat(self.turn, k)] for k in range(1, len(self.seats) + 1)]
        for p in order:
            self.hands[p] = []
        for i, c in enumerate(pool):
            self.hands[order[i % len(order)]].append(c)
        ev.append(E.HandsShuffled(player))
        self._hands_changed(self.seats)

    def _someone_out(self, ev: list[E.Event]) -> bool:
        """After a swap of an empty hand: whoever holds no card has gone out."""
        for k in range(len(self.seats)):
            p = self.seats[self.next_seat(self.turn, k)]
            if not self.hands[p]:
                self._end_round(p, RoundEnd.WENT_OUT, ev)
                return True
        return False

    # ----------------------------------------------------------------- rounds

    def _deal_round(self, deck: Sequence[Card] | None = None) -> list[E.Event]:
        ev: list[E.Event] = []
        self.round_number += 1
        self.positions = {}
        self.seats = [p for p in self.players if p not in self.left and p not in self.eliminated]
        cards = list(deck) if deck is not None else build_deck(self.rules.deck)
        if deck is None:
            self.next_random().shuffle(cards)
        cards.reverse()  # draw from the end
        self.draw_pile = cards
        size = self.rules.hand_size
        self.hands = {}
        for p in self.seats:
            self.hands[p] = [cards.pop() for _ in range(size)]
        self.discard = []
        self.direction = 1
        self.penalty = 0
        self.penalty_kind = ""
        self.drawn = None
        self.wd4 = None
        self.at_risk = []
        self.skip_next = []
        self.passes = 0
        self.jump_open = True
        self.steps = []
        self.round_outcome = None
        starter = cards.pop()
        redraw = _REDRAW_STARTERS + ((Rank.WILD,) if self.rules.starter_wild == "redraw" else ())
        while starter.rank in redraw:
            ev.append(E.StarterReturned(starter))
            cards.append(starter)
            self.next_random().shuffle(cards)
            starter = cards.pop()
        self.discard.append(starter)
        self.color = starter.color
        dealer_seat = self.seats.index(self.dealer)
        mode = self.rules.starting_player
        if mode == "left":
            first = self.next_seat(dealer_seat)
        elif mode == "dealer":
            first = dealer_seat
        else:
            first = self.next_random().randrange(len(self.seats))
        ev.append(E.RoundStarted(self.round_number, self.dealer, starter))
        rank = starter.rank
        if rank is Rank.SKIP:
            ev.append(E.TurnSkipped(self.seats[first]))
            self._start_turn(self.next_seat(first), ev)
        elif rank is Rank.REVERSE:
            self.direction = -1
            ev.append(E.DirectionChanged(-1))
            # The player before the would-be first player starts (the dealer, officially).
            self._start_turn(self.next_seat(first), ev)
        elif rank is Rank.DRAW_TWO:
            self._draw(self.seats[first], 2, E.DrawReason.PENALTY, ev)
            ev.append(E.PenaltyAccepted(self.seats[first], 2))
            ev.append(E.TurnSkipped(self.seats[first]))
            self._start_turn(self.next_seat(first), ev)
        elif rank is Rank.WILD:
            self.turn = first
            self.steps = ["turn"]
            self.decision = Decision.CHOOSE_COLOR
        else:
            self._start_turn(first, ev)
        return ev

    def _blocked_winner(self) -> int:
        """Nobody can play or draw: lowest hand value, then fewest cards, then turn order."""
        order = [self.seats[self.next_seat(self.turn, k)] for k in range(1, len(self.seats) + 1)]
        return min(
            order,
            key=lambda p: (hand_value(self.hands[p]), len(self.hands[p]), order.index(p)),
        )

    def _end_round(self, winner: int | None, reason: RoundEnd, ev: list[E.Event]) -> None:
        hands = {p: self.hands[p] for p in self.seats}
        if winner is None:
            points = dict.fromkeys(hands, 0)
        else:
            points = round_points(self.rules, winner, hands)
        for p, pts in points.items():
            self.totals[p] += pts
        self.round_outcome = RoundOutcome(
            round_number=self.round_number,
            winner=winner,
            reason=reason,
            hand_points={p: hand_value(h) for p, h in hands.items()},
            cards_left={p: len(h) for p, h in hands.items()},
            points=points,
            totals=dict(self.totals),
        )
        ev.append(E.RoundEnded(self.round_outcome))
        self.steps = []
        self.penalty = 0
        self.penalty_kind = ""
        self.drawn = None
        self.at_risk = []
        outcome, knocked_out = (
            match_outcome(self.rules, self.totals, self.seats, winner)
            if winner is not None
            else (None, [])
        )
        for p in knocked_out:
            self.eliminated.append(p)
            ev.append(E.PlayerEliminated(p, self.totals[p]))
        if outcome is not None:
            self._finish_match(outcome, ev)
        else:
            self.decision = Decision.NEXT_ROUND

    def _finish_match(self, outcome: Outcome, ev: list[E.Event]) -> None:
        self.outcome = outcome
        self.decision = Decision.MATCH_OVER
        ev.append(E.MatchEnded(outcome))

    def _next_round(self, ev: list[E.Event]) -> None:
        staying = [p for p in self.players if p not in self.left and p not in self.eliminated]
        i = self.players.index(self.dealer)
        for k in range(1, len(self.players) + 1):
            candidate = self.players[(i + k) % len(self.players)]
            if candidate in staying:
                self.dealer = candidate
                break
        ev += self._deal_round()

    # ----------------------------------------------------------------- leaving

    def _leave(self, player: int) -> list[E.Event]:
        if player not in self.totals or player in self.left:
            raise NotInGame()
        if self.decision is Decision.MATCH_OVER:
            raise GameOver()
        ev: list[E.Event] = []
        # Resolve what the leaver still owes the table, the way a timeout would.
        while self.current_player == player and self.decision in (
            Decision.CHOOSE_COLOR,
            Decision.CHOOSE_TARGET,
            Decision.RESPOND,
        ):
            action = self.default_action(player)
            assert action is not None
            self._check(player, action)
            ev += self._perform(player, action)
        self.left.append(player)
        ev.append(E.PlayerLeft(player))
        in_round = player in self.hands and not self.round_over
        if in_round:
            self._unseat(player, ev)
        remaining = [p for p in self.players if p not in self.left and p not in self.eliminated]
        if len(remaining) < MIN_PLAYERS:
            if in_round:
                self._end_round(None, RoundEnd.ABANDONED, ev)
            self._finish_match(
                Outcome(Termination.LAST_STANDING, tuple(remaining), dict(self.totals)), ev
            )
        return ev

    def _unseat(self, player: int, ev: list[E.Event]) -> None:
        """Take a leaver out of the running round; their cards go under the draw pile."""
        seat = self.seats.index(player)
        self.draw_pile[:0] = self.hands.pop(player)
        self.seats.pop(seat)
        for waiting in (self.at_risk, self.skip_next):
            if player in waiting:
                waiting.remove(player)
        if not self.seats:
            return
        if self.turn > seat:
            self.turn -= 1
        elif self.turn == seat:
            # It was the leaver's turn: it passes to whoever came after them.
            following = seat if self.direction == 1 else seat - 1
            self._start_turn(following % len(self.seats), ev)

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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game v{self.version} round {self.round_number} {self.decision.value} "
            f"turn={self.current_player} top={self.discard[-1].code if self.discard else '-'}>"
        )


_HANDLERS: dict[type, Any] = {
    A.Play: Game._on_play,
    A.Draw: Game._on_draw,
    A.ChooseColor: Game._on_color,
    A.ChooseTarget: Game._on_target,
    A.Keep: Game._on_keep,
    A.Pass: Game._on_pass,
    A.Accept: Game._on_accept,
    A.Challenge: Game._on_challenge,
    A.CallUno: Game._on_uno,
    A.Catch: Game._on_catch,
    A.NextRound: Game._on_next_round,
}
