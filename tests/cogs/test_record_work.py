"""Records are built and verified in the record process (cogs/uno/records/work.py), never on the
event loop nor in a thread of the bot, within a deadline; `/uno export`, `/uno verify` and the
Game record button tell the asker when a record is late.

The proof is not a timing: the building functions are replaced in this process by ones that
fail the test, and the answers still come, right, from the worker process (a fresh "spawn"
interpreter imports the real ones). A stuck process is a real one, stopped with SIGSTOP."""

from __future__ import annotations

import importlib
import json
import os
import signal
from typing import TYPE_CHECKING, Any

import pytest

from bot.engine import RuleSet
from bot.engine.record import build_record
from bot.engine.verify import verify
from bot.ui.errors import UserError
from tests.engine.matches import recorded_match

if TYPE_CHECKING:
    from cogs.uno.records import work as work_module


def _module() -> work_module:
    """cogs/uno/records/work.py as imported now: other tests reload the cogs, and a function
    sent to the process is pickled by its module's current name."""
    return importlib.import_module("cogs.uno.records.work")


def _parts() -> dict[str, Any]:
    return recorded_match(5, RuleSet(target=200))


def _not_here(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("a record was built in the bot's own process")


@pytest.fixture
def nothing_built_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building or verifying a record in this process (the loop or one of its threads) fails."""
    for name in ("build_record", "verify"):
        monkeypatch.setattr(_module(), name, _not_here)


async def test_a_record_and_its_verdict_come_from_the_record_process(
    nothing_built_here: None,
) -> None:
    work = _module().RecordWork()
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
    work = _module().RecordWork()
    try:
        await work.file(_parts())  # (the process is up)
        (pid,) = work.worker.pids
        os.kill(pid, signal.SIGSTOP)
        monkeypatch.setattr(_module(), "DEADLINE", 0.5)
        with pytest.raises(_module().RecordLate):
            await work.verdict(_parts())
    finally:
        await work.close()  # (kills the stopped process too)


async def test_a_late_record_is_a_clear_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    async def late(parts: dict[str, Any]) -> Any:
        raise _module().RecordLate("stuck")

    records_class = importlib.import_module("cogs.uno.records.exports").Records
    records = records_class.__new__(
        records_class
    )  # (only the part that turns lateness into an answer)
    game: Any = type("G", (), {"id": 7})()
    with pytest.raises(UserError) as refused:
        await records._built(game, late, _parts())
    assert refused.value.key == "record.late" and refused.value.params == {"game": 7}
