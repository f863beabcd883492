"""Records are built and verified in the record process (cogs/uno/record_work.py), never on the
event loop nor in a thread of the bot, within a deadline; `/uno export`, `/uno verify` and the
Game record button tell the asker when a record is late.

The proof is not a timing: the building functions are replaced in this process by ones that
fail the test, and the answers still come, right, from the worker process (a fresh "spawn"
interpreter imports the real ones). A stuck process is a real one, stopped with SIGSTOP."""

from __future__ import annotations

import json
import os
import signal
from typing import Any

import pytest

from bot.engine import RuleSet
from bot.engine.record import build_record
from bot.engine.verify import verify
from bot.ui.errors import UserError
from cogs.uno import record_work
from cogs.uno.record_work import RecordLate, RecordWork
from cogs.uno.records import Records
from tests.engine.matches import recorded_match


def _parts() -> dict[str, Any]:
    return recorded_match(5, RuleSet(target=200))


def _not_here(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a record was built in the bot's own process")


@pytest.fixture
def nothing_built_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building or verifying a record in this process (the loop or one of its threads) fails."""
    for name in ("build_record", "verify"):
        monkeypatch.setattr(record_work, name, _not_here)


async def test_a_record_and_its_verdict_come_from_the_record_process(
    nothing_built_here: None,
) -> None:
    work = RecordWork()
    try:
        parts = _parts()
        data, rounds = await work.file(parts)
        expected = build_record(**parts)
        assert json.loads(data) == json.loads(json.dumps(expected)) and rounds == len(
            expected["rounds"]
        )
        verdict = await work.verdict(parts)
        assert verdict.ok and verdict == verify(expected)
        assert work.worker.pids and os.getpid() not in work.worker.pids
    finally:
        await work.close()


async def test_a_stuck_record_process_is_late_not_done_on_the_loop(
    nothing_built_here: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = RecordWork()
    try:
        await work.file(_parts())  # (the process is up)
        (pid,) = work.worker.pids
        os.kill(pid, signal.SIGSTOP)
        monkeypatch.setattr(record_work, "DEADLINE", 0.5)
        with pytest.raises(RecordLate):
            await work.verdict(_parts())
    finally:
        await work.close()  # (kills the stopped process too)


async def test_a_late_record_is_a_clear_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    async def late(parts: dict[str, Any]) -> Any:
        raise RecordLate("stuck")

    records = Records.__new__(Records)  # (only the part that turns lateness into an answer)
    game: Any = type("G", (), {"id": 7})()
    with pytest.raises(UserError) as refused:
        await records._built(game, late, _parts())
    assert refused.value.key == "record.late" and refused.value.params == {"game": 7}
