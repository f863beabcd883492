"""benchmarks/engine_bytecodes.py's count is exact: the same rounds give the same bytecodes per
engine function on every run (what lets it see a 1% change where timing on a shared machine
cannot), and they are the engine's own functions, the actions' and not the deal's."""

from __future__ import annotations

from benchmarks.engine_bytecodes import count
from benchmarks.engine_phases import ROOT, load_engine
from bot.engine import Game


def test_the_count_is_the_same_on_every_run_and_names_the_engine_s_functions() -> None:
    engine = load_engine(ROOT, "bot")
    assert engine.game is Game
    first = count(engine, 2, 12)
    second = count(engine, 2, 12)
    assert first == second
    actions, counts = first
    assert actions > 12 * 20
    assert {"perform.make_move", "legality.legal_moves", "resolve.play"} <= set(counts)
    assert not any(name.startswith("game.new") or "deal" in name for name in counts)
