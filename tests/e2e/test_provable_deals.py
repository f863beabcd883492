"""Provable deals, end to end: every round's table shows a commitment at the deal, the game's
record (its Game record button) reveals each finished round's seed whose SHA-256 begins with it
(the results no longer repeat the 64 hex digits: issue 32), and the exported record passes
`python -m bot.engine.verify` while a copy with one action altered fails (docs/records.md)."""

from __future__ import annotations

import copy
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine.verify import Replay
from testing.players import Table, actions, answer, final_answer, open_game, play_round

pytestmark = pytest.mark.asyncio(loop_scope="session")

COMMITMENT = re.compile(r"🔒 ([0-9a-f]{16})")
SEED = re.compile(r"[0-9a-f]{64}")
ROUND = re.compile(r"UNO — round (\d+)")


REFERENCE = Path(__file__).resolve().parents[2] / "tools" / "reference_verifier.py"


def _verify(path: Path, *, reference: bool = False) -> subprocess.CompletedProcess[str]:
    """The bot's verifier, or the docs' reference verifier (`reference`)."""
    command = [str(REFERENCE)] if reference else ["-m", "bot.engine.verify"]
    return subprocess.run([sys.executable, *command, str(path)], capture_output=True, text=True)


async def test_every_round_is_committed_revealed_and_verifiable(s, tmp_path: Path) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    table = await open_game(emu, channel, alice, [bob], target=150)
    users = {alice.id: alice, bob.id: bob}
    tables = Table(emu, channel)
    shown: list[str] = []  # each round's commitment, read off its table at the deal
    for number in range(1, 50):
        [commitment] = COMMITMENT.findall(table.text)
        assert f"round {number}" in table.text
        shown.append(commitment)
        end = await play_round(emu, channel, users)
        results = [m for m in emu.channel_messages(channel) if f"Round {number} results" in m.text]
        assert results, f"no results of round {number}"
        assert not SEED.search(results[-1].text), "the seed is in the game's record"
        if "match is over" in end.text:
            break
        await answer(await emu.click(alice, end, actions(end)["next"]))
        table = await emu.wait_for(
            lambda n=number + 1: (
                (m := tables.message()) is not None and f"round {n}" in m.text and m
            ),
            5,
            what="next round's table",
        )
    # The match's record: the results' button gives it as a file, every round's seed in it.
    results = next(m for m in emu.channel_messages(channel) if "Match winner" in m.text)
    exported = await final_answer(await emu.click(bob, results, label="Game record"))
    assert exported.ephemeral and exported.attachments
    record = json.loads(emu.attachment_blobs[int(exported.attachments[0]["id"])])
    revealed = [r["seed"] for r in record["rounds"]]
    for commitment, seed in zip(shown, revealed, strict=True):
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest().startswith(commitment)
    assert len(set(revealed)) == len(revealed)
    good = tmp_path / "record.json"
    good.write_text(json.dumps(record))
    run = _verify(good)
    assert run.returncode == 0 and run.stdout.startswith("OK"), run.stdout + run.stderr
    # The docs' reference verifier (tools/, written from docs/records.md alone) agrees.
    run = _verify(good, reference=True)
    assert run.returncode == 0 and run.stdout.startswith("OK"), run.stdout + run.stderr

    bad_record = copy.deepcopy(record)
    altered = bad_record["rounds"][0]["actions"]
    i = next(i for i, (_, code) in enumerate(altered) if code.startswith("play:"))
    altered[i][1] = _a_card_not_held(record, i)
    bad = tmp_path / "altered.json"
    bad.write_text(json.dumps(bad_record))
    run = _verify(bad)
    assert run.returncode == 1 and run.stdout.startswith(f"MISMATCH: round 1, action {i + 1}")
    run = _verify(bad, reference=True)
    assert run.returncode == 1 and run.stdout.startswith(f"MISMATCH: round 1, action {i + 1}")

    # `/uno verify` says the same of the server's last finished game, to the asker only.
    verdict = await final_answer(
        await emu.slash(alice, channel, "uno verify", game=record["game"]["id"])
    )
    assert verdict.ephemeral and "checks out" in verdict.text, verdict.text


def _a_card_not_held(record: dict[str, Any], index: int) -> str:
    """A play of a card that the player of round 1's action `index` does not hold at that
    moment: altered so, the record must fail there, whatever the deal was."""
    player = int(record["rounds"][0]["actions"][index][0])
    for step in Replay(record).steps():
        if step.action == index:
            held = {card.code for card in step.game.hand(player)}
            return next(f"play:{c}" for c in ("W4", "W", "R0", "B0", "G0", "Y0") if c not in held)
    raise AssertionError("the replay never reached that action")


async def test_a_running_games_record_never_holds_the_seed_of_its_round(s) -> None:
    emu = s.emu
    channel = s.channel()
    carol, dave = s.users("carol", "dave")
    table = await open_game(emu, channel, carol, [dave])
    [commitment] = COMMITMENT.findall(table.text)
    exported = await final_answer(await emu.slash(dave, channel, "uno export"))
    assert exported.ephemeral
    record = json.loads(emu.attachment_blobs[int(exported.attachments[0]["id"])])
    [only] = record["rounds"]
    assert only["commitment"].startswith(commitment)
    assert only["seed"] is None and "deck" not in only and record["totals"] is None
    await answer(await emu.slash(carol, channel, "uno end"))
