"""Build exact game situations from readable data, for scenario tests.

`deal(players=[1, 2, 3], hands={1: "R7 B2", 2: "G1 G2", 3: "Y1 Y2"}, starter="R5",
pile="G1 G2", dealer=3, hand_size=..., **rules)` returns a `Game` whose round 1 is dealt
exactly so: every hand as given, the starter turned, and the draw pile drawn left to right.

`Game.start` deals blocks of `hand_size` cards in seat order, so all hands must have the same
size (pad them with harmless cards in the test). A rule option `rules=RuleSet(...)` or keyword
options (`stacking="mixed"`) choose the house rules; `hand_size` defaults to the hands' size.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine import Card, Color, Game, RuleSet, parse_cards
from bot.engine import actions as A
from bot.engine import events as E


def cards(codes: str | Sequence[str]) -> list[Card]:
    return parse_cards(list(codes) if not isinstance(codes, str) else codes)


def codes(hand: Sequence[Card]) -> str:
    """A hand as a space-separated string of codes, in the order held."""
    return " ".join(c.code for c in hand)


def sorted_codes(hand: Sequence[Card]) -> list[str]:
    return sorted(c.code for c in hand)


def build_deck(
    players: Sequence[int],
    hands: Mapping[int, str | Sequence[str]] | Sequence[str | Sequence[str]],
    starter: str,
    pile: str | Sequence[str] = "",
) -> tuple[list[Card], int]:
    """The round-1 deck in draw order, and the common hand size."""
    if isinstance(hands, Mapping):
        if set(hands) != set(players):
            raise ValueError(f"hands given for {sorted(hands)}, players are {list(players)}")
        ordered = [cards(hands[p]) for p in players]
    else:
        if len(hands) != len(players):
            raise ValueError("one hand per player, in seat order")
        ordered = [cards(h) for h in hands]
    sizes = {len(h) for h in ordered}
    if len(sizes) != 1:
        raise ValueError(f"all hands must have the same size, got {[len(h) for h in ordered]}")
    deck = [c for h in ordered for c in h] + [Card.of(starter)] + cards(pile)
    return deck, sizes.pop()


def start(
    players: Sequence[int],
    hands: Mapping[int, str | Sequence[str]] | Sequence[str | Sequence[str]],
    starter: str,
    pile: str | Sequence[str] = "",
    *,
    dealer: int | None = None,
    seed: int = 0,
    rules: RuleSet | None = None,
    **options: Any,
) -> tuple[Game, list[E.Event]]:
    """Like `deal`, but also returns the events of the deal."""
    players = list(players)
    deck, size = build_deck(players, hands, starter, pile)
    base = rules or RuleSet()
    options.setdefault("hand_size", size)
    if options["hand_size"] != size:
        raise ValueError(f"hand_size {options['hand_size']} but hands hold {size} cards")
    ruleset = base.with_options(**options)
    if dealer is None:
        dealer = players[-1]  # so players[0] is d+1 and acts first by default
    return Game.start(players, ruleset, seed, dealer=dealer, deck=deck)


def deal(
    players: Sequence[int],
    hands: Mapping[int, str | Sequence[str]] | Sequence[str | Sequence[str]],
    starter: str,
    pile: str | Sequence[str] = "",
    *,
    dealer: int | None = None,
    seed: int = 0,
    rules: RuleSet | None = None,
    **options: Any,
) -> Game:
    """A game with round 1 dealt exactly as described (dealer defaults to the last player)."""
    return start(players, hands, starter, pile, dealer=dealer, seed=seed, rules=rules, **options)[0]


def play(code: str, uno: bool = False) -> A.Play:
    return A.Play(Card.of(code), uno=uno)


def color(code: str) -> A.ChooseColor:
    return A.ChooseColor(Color(code))


def of_type(events: Sequence[E.Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def drawn_by(events: Sequence[E.Event]) -> dict[int, int]:
    """How many cards each player drew in these events."""
    out: dict[int, int] = {}
    for e in of_type(events, E.CardsDrawn):
        out[e.player] = out.get(e.player, 0) + e.count
    return out


def sizes(game: Game) -> dict[int, int]:
    return {p: game.card_count(p) for p in game.seats}


def autoplay_round(game: Game, limit: int = 2000) -> list[E.Event]:
    """Play the running round to its end with simple deterministic choices; return the events.

    The player to act plays their first legal card, else draws (and plays a playable drawn
    card), accepts penalties, names the first colour and swaps with the first opponent offered.
    """
    events: list[E.Event] = []
    for _ in range(limit):
        if game.round_over:
            return events
        player = game.current_player
        assert player is not None
        legal = game.legal_actions(player)
        plays = [a for a in legal if isinstance(a, A.Play)]
        if plays:
            action: A.Action = plays[0]
        else:
            for kind in (A.Draw, A.Accept, A.Pass, A.ChooseColor, A.ChooseTarget, A.Keep):
                found = [a for a in legal if isinstance(a, kind)]
                if found:
                    action = found[0]
                    break
            else:
                raise AssertionError(f"no action for {player}: {legal}")
        events += game.apply(player, action)
    raise AssertionError("the round did not end")
