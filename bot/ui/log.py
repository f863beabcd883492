"""Engine events as short public log lines ("Ana played 🟥 Red 7").

Private details never appear: drawn cards are counted, not named, and a challenge shows the
verdict, not the revealed hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine import events as E
from bot.i18n import t
from bot.ui.cards import card_text, color_name


def describe(event: E.Event, names: Mapping[int, str], locale: object = None) -> str | None:
    def n(user: int) -> str:
        return names.get(user, str(user))

    match event:
        case E.CardPlayed(player=p, card=c, jump_in=jump):
            key = "log.jump_in" if jump else "log.played"
            return t(key, locale, name=n(p), card=card_text(c, locale))
        case E.ColorChosen(player=p, color=c):
            return t("log.color", locale, name=n(p), color=color_name(c, locale))
        case E.CardsDrawn(player=p, cards=cards):
            return t("log.drew", locale, name=n(p), count=len(cards))
        case E.DrawnCardKept(player=p):
            return t("log.kept", locale, name=n(p))
        case E.TurnPassed(player=p):
            return t("log.passed", locale, name=n(p))
        case E.TurnSkipped(player=p):
            return t("log.skipped", locale, name=n(p))
        case E.DirectionChanged():
            return t("log.reversed", locale)
        case E.ChallengeResolved(challenger=c, offender=o, guilty=g):
            key = "log.challenge_won" if g else "log.challenge_lost"
            return t(key, locale, challenger=n(c), offender=n(o))
        case E.HandsSwapped(player=p, target=q):
            return t("log.swapped", locale, name=n(p), target=n(q))
        case E.HandsRotated():
            return t("log.rotated", locale)
        case E.HandsShuffled(player=p):
            return t("log.shuffled", locale, name=n(p))
        case E.PlayAgain(player=p):
            return t("log.play_again", locale, name=n(p))
        case E.UnoCalled(player=p):
            return t("log.uno", locale, name=n(p))
        case E.UnoCaught(catcher=c, target=q, penalty=k):
            return t("log.caught", locale, catcher=n(c), name=n(q), count=k)
        case E.FalseCatch(catcher=c, target=q, penalty=k):
            return t("log.false_catch", locale, catcher=n(c), name=n(q), count=k)
        case E.DeckReshuffled():
            return t("log.reshuffled", locale)
        case E.PlayerLeft(player=p):
            return t("log.left", locale, name=n(p))
        case E.PlayerEliminated(player=p):
            return t("log.eliminated", locale, name=n(p))
        case E.RoundStarted(round_number=r, starter=c):
            return t("log.round_started", locale, round=r, card=card_text(c, locale))
        case E.RoundEnded(outcome=o):
            if o.winner is None:
                return t("log.round_ended_nobody", locale, round=o.round_number)
            return t("log.round_ended", locale, round=o.round_number, name=n(o.winner))
        case E.MatchEnded():
            return t("log.match_ended", locale)
    return None
