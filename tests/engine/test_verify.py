"""Game records and their verifier (record.py, verify.py; docs/records.md): a good record
passes; an altered action, seed or card fails with the first mismatch named, and exit 1."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine import RuleSet
from bot.engine.record import build_record, dealt_deck
from bot.engine.verify import main, verify
from tests.engine.matches import recorded_match


def played_match(seed: int = 2, rules: RuleSet | None = None) -> dict[str, Any]:
    """A whole match of random legal moves, recorded the way the bot stores it."""
    return build_record(**recorded_match(seed, rules or RuleSet(target=300)))


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return played_match()


def test_a_good_record_passes(record: dict[str, Any]) -> None:
    assert len(record["rounds"]) >= 2
    verdict = verify(record)
    assert verdict.ok, verdict.message
    assert verdict.message.startswith("OK") and verdict.rounds == len(record["rounds"])


def test_the_deck_in_a_record_is_the_seeds_deal_in_draw_order(record: dict[str, Any]) -> None:
    first = record["rounds"][0]
    assert first["deck"] == dealt_deck(bytes.fromhex(first["seed"]), "classic108")
    assert len(first["deck"]) == 108


def test_an_altered_action_fails(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    actions = bad["rounds"][0]["actions"]
    i = next(i for i, (_, code) in enumerate(actions) if code.startswith("play:"))
    player = actions[i][0]
    # The same card, played by someone else, out of turn: illegal whatever they hold.
    actions[i][0] = next(p["id"] for p in bad["players"] if p["id"] != player)
    verdict = verify(bad)
    assert not verdict.ok and f"round 1, action {i + 1}" in verdict.message


def test_an_altered_seed_fails(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    seed = bad["rounds"][1]["seed"]
    bad["rounds"][1]["seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
    verdict = verify(bad)
    assert not verdict.ok
    assert verdict.message == "round 2: the seed does not match its commitment"


def test_an_altered_card_fails(record: dict[str, Any]) -> None:
    bad = copy.deepcopy(record)
    deck = bad["rounds"][0]["deck"]
    deck[4] = "G5" if deck[4] != "G5" else "Y5"
    verdict = verify(bad)
    assert not verdict.ok
    assert verdict.message.startswith("round 1: card 5 of the deal is")


def test_an_unfinished_round_has_no_seed_and_what_came_before_is_verified() -> None:
    rec = played_match(seed=3)
    unfinished = copy.deepcopy(rec)
    last = unfinished["rounds"][-1]
    last["seed"] = None
    del last["deck"]
    last["result"] = None
    unfinished["totals"] = None
    verdict = verify(unfinished)
    assert verdict.ok and "not finished" in verdict.message


def test_the_command_line_exits_0_or_1(record: dict[str, Any], tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    bad_record = copy.deepcopy(record)
    first = bad_record["rounds"][0]["actions"][0]
    first[0] = next(p["id"] for p in bad_record["players"] if p["id"] != first[0])  # out of turn
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_record))
    assert main([str(good)]) == 0
    assert main([str(bad)]) == 1
    run = subprocess.run(
        [sys.executable, "-m", "bot.engine.verify", str(good)], capture_output=True, text=True
    )
    assert run.returncode == 0 and run.stdout.startswith("OK"), run.stdout + run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "bot.engine.verify", str(bad)], capture_output=True, text=True
    )
    assert run.returncode == 1 and run.stdout.startswith("MISMATCH: round 1, action 1")


def test_the_example_file_in_the_docs_verifies() -> None:
    example = Path(__file__).resolve().parents[2] / "docs" / "example-record.json"
    verdict = verify(json.loads(example.read_text()))
    assert verdict.ok, verdict.message
