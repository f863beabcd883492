"""Check a game record (docs/records.md): `python -m bot.engine.verify FILE`.

Replays the record with the engine: every round's seed against its commitment, the deal against
the seed (uno-shuffle-v1), every action's legality, every round's result and the final scores.
Prints OK and the scores (exit 0), or the first mismatch (exit 1). A round whose seed is not
revealed (not finished) ends the check: what came before it is verified.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import events as E
from . import seeds
from .actions import NEXT_ROUND, parse_action
from .cards import Card
from .errors import GameError
from .game import Game
from .record import FORMAT, VERSION, dealt_deck, dealt_other_sides
from .rules import InvalidRules, RuleSet


class Mismatch(Exception):
    """The first thing in a record that its seeds and the rules do not confirm."""


@dataclass(slots=True)
class Verdict:
    ok: bool
    message: str  # the mismatch, or a summary
    rounds: int = 0  # rounds verified
    totals: dict[int, int] = field(default_factory=dict)  # scores after them
    unfinished: int = 0  # rounds not finished (their seed still secret)
    names: dict[int, str] = field(default_factory=dict)  # the players' names in the record


def verify(record: Mapping[str, Any]) -> Verdict:
    """Replay `record`; never raises for bad content, says what is wrong instead."""
    try:
        return _verify(record)
    except Mismatch as exc:
        return Verdict(False, str(exc))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return Verdict(False, f"unreadable record: {type(exc).__name__} {exc}")


@dataclass(frozen=True, slots=True)
class Step:
    """A moment of a replay: round `round_number` just dealt (`action` 0) or after its
    `action`-th action. `game` is the replay's one game, moved on by the next step: read what
    you need from it before asking for the next one."""

    round_number: int
    action: int
    game: Game
    events: tuple[E.Event, ...] = ()  # what the action did (a replay's captions)


class Replay:
    """A record's match replayed with the engine, step by step (`steps`), every seed, deal,
    action and result checked on the way: `verify` walks it to the end, a replay to watch
    (bot/ui/replay.py) reads the table at each step. `Mismatch` at the first thing that does
    not hold; a record that cannot even be read raises what reading it raised."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        if record.get("format") != FORMAT or record.get("version") != VERSION:
            raise Mismatch(f"not a {FORMAT} version {VERSION} record")
        if record.get("shuffle") != seeds.ALGORITHM:
            raise Mismatch(
                f"unknown shuffle {record.get('shuffle')!r} (this checks {seeds.ALGORITHM})"
            )
        try:
            rules = RuleSet.from_dict(record["rules"])
        except InvalidRules as exc:
            raise Mismatch(f"invalid rules: {exc}") from None
        self.record = record
        self.players = [int(p["id"]) for p in record["players"]]
        self.names = {int(p["id"]): str(p.get("name", p["id"])) for p in record["players"]}
        self.rounds: Sequence[Mapping[str, Any]] = record["rounds"]
        self.revealed: list[bytes] = []  # the seeds of the rounds that can be replayed
        for r in self.rounds:
            if r.get("seed") is None:
                break
            self.revealed.append(_check_seed(r, rules.deck))
        if not self.revealed:
            raise Mismatch("no round with a revealed seed to check")
        self.game = Game.new(
            self.players, rules, dealer=int(record["first_dealer"]), round_seeds=self.revealed
        )

    def steps(self) -> Iterator[Step]:
        """Each round with a revealed seed: its deal, then each of its actions applied."""
        game = self.game
        for index, r in enumerate(self.rounds[: len(self.revealed)]):
            number = int(r["number"])
            if index:
                starter = int(r["started_by"])
                try:
                    game.apply(starter, NEXT_ROUND)
                except GameError as exc:
                    raise Mismatch(f"round {number}: cannot start it: {exc}") from None
            if game.round_number != number:
                raise Mismatch(f"round {number}: the replay deals round {game.round_number}")
            if game.dealer != int(r["dealer"]):
                raise Mismatch(
                    f"round {number}: the dealer is {r['dealer']}, the replay's {game.dealer}"
                )
            yield Step(number, 0, game)
            for i, (player, code) in enumerate(r["actions"], start=1):
                where = f"round {number}, action {i} ({player} {code})"
                try:
                    action = parse_action(str(code))
                except ValueError:
                    raise Mismatch(f"{where}: not an action") from None
                try:
                    events = game.apply(int(player), action)
                except GameError as exc:
                    raise Mismatch(f"{where}: illegal: {exc}") from None
                yield Step(number, i, game, tuple(events))
            _check_result(number, r.get("result"), game)


def _verify(record: Mapping[str, Any]) -> Verdict:
    replay = Replay(record)
    for _ in replay.steps():
        pass
    game, revealed, rounds = replay.game, replay.revealed, replay.rounds
    totals = record.get("totals")
    if totals is not None and len(revealed) == len(rounds):
        expected = {int(p): int(v) for p, v in totals.items()}
        if expected != game.totals:
            raise Mismatch(f"final scores: the record says {expected}, the replay {game.totals}")
    names = replay.names
    scores = ", ".join(f"{names.get(p, p)} {v}" for p, v in game.totals.items())
    unfinished = len(rounds) - len(revealed)
    note = f"; {unfinished} round(s) not finished, seed secret" if unfinished else ""
    return Verdict(
        True,
        f"OK: {len(revealed)} round(s){note}. Scores: {scores}",
        len(revealed),
        dict(game.totals),
        unfinished,
        dict(names),
    )


def _check_seed(r: Mapping[str, Any], deck: str) -> bytes:
    number = r["number"]
    seed = bytes.fromhex(str(r["seed"]))
    if len(seed) != seeds.SEED_BYTES:
        raise Mismatch(f"round {number}: the seed is not {seeds.SEED_BYTES} bytes")
    if seeds.commitment(seed) != str(r["commitment"]).lower():
        raise Mismatch(f"round {number}: the seed does not match its commitment")
    recorded = r.get("deck")
    if recorded is not None:
        dealt = dealt_deck(seed, deck)
        if len(recorded) != len(dealt):
            raise Mismatch(
                f"round {number}: the deck has {len(recorded)} cards, the seed deals {len(dealt)}"
            )
        for i, (code, expected) in enumerate(zip(recorded, dealt, strict=True), start=1):
            if Card.of(str(code)).code != expected:
                raise Mismatch(
                    f"round {number}: card {i} of the deal is {code} in the record, "
                    f"the seed deals {expected}"
                )
    other_sides = r.get("other_sides")  # UNO Flip: the dark sides the seed pairs them with
    if other_sides is not None:
        paired = dealt_other_sides(seed, deck) or []
        if [Card.of(str(code)).code for code in other_sides] != paired:
            raise Mismatch(f"round {number}: the cards' other sides are not the seed's pairing")
    return seed


def _check_result(number: int, result: Mapping[str, Any] | None, game: Game) -> None:
    outcome = game.round_outcome
    if result is None:
        return
    if outcome is None or outcome.round_number != number:
        raise Mismatch(f"round {number}: the record has a result, the replay's round is not over")
    winner = result.get("winner")
    if (None if winner is None else int(winner)) != outcome.winner:
        raise Mismatch(
            f"round {number}: the record's winner is {winner}, the replay's {outcome.winner}"
        )
    points = {int(p): int(v) for p, v in result.get("points", {}).items()}
    if points != dict(outcome.points):
        raise Mismatch(
            f"round {number}: the record's points are {points}, the replay's {dict(outcome.points)}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m bot.engine.verify RECORD.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as fh:
            record = json.load(fh)
    except (OSError, ValueError) as exc:
        print(f"MISMATCH: cannot read {args[0]}: {exc}")
        return 1
    verdict = verify(record)
    print(verdict.message if verdict.ok else f"MISMATCH: {verdict.message}")
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
