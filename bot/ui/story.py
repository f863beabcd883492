"""What happened, in words: engine events told as clauses grouped by who did them.

One action's events become groups like "Ann played 🌈 Wild Draw Four, chose 🟦 Blue" and
"Bob challenged: not guilty, drew 6 cards": each fact once (a catch's penalty draw, a
Reverse's direction change and an accepted penalty are not told twice), consecutive clauses of
the same person under one subject. The public table tells everyone's clauses in the third
person with drawn cards counted; a player's own hand tells their clauses in the second person
("You drew 🟦 Blue 3") with their drawn cards and a won challenge's revealed hand named.
Cards turned face up (a Colour Roulette's, a Discard All's) are named for everyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.engine import events as E
from bot.engine.events import DrawReason
from bot.engine.faces import DRAW_VALUE, RANK_INDEX
from bot.i18n import t
from bot.ui.cards import card_text, color_text, hand_summary
from bot.ui.names import literal_name

#: Events that are consequences of one already told (or that nobody needs to read).
_SILENT = (E.DirectionChanged, E.PenaltyAccepted, E.StarterReturned, E.DebtCancelled)
#: Draw reasons whose draw is already told by the event before it (the catch, the wrong catch).
_TOLD_BEFORE = {DrawReason.UNO: E.UnoCaught, DrawReason.FALSE_CATCH: E.FalseCatch}


@dataclass(slots=True)
class Group:
    """Clauses of one subject (None: a fact without one, like a reshuffle)."""

    subject: int | None
    clauses: list[str] = field(default_factory=list)
    closed: bool = False  # it ends with a list of cards: what follows starts a group of its own


def _draw_value(event: E.CardPlayed) -> int:
    """What the card played makes the next player draw (0: not a draw card)."""
    return DRAW_VALUE[RANK_INDEX[event.card.rank]]


def stack_after(events: Iterable[E.Event], stack: int = 0) -> int:
    """The running stack of draw cards after `events` (`stack`: before them): each draw card
    played adds its value, and taking it (or a challenge, or a round's end) ends it."""
    for event in events:
        match event:
            case E.CardPlayed():
                stack += _draw_value(event)
            case E.PenaltyAccepted() | E.ChallengeResolved() | E.RoundStarted() | E.RoundEnded():
                stack = 0
            case E.CardsDrawn(reason=DrawReason.PENALTY | DrawReason.CHALLENGE):
                stack = 0
    return stack


def turn_starter(event: E.Event) -> int | None:
    """The player whose new turn `event` begins, if it begins one (a play, a chosen draw)."""
    match event:
        case E.CardPlayed(player=p):
            return p
        case E.CardsDrawn(player=p, reason=DrawReason.CHOICE):
            return p
        case E.TurnPassed(player=p) | E.DrawnCardKept(player=p):
            return p
    return None


def tell(
    events: Iterable[E.Event],
    names: Mapping[int, str],
    locale: object = None,
    *,
    viewer: int | None = None,
    stack: int = 0,
) -> list[Group]:
    """The events as groups of clauses; `viewer`'s own in the second person, with what only
    they may see (their drawn cards, the hand their won challenge revealed). `stack`: the
    running stack of draw cards before them (`stack_after`): a draw card added to it says
    what it has grown to ("played 🌈 Wild Draw Ten (📚 +20)")."""
    groups: list[Group] = []
    previous: E.Event | None = None

    def say(
        subject: int | None,
        key: str,
        *,
        about: int | None = None,
        listed: int = 0,
        **params: object,
    ) -> None:
        """A clause of `subject`'s group; `about`: the other player it names (the viewer's
        own clause keys end in `_you` instead: "Bob caught you"); `listed`: how many cards the
        clause lists at its end."""
        person = "you" if subject is not None and subject == viewer else "turn"
        if about is not None:
            if about == viewer:
                key += "_you"
            else:
                params["name"] = literal_name(names, about)
        text = t(f"{person}.{key}", locale, **params)
        last = groups[-1] if groups else None
        if last is not None and last.subject == subject and subject is not None and not last.closed:
            last.clauses.append(text)
        else:
            groups.append(Group(subject, [text]))
        # "You drew 4 cards: ..., 🌈 Wild, are skipped" would read as one more card: a clause
        # ending in a list of cards closes its sentence ("... 🌈 Wild · You are skipped").
        groups[-1].closed = listed > 1

    for event in events:
        match event:
            case E.CardPlayed(player=p, card=c, jump_in=jump):
                added = _draw_value(event)
                if added and stack and not jump:  # onto a running stack
                    say(p, "played_stack", card=card_text(c, locale), count=stack + added)
                else:
                    say(p, "jumped_in" if jump else "played", card=card_text(c, locale))
            case E.ColorChosen(player=p, color=c):
                say(p, "chose", color=color_text(c, locale))
            case E.CardsDrawn(player=p, cards=cards, reason=reason):
                told = _TOLD_BEFORE.get(reason)
                if told is not None and isinstance(previous, told):
                    pass
                elif _is_roulette(event, previous):  # turned face up: everyone sees them
                    say(
                        p,
                        "roulette",
                        listed=len(set(cards)),
                        count=len(cards),
                        cards=hand_summary(cards, locale),
                    )
                elif p == viewer and cards:
                    say(
                        p,
                        "drew_cards",
                        listed=len(set(cards)),
                        count=len(cards),
                        cards=hand_summary(cards, locale),
                    )
                else:
                    say(p, "drew", count=len(cards))
            case E.DrawnCardKept(player=p):
                say(p, "kept")
            case E.TurnPassed(player=p):
                say(p, "passed")
            case E.TurnSkipped(player=p):
                say(p, "skipped")
            case E.ChallengeResolved(challenger=c, offender=o, guilty=g, revealed_hand=hand):
                key = "challenge_won" if g else "challenge_lost"
                if c == viewer:  # only the challenger sees the hand it revealed
                    say(c, key, about=o, listed=len(set(hand)), cards=hand_summary(hand, locale))
                else:
                    say(c, key, about=o)
            case E.HandsSwapped(player=p, target=q):
                say(p, "swapped", about=q)
            case E.HandsRotated():
                say(None, "rotated")
            case E.HandsShuffled(player=p):
                say(p, "shuffled")
            case E.PlayAgain(player=p):
                say(p, "plays_again")
            case E.UnoCalled(player=p):
                say(p, "uno")
            case E.UnoCaught(catcher=c, target=q, penalty=k):
                say(c, "caught", about=q, count=k)
            case E.FalseCatch(catcher=c, target=q, penalty=k):
                say(c, "false_catch", about=q, count=k)
            case E.DeckReshuffled():
                say(None, "reshuffled")
            case E.PlayerLeft(player=p):
                say(p, "left")
            case E.PlayerEliminated(player=p):
                say(p, "eliminated")
            case E.CardsDiscarded(player=p, cards=cards):  # face up onto the pile: public
                say(
                    p,
                    "discarded",
                    listed=len(set(cards)),
                    count=len(cards),
                    cards=hand_summary(cards, locale),
                )
            case E.PlayerKnockedOut(player=p):
                say(p, "knocked_out")
            case E.StarterIgnored(card=c):
                say(None, "starter_ignored", card=card_text(c, locale))
            case E.SidesFlipped(dark=dark, top=c):  # UNO Flip: everything turned over
                say(None, "flipped_dark" if dark else "flipped_light", card=card_text(c, locale))
            case _ if isinstance(event, _SILENT):
                pass
        previous = event
        stack = stack_after((event,), stack)
    return groups


def _is_roulette(event: E.CardsDrawn, previous: E.Event | None) -> bool:
    """A Colour Roulette's cards: its victim names a colour and then turns cards face up until
    it comes (resolve.py), so the draw follows their own colour choice; a Customizable card's
    draw follows its player's choice, who is not the one drawing."""
    return (
        event.reason is DrawReason.EFFECT
        and isinstance(previous, E.ColorChosen)
        and previous.player == event.player
    )


def sentence(
    groups: Iterable[Group],
    names: Mapping[int, str],
    locale: object = None,
    *,
    viewer: int | None = None,
) -> str:
    """Groups as one line: "Ann played 🟥 Skip · Bob is skipped"."""
    parts = []
    for group in groups:
        clauses = t("story.and", locale).join(group.clauses)
        if group.subject is None:
            parts.append(clauses)
        elif group.subject == viewer:
            parts.append(t("story.you", locale, clauses=clauses))
        else:
            name = literal_name(names, group.subject)
            parts.append(t("story.subject", locale, name=name, clauses=clauses))
    return t("story.then", locale).join(parts)


def personal_notice(
    events: Iterable[E.Event], viewer: int, names: Mapping[int, str], locale: object = None
) -> str:
    """One line for `viewer`'s hand: what the events did, theirs in the second person."""
    return sentence(tell(events, names, locale, viewer=viewer), names, locale, viewer=viewer)
