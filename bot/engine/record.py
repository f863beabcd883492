"""Game records (docs/records.md): a round's or a match's rules, seats, seeds, commitments and
every action in order, as plain JSON-able data that `verify.py` (or anyone's verifier) replays.

`build_record` splits the action log into rounds at each `next` and replays the rounds whose
seeds are revealed to fill in each round's dealer and dealt deck. A round not finished has its
commitment and actions but never its seed or deck.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import seeds
from .actions import NEXT_ROUND, parse_action
from .cards import Card
from .errors import GameError
from .faces import CARDS, deck_faces
from .flip import FLIP_DECK, pairing
from .game import Game
from .rules import RuleSet

FORMAT = "uno-record"
VERSION = 1


def dealt_deck(seed: bytes, deck: str) -> list[str]:
    """The deck a round seed deals, in draw order (the first card is drawn first)."""
    faces = deck_faces(deck)
    seeds.shuffle_in_place(faces, seed, 0)
    return [CARDS[f].code for f in faces]


def dealt_other_sides(seed: bytes, deck: str) -> list[str] | None:
    """UNO Flip: the other (dark) side of each card of `dealt_deck`, by the round's pairing
    ("uno-flip-pairing-v1", flip.py); None for a deck of one-sided cards."""
    if deck != FLIP_DECK:
        return None
    other = pairing(seed)
    return [CARDS[other[Card.of(code).face]].code for code in dealt_deck(seed, deck)]


def split_rounds(
    actions: Sequence[tuple[int, str]],
) -> list[tuple[int | None, list[tuple[int, str]]]]:
    """The log as rounds: (who started it with `next`, None for round 1; its actions)."""
    rounds: list[tuple[int | None, list[tuple[int, str]]]] = [(None, [])]
    for player, code in actions:
        if code == NEXT_ROUND.code:
            rounds.append((player, []))
        else:
            rounds[-1][1].append((player, code))
    return rounds


def build_record(
    *,
    rules: Mapping[str, Any],
    players: Sequence[tuple[int, str]],
    first_dealer: int,
    actions: Sequence[tuple[int, str]],
    commitments: Mapping[int, str],
    revealed: Mapping[int, str],
    results: Mapping[int, Mapping[str, Any]],
    totals: Mapping[int, int] | None = None,
    last_round: int | None = None,
    game: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A record of rounds 1..`last_round` (all by default). `commitments`/`revealed`: each
    round's commitment and revealed seed (hex) by number; `results`: each finished round's
    {"winner", "points"}; `totals`: the final scores of a finished match (a match record only)."""
    ruleset = RuleSet.from_dict(dict(rules))
    split = split_rounds(actions)
    if last_round is not None:
        split = split[:last_round]
    preset = []
    for number in range(1, len(split) + 1):
        if number not in revealed:
            break
        preset.append(bytes.fromhex(revealed[number]))
    replay: Game | None = Game.new(
        [p for p, _ in players], ruleset, dealer=first_dealer, round_seeds=preset
    )
    out = []
    for number, (starter, round_actions) in enumerate(split, start=1):
        if number > 1 and replay is not None:
            try:
                replay.apply(int(starter or 0), NEXT_ROUND)
            except GameError:
                replay = None  # a log the engine does not follow: no dealer to say
        seed = revealed.get(number)
        entry: dict[str, Any] = {"number": number}
        if number > 1:
            entry["started_by"] = starter
        entry["dealer"] = replay.dealer if replay is not None else None
        entry["commitment"] = commitments.get(number)
        entry["seed"] = seed
        if seed is not None:
            entry["deck"] = dealt_deck(bytes.fromhex(seed), ruleset.deck)
            other_sides = dealt_other_sides(bytes.fromhex(seed), ruleset.deck)
            if other_sides is not None:
                entry["other_sides"] = other_sides
        entry["actions"] = [[p, code] for p, code in round_actions]
        result = results.get(number)
        entry["result"] = (
            {
                "winner": result.get("winner"),
                "points": {str(p): v for p, v in result["points"].items()},
            }
            if result is not None
            else None
        )
        out.append(entry)
        if replay is not None and seed is not None:
            for p, code in round_actions:
                try:
                    replay.apply(p, parse_action(code))
                except (GameError, ValueError):
                    replay = None
                    break
        else:
            replay = None  # nothing after an unfinished round
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "shuffle": seeds.ALGORITHM,
    }
    if game is not None:
        record["game"] = dict(game)
    record |= {
        "rules": ruleset.to_dict(),
        "players": [{"id": p, "name": name} for p, name in players],
        "first_dealer": first_dealer,
        "rounds": out,
        "totals": (
            {str(p): v for p, v in totals.items()}
            if totals is not None and last_round is None
            else None
        ),
    }
    return record
