"""Whole matches of random legal moves, recorded as the bot records them: the input of the tests
of the verifier (tests/engine/test_verify.py) and of replays (tests/ui, tests/cogs)."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Game, RuleSet
from bot.engine import actions as A
from bot.engine import events as E

PLAYERS = [(11, "Ada"), (22, "Bo"), (33, "Cy")]


def recorded_match(seed: int, rules: RuleSet | None = None) -> dict[str, Any]:
    """The parts of a record (cogs/uno/records/exports.py `record_parts`) of a whole match of random
    legal moves, every shuffle and every move seeded."""
    rng = random.Random(seed)
    game, events = Game.start([p for p, _ in PLAYERS], rules or RuleSet(target=200), seed=seed)
    first_dealer = game.dealer
    actions: list[tuple[int, str]] = []
    commitments: dict[int, str] = {}
    revealed: dict[int, str] = {}
    results: dict[int, dict[str, Any]] = {}

    def note(evs: list[E.Event]) -> None:
        for e in evs:
            if isinstance(e, E.RoundStarted):
                commitments[e.round_number] = e.commitment
            elif isinstance(e, E.RoundEnded):
                revealed[e.outcome.round_number] = e.seed
                results[e.outcome.round_number] = {
                    "winner": e.outcome.winner,
                    "points": dict(e.outcome.points),
                }

    note(events)
    while game.outcome is None:
        player = game.current_player if not game.round_over else game.players[0]
        legal = [a for a in game.legal_actions(player) if not isinstance(a, A.Catch)]
        action = rng.choice(legal)
        note(game.apply(player, action))
        actions.append((player, action.code))
    return {
        "rules": game.rules.to_dict(),
        "players": PLAYERS,
        "first_dealer": first_dealer,
        "actions": actions,
        "commitments": commitments,
        "revealed": revealed,
        "results": results,
        "totals": game.totals,
    }
