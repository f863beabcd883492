"""`/uno verify` answers in the reader's language, every line of it (the engine's own summary,
in English, was its second line)."""

from __future__ import annotations

import pytest

from bot.engine import RuleSet
from bot.engine.record import build_record
from bot.engine.verify import Verdict, verify
from bot.i18n import available_locales, t
from bot.ui.verdict import verdict_text
from testing.fakediscord.markdown import plain
from tests.engine.matches import recorded_match


@pytest.fixture(scope="module")
def checked() -> Verdict:
    verdict = verify(build_record(**recorded_match(2, RuleSet(target=300))))
    assert verdict.ok and verdict.rounds > 0 and verdict.totals
    return verdict


@pytest.mark.parametrize("locale", available_locales())
def test_every_line_of_a_verified_game_is_in_the_reader_s_language(
    checked: Verdict, locale: str
) -> None:
    text = verdict_text(checked, 7, locale)
    first, second = text.split("\n")
    assert first == t("record.verified", locale, game=7, detail="").split("\n")[0]
    assert second.startswith(t("record.checked", locale, rounds=checked.rounds, scores="")[:10])
    for player, total in checked.totals.items():
        assert f"{checked.names[player]} {total}" in plain(second)
    # the engine's own summary, in English, is nowhere
    assert checked.message.startswith("OK:") and "OK:" not in text and "round(s)" not in text


def test_unfinished_rounds_are_counted_and_a_mismatch_keeps_its_reason(checked: Verdict) -> None:
    from dataclasses import replace

    text = verdict_text(replace(checked, unfinished=1), 3, "de")
    assert text.endswith("Nicht beendete Runden (ihr Seed ist noch geheim): 1."), text
    bad = replace(checked, ok=False, message="round 1, action 4 (1 play:R7): illegal")
    assert verdict_text(bad, 3, "de") == t("record.mismatch", "de", game=3, detail=bad.message)
