"""A game record's check (`/uno verify`) in the reader's words.

The engine's verifier says what it found in English (`Verdict.message`), for its command line
and logs; a member reads the same facts from the catalogue: how many rounds were checked, the
scores they give, and how many rounds are not finished yet (their seed still secret).
"""

from __future__ import annotations

from bot.engine.verify import Verdict
from bot.i18n import t
from bot.ui.names import literal


def verdict_text(verdict: Verdict, game_id: int, locale: object = None) -> str:
    """The answer to `/uno verify` of game `game_id`: checks out (with what was checked), or
    does not (with the verifier's own reason: a technical detail, for whoever looks into it)."""
    if not verdict.ok:
        return t("record.mismatch", locale, game=game_id, detail=verdict.message)
    scores = ", ".join(
        f"{literal(verdict.names.get(player, str(player)))} {total}"
        for player, total in verdict.totals.items()
    )
    detail = t("record.checked", locale, rounds=verdict.rounds, scores=scores)
    if verdict.unfinished:
        detail += " " + t("record.checked_unfinished", locale, count=verdict.unfinished)
    return t("record.verified", locale, game=game_id, detail=detail)
