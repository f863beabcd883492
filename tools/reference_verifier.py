"""A reference verifier of game records, written from docs/records.md alone.

It imports nothing of the bot, only Python's standard library: anyone can read it next to the
docs and write their own in any language. `python tools/reference_verifier.py RECORD.json`
prints `OK: ...` (exit 0) or `MISMATCH: ...` (exit 1).

What it checks (docs/records.md, "Verifying without the bot"): every seed against its
commitment, every deal against its seed, every card of every round (the deal, the starter and
a returned one, every draw, penalty and reshuffle, every hand swapped, rotated or shuffled),
that every card played is held by its player, and every round's winner and points and the
final scores. It follows the flow of the rules closely enough to know who draws what; it does
not re-check each action's legality (the bot's own `python -m bot.engine.verify` does).

One file of over 500 lines on purpose: a reader takes it whole, next to docs/records.md,
and writes their own in any language.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys
from typing import Any

COLORS = "RYGB"
COLORED_RANKS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D"]
WILDS = ["W", "W4", "WS", "WX", "WC"]
#: Show 'Em No Mercy's cards (deck no_mercy168): coloured, then wild.
NO_MERCY_COLORED = ["D4", "SE", "DA"]
NO_MERCY_WILDS = ["WR4", "W6", "W10", "WCR"]
#: UNO Flip (deck flip112): the light side's own cards (its numbers, Skip, Reverse and Wild are
#: the classic codes), the dark side's colours and cards.
DARK_COLORS = "PTOV"
FLIP_LIGHT_NEW = ["D1", "F"]
DARK_RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "D5", "R", "SE", "F"]
#: Every card code in the documented order: a hand listed "in card order" follows it.
CARD_ORDER = (
    [c + r for c in COLORS for r in COLORED_RANKS]
    + WILDS
    + [c + r for c in COLORS for r in NO_MERCY_COLORED]
    + NO_MERCY_WILDS
    + [c + r for c in COLORS for r in FLIP_LIGHT_NEW]
    + ["W2"]
    + [c + r for c in DARK_COLORS for r in DARK_RANKS]
    + ["WK", "WDC"]
)
#: What a draw card makes the next player draw (stacking compares these).
DRAW_VALUES = {"D": 2, "W4": 4, "D4": 4, "WR4": 4, "W6": 6, "W10": 10, "D1": 1, "W2": 2, "D5": 5}
#: The wilds legal only without the active colour, and challengeable.
CHALLENGED = ("W4", "W2", "WDC")
#: How many of each card a colour has in the no_mercy168 deck (numbers: two each).
NO_MERCY_COUNTS = {"S": 3, "R": 3, "D": 3, "D4": 2, "SE": 2, "DA": 3}
NO_MERCY_WILD_COUNTS = {"WR4": 8, "W6": 4, "W10": 4, "WCR": 8}
ORDER = {code: i for i, code in enumerate(CARD_ORDER)}
RULE_DEFAULTS: dict[str, Any] = {
    "deck": "classic108",
    "hand_size": 7,
    "starting_player": "left",
    "starter_wild": "choose",
    "wd4_rule": "color",
    "wd4_challenge": True,
    "challenge_guilty": "official",
    "challenge_fail_draw": 6,
    "two_player_reverse": "skip",
    "stacking": "off",
    "deflect_d2": False,
    "deflect_wd4": False,
    "deflect_skip": False,
    "stack_deflect": False,
    "go_out_on_action": True,
    "voluntary_draw": True,
    "draw_until_playable": False,
    "force_play_drawn": False,
    "jump_in": False,
    "seven_o": False,
    "uno_penalty": 2,
    "false_catch_penalty": 0,
    "last_card_swap": "win",
    "last_card_shuffle": "apply",
    "custom_effect": "none",
    "scoring": "standard",
    "penalty_end": "lowest_wins",
    "target": 500,
    "mercy_limit": 0,
    "knockout_bonus": 0,
}


class Mismatch(Exception):
    """The first thing in a record that its seeds and the rules do not confirm."""


# ------------------------------------------------------------------- cards and shuffles


def color_of(card: str) -> str:
    return "" if card.startswith("W") else card[0]


def rank_of(card: str) -> str:
    return card if card.startswith("W") else card[1:]


def points_of(card: str, deck: str = "classic108") -> int:
    rank = rank_of(card)
    if rank.isdigit():
        return int(rank)
    if deck == "flip112":
        return {"D1": 10, "SE": 30, "W": 40, "W2": 50, "WK": 40, "WDC": 60}.get(rank, 20)
    if rank in ("S", "R", "D", "D4", "SE", "DA"):
        return 20
    return 50 if rank in ("W", "W4", *NO_MERCY_WILDS) else 40


def flip_side(dark: bool) -> list[str]:
    """One side of UNO Flip's deck, in card order."""
    colors, ranks = (
        (DARK_COLORS, DARK_RANKS) if dark else (COLORS, [*"123456789", "D1", "R", "S", "F"])
    )
    cards = [c + r for c in colors for r in ranks for _ in range(2)]
    cards += ["WK"] * 4 + ["WDC"] * 4 if dark else ["W"] * 4 + ["W2"] * 4
    return in_card_order(cards)


def flip_pairing(seed: bytes) -> dict[str, str]:
    """uno-flip-pairing-v1: each light kind's other side and each dark kind's, for the round."""
    other: dict[str, str] = {}
    for label, wild in ((b"flip-pairing", False), (b"flip-pairing-wilds", True)):
        light = [c for c in dict.fromkeys(flip_side(False)) if c.startswith("W") == wild]
        dark = [c for c in dict.fromkeys(flip_side(True)) if c.startswith("W") == wild]
        stream = hashlib.shake_256(hmac.digest(seed, label, "sha256")).digest(8 * len(dark))
        keys = [
            (int.from_bytes(stream[8 * i + 1 : 8 * i + 6], "little"), i) for i in range(len(dark))
        ]
        for a, (_, i) in zip(light, sorted(keys), strict=True):
            other[a], other[dark[i]] = dark[i], a
    return other


def unshuffled_deck(kind: str) -> list[str]:
    if kind == "flip112":
        return flip_side(False)
    if kind == "no_mercy168":
        cards = [
            c + r
            for c in COLORS
            for r in COLORED_RANKS
            for _ in range(2 if r.isdigit() else NO_MERCY_COUNTS[r])
        ]
        cards += [
            c + r for c in COLORS for r in NO_MERCY_COLORED for _ in range(NO_MERCY_COUNTS[r])
        ]
        return cards + [w for w, n in NO_MERCY_WILD_COUNTS.items() for _ in range(n)]
    deck: list[str] = []
    for c in COLORS:
        deck.append(c + "0")
        for r in COLORED_RANKS[1:]:
            deck += [c + r, c + r]
    deck += ["W"] * 4 + ["W4"] * 4
    if kind == "swap112":
        deck += ["WS", "WC", "WC", "WC"]
    elif kind == "shuffle112":
        deck += ["WX", "WC", "WC", "WC"]
    elif kind != "classic108":
        raise Mismatch(f"unknown deck {kind!r}")
    return deck


def shuffle(items: list[str], seed: bytes, k: int) -> list[str]:
    """Shuffle k of a round (uno-shuffle-v1): item i is position i of the list given."""
    label = b"deal" if k == 0 else b"reshuffle-%d" % k
    stream = hashlib.shake_256(hmac.digest(seed, label, "sha256")).digest(8 * len(items))
    keys = [(int.from_bytes(stream[8 * i + 1 : 8 * i + 6], "little"), i) for i in range(len(items))]
    return [items[i] for _, i in sorted(keys)]


def in_card_order(hand: list[str]) -> list[str]:
    return sorted(hand, key=ORDER.__getitem__)


# ------------------------------------------------------------------- one match


class Match:
    """The state docs/records.md describes: seats, hands, the draw pile (a list from its bottom
    to its top: cards are drawn from the end), the discard pile (its top is the end), the
    active colour, the direction, whose turn it is and what they must decide."""

    def __init__(self, record: dict[str, Any]) -> None:
        rules = dict(RULE_DEFAULTS)
        rules.update(record["rules"])
        self.r = rules
        self.players = [int(p["id"]) for p in record["players"]]
        self.dealer = int(record["first_dealer"])
        self.totals = dict.fromkeys(self.players, 0)
        self.left: list[int] = []
        self.eliminated: list[int] = []
        self.over = False

    # -- dealing

    def deal(self, number: int, seed: bytes) -> None:
        r = self.r
        self.number = number
        self.seed = seed
        self.shuffles = 0
        self.seats = [p for p in self.players if p not in self.left and p not in self.eliminated]
        draw_order = self.shuffle(unshuffled_deck(r["deck"]))  # shuffle "deal"
        self.pile = draw_order[::-1]  # bottom to top: the first card of the deal is on top
        self.hands: dict[int, list[str]] = {}
        for p in self.seats:  # each seat in seat order takes the next hand_size cards
            self.hands[p] = [self.pile.pop() for _ in range(r["hand_size"])]
        self.discards: list[str] = []
        self.direction = 1
        self.penalty = 0
        self.penalty_kind = ""
        self.wd4: tuple[int, str, bool] | None = None
        self.at_risk: list[int] = []
        self.skip_next: list[int] = []
        self.passes = 0
        self.steps: list[str] = []
        self.positions: dict[str, int] = {}
        self.round_over = False
        self.result: tuple[int | None, dict[int, int]] | None = None
        self.knocked: list[int] = []
        self.dark = False
        self.other = flip_pairing(seed) if r["deck"] == "flip112" else {}
        if r["deck"] == "no_mercy168":  # an action card turned first is ignored: the next
            while not rank_of(self.pile[-1]).isdigit():
                self.discards.append(self.pile.pop())
        redraw = {"W4", "WS", "WX", "WC", "W2"} | (
            {"W"} if r["starter_wild"] == "redraw" else set()
        )
        starter = self.pile.pop()
        while starter in redraw:  # back on top of the pile, the whole pile reshuffled
            self.pile.append(starter)
            self.pile = self.shuffle(self.pile)
            starter = self.pile.pop()
        self.discards.append(starter)
        self.color = color_of(starter)
        dealer_seat = self.seats.index(self.dealer)
        mode = r["starting_player"]
        if mode == "left":
            first = self.next_seat(dealer_seat)
        elif mode == "dealer":
            first = dealer_seat
        else:
            digest = hmac.digest(seed, b"first-player", "sha256")
            first = int.from_bytes(digest[:8], "big") % len(self.seats)
        rank = rank_of(starter)
        if rank == "F":  # UNO Flip: everything turned over; the new top acts by its colour only
            self.turn_over()
            self.turn = first
            if self.discards[-1].startswith("W"):
                self.steps = ["turn"]
                self.decision = "color"
            else:
                self.start_turn(first)
        elif rank == "S":
            self.start_turn(self.next_seat(first))
        elif rank == "R":
            self.direction = -1
            self.start_turn(self.next_seat(first))
        elif rank in ("D", "D1"):
            self.draw(self.seats[first], DRAW_VALUES[rank])
            self.start_turn(self.next_seat(first))
        elif rank == "W":
            self.turn = first
            self.steps = ["turn"]
            self.decision = "color"
        else:
            self.start_turn(first)

    def turn_over(self) -> None:
        """UNO Flip's Flip: hands, the draw pile and the discard pile turned over (a pile's
        order reversed), each card now showing its other side; the colour the new top's."""
        other = self.other
        self.dark = not self.dark
        for p, hand in self.hands.items():
            self.hands[p] = [other[c] for c in hand]
        self.pile = [other[c] for c in reversed(self.pile)]
        self.discards = [other[c] for c in reversed(self.discards)]
        self.color = color_of(self.discards[-1])
        self.wd4 = None
        self.positions = {}

    def colors(self) -> str:
        return DARK_COLORS if self.dark else COLORS

    def shuffle(self, items: list[str]) -> list[str]:
        out = shuffle(items, self.seed, self.shuffles)
        self.shuffles += 1
        return out

    # -- turns

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % len(self.seats)

    def seats_from(self, seat: int) -> list[int]:
        n = len(self.seats)
        return [self.seats[(seat + self.direction * k) % n] for k in range(1, n + 1)]

    def start_turn(self, seat: int) -> None:
        while self.skip_next and self.seats[seat] in self.skip_next:
            self.skip_next.remove(self.seats[seat])
            seat = self.next_seat(seat)
        self.turn = seat
        self.decision = "play"
        self.steps = []

    # -- drawing

    def take(self, count: int) -> list[str]:
        pile = self.pile
        if len(pile) < count and len(self.discards) > 1:
            top = self.discards.pop()
            rest = self.shuffle(self.discards)  # numbered from the bottom of the discards
            self.pile = pile = rest + pile  # under what is left: the old pile is drawn first
            self.discards = [top]
        taken: list[str] = []
        while pile and len(taken) < count:
            taken.append(pile.pop())
        return taken

    def draw(self, player: int, count: int) -> list[str]:
        if count <= 0:
            return []
        hand = self.hands[player]
        limit = self.r["mercy_limit"]
        if limit and len(hand) + count >= limit:  # the mercy rule: nothing past the limit
            count = limit - len(hand)
            if count <= 0:
                self.knock_out(player)
                return []
        cards = self.take(count)
        hand += cards
        if player in self.at_risk:
            self.at_risk.remove(player)
        if limit and len(hand) >= limit:
            self.knock_out(player)
        return cards

    def knock_out(self, player: int) -> None:
        if player not in self.knocked:
            self.knocked.append(player)

    def draw_to_color(self, player: int, color: str) -> None:
        """Colour Roulette, Flip's Wild Draw Colour: cards until one of `color`, or the mercy
        limit, or none is left."""
        hand = self.hands[player]
        limit = self.r["mercy_limit"]
        while True:
            got = self.take(1)
            if not got:
                break
            hand += got
            if limit and len(hand) >= limit:
                self.knock_out(player)
                break
            if color_of(got[0]) == color:
                break
        if player in self.at_risk:
            self.at_risk.remove(player)

    def settle_knockouts(self) -> None:
        """The knocked-out leave the round after each action: first what they owe (as a leave
        does), then their hand face down under the pile; the last one left wins the round."""
        for p in self.knocked:
            if self.round_over:
                return
            if p not in self.hands:
                continue
            if self.seats[self.turn] == p and self.decision in ("color", "target", "respond"):
                self.act(p, self.default_code(p))
                continue
            self.unseat(p)
            if len(self.seats) == 1:  # the last one left wins, even if it reached the limit too
                if self.seats[0] in self.knocked:
                    self.knocked.remove(self.seats[0])
                self.end_round(self.seats[0])
                return

    # -- what may be played

    def matches(self, card: str) -> bool:
        top = self.discards[-1]
        if card in CHALLENGED:
            return False
        if card.startswith("W"):
            return True
        return color_of(card) == self.color or (
            not top.startswith("W") and rank_of(card) == rank_of(top)
        )

    def wd4_allowed(self, hand: list[str]) -> bool:
        rule = self.r["wd4_rule"]
        if rule == "color":
            return not any(color_of(c) == self.color for c in hand)
        if rule == "no_playable":
            return not any(self.matches(c) for c in hand)
        return True

    def playable_drawn(self, card: str, hand: list[str]) -> bool:
        if len(hand) == 1 and not self.r["go_out_on_action"] and not rank_of(card).isdigit():
            return False
        return self.wd4_allowed(hand) if card in CHALLENGED else self.matches(card)

    def responses(self, player: int) -> bool:
        """Whether `player` holds a card that stacks on or deflects the pending penalty."""
        r = self.r
        hand = self.hands[player]
        if len(hand) == 1 and not r["go_out_on_action"]:
            return False
        kind = self.penalty_kind
        top = self.discards[-1]
        if kind == "S":
            return top in hand
        # Stacks compare with the stack's last draw card (under any Skip or Reverse that passed
        # it on); if the discards were turned over since, any draw card stacks (`same`: none).
        last = next((c for c in reversed(self.discards) if rank_of(c) in DRAW_VALUES), None)
        value = DRAW_VALUES[rank_of(last)] if last is not None else 1
        for c in hand:
            rank = rank_of(c)
            if r["stacking"] == "mixed" and DRAW_VALUES.get(rank, 0) >= value:
                return True
            if r["stacking"] == "same" and last is not None and rank == rank_of(last):
                return True
            if r["stack_deflect"] and rank in ("S", "R") and color_of(c) == self.color:
                return True
            if kind == "D" and r["deflect_d2"] and rank == "D":
                return True
            if kind == "W4" and r["deflect_wd4"] and c == self.color + "D":
                return True
        return False

    def can_challenge(self) -> bool:
        r = self.r
        return (
            self.penalty_kind in ("W4", "WDC")
            and r["wd4_challenge"]
            and r["wd4_rule"] != "any"
            and self.wd4 is not None
            and self.wd4[0] in self.seats
        )

    # -- actions

    def act(self, player: int, code: str) -> None:
        if code == "leave":
            self.leave(player)
            return
        if self.over or self.round_over:
            raise Mismatch("an action after the round ended")
        if player not in self.seats:
            raise Mismatch("an action of a player not seated")
        kind, _, arg = code.partition(":")
        if kind == "play":
            card, _, uno = arg.partition(":")
            self.at_risk.clear()
            self.play(player, card, uno == "uno")
        elif kind == "draw":
            self.at_risk.clear()
            self.draw_turn(player)
        elif kind == "color":
            if len(arg) != 1 or arg not in self.colors():
                raise Mismatch("not a colour")
            self.color = arg
            self.continue_card()
        elif kind == "keep":
            self.start_turn(self.next_seat(self.turn))
        elif kind == "pass":
            self.at_risk.clear()
            self.passes += 1
            if self.passes >= len(self.seats):
                self.end_round(self.blocked_winner())
            else:
                self.start_turn(self.next_seat(self.turn))
        elif kind == "accept":
            self.at_risk.clear()
            self.take_penalty(self.turn)
        elif kind == "challenge":
            self.at_risk.clear()
            self.challenge(player)
        elif kind == "uno":
            if player in self.at_risk:
                self.at_risk.remove(player)
        elif kind == "target":
            self.swap(player, int(arg))
            if not self.someone_out():
                self.continue_card()
        elif kind == "catch":
            target = int(arg)
            if target in self.at_risk:
                self.at_risk.remove(target)
                self.draw(target, self.r["uno_penalty"])
            else:
                self.draw(player, self.r["false_catch_penalty"])
        else:
            raise Mismatch("not an action")
        if self.knocked:
            self.settle_knockouts()
        if not self.pile and self.decision == "play" and not self.round_over:
            self.note_position()

    def play(self, player: int, card: str, uno: bool) -> None:
        r = self.r
        hand = self.hands[player]
        if card not in hand:
            raise Mismatch(f"{card} is not in the hand of {player}")
        seat = self.seats.index(player)
        self.turn = seat  # (a jump-in takes the turn)
        responding = self.decision == "respond"
        hand.remove(card)
        self.discards.append(card)
        color_before = self.color
        self.color = color_of(card)
        self.passes = 0
        rank = rank_of(card)
        if card in CHALLENGED:
            rule = r["wd4_rule"]
            if rule == "color":
                guilty = any(color_of(c) == color_before for c in hand)
            elif rule == "no_playable":
                under, active = self.discards[-2], color_before
                guilty = any(
                    c in ("W", "WS", "WX", "WC", "WK")
                    or color_of(c) == active
                    or (
                        not under.startswith("W")
                        and c not in CHALLENGED
                        and rank_of(c) == rank_of(under)
                    )
                    for c in hand
                )
            else:
                guilty = False
            self.wd4 = (player, color_before, guilty)
        if responding:
            self.penalty_kind = ""
        if rank == "DA":  # every other card of its colour goes under it
            others = in_card_order([c for c in hand if color_of(c) == color_of(card)])
            for c in others:
                hand.remove(c)
            self.discards[-1:-1] = others
        if not hand:
            if card == "WS" and r["last_card_swap"] == "apply":
                self.steps = ["target", "color", "effect"]
                self.continue_card()
                return
            if card == "WX" and r["last_card_shuffle"] == "apply":
                self.shuffle_hands()
                if self.someone_out():
                    return
                self.steps = ["color", "effect"]
                self.continue_card()
                return
            if rank == "F":  # the last card's flip happens: the new side is scored
                self.turn_over()
            elif rank in DRAW_VALUES:
                if rank == "WR4":
                    self.direction = -self.direction
                amount = self.penalty_after(rank)
                self.penalty = 0
                self.draw(self.seats[self.next_seat(seat)], amount)
            self.end_round(player)
            return
        if len(hand) == 1 and not uno:
            self.at_risk.append(player)
        if card in ("W", "W4", "WR4", "W6", "W10", "W2", "WK", "WDC"):
            self.steps = ["effect"]
            self.decision = "color"
            return
        if card == "WCR":  # the next player names the colour
            self.turn = self.next_seat(seat)
            self.steps = ["roulette"]
            self.decision = "color"
            return
        if card == "WS":
            self.steps = ["target", "color", "effect"]
        elif card == "WX":
            self.shuffle_hands()
            if self.someone_out():
                return
            self.steps = ["color", "effect"]
        elif card == "WC":
            self.steps = ["color", "custom", "effect"]
        elif r["seven_o"] and rank in ("7", "0"):
            if rank == "7":
                self.steps = ["target", "effect"]
            else:
                self.rotate_hands()
                self.steps = ["effect"]
        else:  # a coloured card: nothing to decide before its effect
            self.steps = []
            self.effect()
            return
        self.continue_card()

    def penalty_after(self, rank: str) -> int:
        amount = DRAW_VALUES[rank]
        return self.penalty + amount if self.r["stacking"] != "off" else amount

    def continue_card(self) -> None:
        actor = self.seats[self.turn]
        while self.steps:
            step = self.steps.pop(0)
            if step == "color":
                self.decision = "color"
                return
            if step == "target":
                self.decision = "target"
                return
            if step == "turn":
                self.decision = "play"
                return
            if step == "next":  # a flip revealed a wild, its colour named: the turn passes
                self.start_turn(self.next_seat(self.turn))
                return
            if step == "roulette":
                self.draw_to_color(actor, self.color)
                self.start_turn(self.next_seat(self.turn))
                return
            if step == "custom":
                self.custom_effect(actor)
            elif step == "effect":
                self.effect()
                return

    def effect(self) -> None:
        r = self.r
        card = self.discards[-1]
        rank = rank_of(card)
        seat = self.turn
        if rank == "R":
            self.direction = -self.direction
        following = self.next_seat(seat)
        if rank.isdigit():
            self.start_turn(following)
        elif self.penalty and rank in ("S", "R"):  # a stack passed on (stack_deflect)
            self.penalty_kind = "+"
            self.turn = following
            if self.responses(self.seats[following]):
                self.decision = "respond"
                return
            self.turn = seat
            self.take_penalty(following)
        elif rank == "S":
            victim = self.seats[following]
            if r["deflect_skip"] and card in self.hands[victim]:
                self.penalty_kind = "S"
                self.turn = following
                self.decision = "respond"
                return
            self.start_turn(self.next_seat(following))
        elif rank == "R":
            if len(self.seats) == 2 and r["two_player_reverse"] == "skip":
                self.start_turn(seat)
            else:
                self.start_turn(following)
        elif rank == "F":  # UNO Flip
            self.turn_over()
            if self.discards[-1].startswith("W"):  # a wild revealed: the flipper names a colour
                self.steps = ["next"]
                self.decision = "color"
                return
            self.start_turn(following)
        elif rank == "WDC":  # draw until the colour named: challengeable, no count
            self.penalty, self.penalty_kind = 0, "WDC"
            self.turn = following
            if self.can_challenge():
                self.decision = "respond"
                return
            self.turn = seat
            self.take_penalty(following)
        elif rank == "WR4":  # the direction turns, then the player now next draws
            self.direction = -self.direction
            self.penalty_on(rank, seat, self.next_seat(seat))
        elif rank in DRAW_VALUES:
            self.penalty_on(rank, seat, following)
        elif rank == "SE" or (rank == "WC" and r["custom_effect"] == "play_again"):
            self.start_turn(seat)
        else:
            self.start_turn(following)

    def penalty_on(self, rank: str, seat: int, following: int) -> None:
        self.penalty = self.penalty_after(rank)
        self.penalty_kind = "D" if rank == "D" else "W4" if rank in ("W4", "W2") else "+"
        self.turn = following
        if self.responses(self.seats[following]) or self.can_challenge():
            self.decision = "respond"
            return
        self.turn = seat
        self.take_penalty(following)

    def take_penalty(self, victim_seat: int) -> None:
        if self.penalty_kind == "WDC":
            self.penalty_kind = ""
            self.draw_to_color(self.seats[victim_seat], self.color)
            self.start_turn(self.next_seat(victim_seat))
            return
        amount, self.penalty, self.penalty_kind = self.penalty, 0, ""
        self.draw(self.seats[victim_seat], amount)
        self.start_turn(self.next_seat(victim_seat))

    def challenge(self, challenger: int) -> None:
        if self.wd4 is None:
            raise Mismatch("a challenge without a Wild Draw Four")
        offender, color_before, guilty = self.wd4
        if self.penalty_kind == "WDC":  # to the colour (guilty); innocent: to it and 2 more
            self.penalty, self.penalty_kind, self.wd4 = 0, "", None
            if guilty:
                self.draw_to_color(offender, self.color)
                self.start_turn(self.turn)
            else:
                self.draw_to_color(challenger, self.color)
                self.draw(challenger, 2)
                self.start_turn(self.next_seat(self.turn))
            return
        total, self.penalty, self.penalty_kind, self.wd4 = self.penalty, 0, "", None
        if guilty:
            if self.r["challenge_guilty"] == "de":
                if len(self.discards) > 1:
                    self.hands[offender].append(self.discards.pop())
                self.color = color_before
                self.skip_next.append(offender)
            self.draw(offender, total)
            self.start_turn(self.turn)
        else:
            self.draw(challenger, max(0, total + self.r["challenge_fail_draw"] - 4))
            self.start_turn(self.next_seat(self.turn))

    def custom_effect(self, actor: int) -> None:
        name = self.r["custom_effect"]
        others = self.seats_from(self.seats.index(actor))[:-1]
        if name == "swap_hands":
            self.steps.insert(0, "target")
        elif name == "others_draw_2":
            for p in others:
                self.draw(p, 2)
        elif name == "draw_to_7":
            for p in others:
                self.draw(p, 7 - len(self.hands[p]))

    def hands_changed(self, players: list[int]) -> None:
        for p in players:
            if len(self.hands[p]) == 1:
                if p not in self.at_risk:
                    self.at_risk.append(p)
            elif p in self.at_risk:
                self.at_risk.remove(p)

    def swap(self, player: int, target: int) -> None:
        if target not in self.seats or target == player:
            raise Mismatch("not a target")
        self.hands[player], self.hands[target] = self.hands[target], self.hands[player]
        self.hands_changed([player, target])

    def rotate_hands(self) -> None:
        old = [self.hands[p] for p in self.seats]
        for i, hand in enumerate(old):
            self.hands[self.seats[self.next_seat(i)]] = hand
        self.hands_changed(self.seats)

    def shuffle_hands(self) -> None:
        pool = [c for p in self.seats for c in in_card_order(self.hands[p])]
        pool = self.shuffle(pool)
        order = self.seats_from(self.turn)
        for p in order:
            self.hands[p] = []
        for i, card in enumerate(pool):
            self.hands[order[i % len(order)]].append(card)
        self.hands_changed(self.seats)

    def someone_out(self) -> bool:
        for k in range(len(self.seats)):
            p = self.seats[self.next_seat(self.turn, k)]
            if not self.hands[p]:
                self.end_round(p)
                return True
        return False

    def draw_turn(self, player: int) -> None:
        self.passes = 0
        hand = self.hands[player]
        limit = self.r["mercy_limit"]
        knocked = False
        drawn: list[str] = []
        while True:  # one card, or until one is playable; the mercy rule after each
            got = self.take(1)
            if not got:
                break
            drawn += got
            hand += got
            if limit and len(hand) >= limit:
                self.knock_out(player)
                knocked = True
                break
            if not self.r["draw_until_playable"] or self.playable_drawn(got[0], hand):
                break
        if player in self.at_risk:
            self.at_risk.remove(player)
        if drawn and not knocked and self.playable_drawn(drawn[-1], hand):
            self.decision = "play_drawn"
        else:
            self.start_turn(self.next_seat(self.turn))

    def note_position(self) -> None:
        key = json.dumps(
            [
                self.seats[self.turn],
                self.direction,
                self.color,
                self.discards,
                [in_card_order(self.hands[p]) for p in self.seats],
                self.at_risk,
                self.skip_next,
                self.penalty,
            ]
        )
        seen = self.positions[key] = self.positions.get(key, 0) + 1
        if seen >= 3:
            self.end_round(self.blocked_winner())

    def blocked_winner(self) -> int:
        order = self.seats_from(self.turn)
        return min(
            order,
            key=lambda p: (self.points(self.hands[p]), len(self.hands[p]), order.index(p)),
        )

    # -- the end of a round, leaving

    def end_round(self, winner: int | None) -> None:
        r = self.r
        seats = [p for p in self.seats if p not in self.knocked]  # knocked out: no points
        value = {p: self.points(self.hands[p]) for p in seats}
        points = dict.fromkeys(seats, 0)
        if winner is not None:
            if r["scoring"] == "standard":
                points[winner] = sum(value.values()) - value[winner]
            elif r["scoring"] == "cards_count":
                points[winner] = sum(len(self.hands[p]) for p in seats if p != winner)
            elif r["scoring"] in ("penalty", "elimination"):
                for p in seats:
                    if p != winner:
                        points[p] = value[p]
        for p in self.knocked:
            points[p] = 0
        if winner is not None and self.knocked and r["scoring"] == "standard":
            points[winner] += r["knockout_bonus"] * len(self.knocked)
        for p, v in points.items():
            self.totals[p] += v
        self.result = (winner, points)
        self.round_over = True
        self.at_risk = []
        self.penalty = 0
        if winner is None:
            return
        reached = [p for p in seats if self.totals[p] >= r["target"]]
        if r["scoring"] == "none":
            self.over = True
        elif r["scoring"] in ("standard", "cards_count", "penalty"):
            self.over = bool(reached)
        elif len(seats) == 2:
            self.over = True
        else:
            self.eliminated += reached
            self.over = len(seats) - len(reached) <= 1

    def points(self, hand: list[str]) -> int:
        return sum(points_of(c, self.r["deck"]) for c in hand)

    def leave(self, player: int) -> None:
        if player not in self.players or player in self.left or self.over:
            raise Mismatch("a leave of a player not in the match")
        in_round = not self.round_over and player in self.seats
        while in_round and not self.round_over and self.seats[self.turn] == player:
            if self.decision not in ("color", "target", "respond"):
                break
            self.act(player, self.default_code(player))
        self.left.append(player)
        in_round = not self.round_over and player in self.seats
        if in_round:
            self.unseat(player)
        staying = [p for p in self.players if p not in self.left and p not in self.eliminated]
        if len(staying) < 2:
            if in_round:
                self.end_round(None)
            self.over = True
        elif in_round and len(self.seats) == 1:  # the others were knocked out: it wins
            self.end_round(self.seats[0])

    def default_code(self, player: int) -> str:
        """What a player who owes a colour, a target or an answer does when they cannot
        (leaving, knocked out): their colour held most (ties R, Y, G, B), the next player,
        accept."""
        if self.decision == "color":
            colors = self.colors()
            counts = [sum(color_of(c) == k for c in self.hands[player]) for k in colors]
            return "color:" + colors[counts.index(max(counts))]
        if self.decision == "target":
            return f"target:{self.seats[self.next_seat(self.turn)]}"
        return "accept"

    def unseat(self, player: int) -> None:
        seat = self.seats.index(player)
        self.pile[:0] = in_card_order(self.hands.pop(player))
        self.seats.pop(seat)
        for waiting in (self.at_risk, self.skip_next):
            if player in waiting:
                waiting.remove(player)
        if not self.seats:
            return
        if self.turn > seat:
            self.turn -= 1
        elif self.turn == seat:
            following = seat if self.direction == 1 else seat - 1
            self.start_turn(following % len(self.seats))

    def next_dealer(self) -> None:
        i = self.players.index(self.dealer)
        for k in range(1, len(self.players) + 1):
            candidate = self.players[(i + k) % len(self.players)]
            if candidate not in self.left and candidate not in self.eliminated:
                self.dealer = candidate
                return


# ------------------------------------------------------------------- the record


def verify(record: dict[str, Any]) -> str:
    """'OK: ...' or raises Mismatch with the first thing that does not hold."""
    try:
        return _verify(record)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise Mismatch(f"unreadable record: {type(exc).__name__} {exc}") from None


def _verify(record: dict[str, Any]) -> str:
    if record.get("format") != "uno-record" or record.get("version") != 1:
        raise Mismatch("not a uno-record version 1")
    if record.get("shuffle") != "uno-shuffle-v1":
        raise Mismatch("unknown shuffle")
    match = Match(record)
    checked = 0
    for index, rnd in enumerate(record["rounds"]):
        number = rnd["number"]
        if rnd.get("seed") is None:
            break
        seed = bytes.fromhex(rnd["seed"])
        if hashlib.sha256(seed).hexdigest() != str(rnd["commitment"]).lower():
            raise Mismatch(f"round {number}: the seed does not match its commitment")
        dealt = shuffle(unshuffled_deck(match.r["deck"]), seed, 0)
        if rnd.get("deck") is not None and [str(c).upper() for c in rnd["deck"]] != dealt:
            raise Mismatch(f"round {number}: the deck is not the deal of the seed")
        if rnd.get("other_sides") is not None:  # UNO Flip: the seed's pairing of the sides
            other = flip_pairing(seed)
            if [str(c).upper() for c in rnd["other_sides"]] != [other[c] for c in dealt]:
                raise Mismatch(f"round {number}: the other sides are not the seed's pairing")
        if index:
            if match.over or not match.round_over:
                raise Mismatch(f"round {number}: the match could not go on")
            match.next_dealer()
        if int(rnd["dealer"]) != match.dealer:
            raise Mismatch(f"round {number}: the dealer is {rnd['dealer']}, not {match.dealer}")
        match.deal(number, seed)
        for i, (player, code) in enumerate(rnd["actions"], start=1):
            try:
                match.act(int(player), str(code))
            except Mismatch as exc:
                raise Mismatch(f"round {number}, action {i} ({player} {code}): {exc}") from None
        result = rnd.get("result")
        if result is not None:
            if match.result is None:
                raise Mismatch(f"round {number}: the record has a result, the round is not over")
            winner, points = match.result
            got = {int(p): int(v) for p, v in result["points"].items()}
            if result.get("winner") != winner or got != points:
                raise Mismatch(
                    f"round {number}: the record says {result}, the cards say {winner} {points}"
                )
        checked += 1
    if not checked:
        raise Mismatch("no round with a revealed seed")
    totals = record.get("totals")
    if (
        totals is not None
        and checked == len(record["rounds"])
        and {int(p): int(v) for p, v in totals.items()} != match.totals
    ):
        raise Mismatch(f"final scores: the record says {totals}, the cards {match.totals}")
    return f"OK: {checked} round(s). Scores: {match.totals}"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python tools/reference_verifier.py RECORD.json", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as fh:
            print(verify(json.load(fh)))
    except (Mismatch, OSError, ValueError) as exc:
        print(f"MISMATCH: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
