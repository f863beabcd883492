"""The table's log: one line per turn, enough lines for a full lap of a ten-player table.

A turn is everything from a player's play (or chosen draw) until the next player's: a Wild
Draw Four, its colour, the challenge and the draws that follow make one line, and so do a catch
or a wrong catch made meanwhile. A new round and a round's end get lines of their own. Lines
are told in the server's language when they are recorded (see story.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bot.engine import events as E
from bot.i18n import t
from bot.ui.cards import card_text
from bot.ui.names import literal_name
from bot.ui.story import Group, sentence, stack_after, tell, turn_starter

#: Lines kept: a lap of the largest table (10 players) and a round's start and end.
LOG_TURNS = 12
#: The longest line shown (a very long turn, e.g. many draws, is cut at the end).
MAX_LINE = 300
#: Lines of the current round kept for its whole log (the Log button); a round is rarely
#: more than a few hundred turns, and each line is at most MAX_LINE characters.
ROUND_LINES = 2000


@dataclass(slots=True)
class _Line:
    owner: int | None  # whose turn it tells (None: a round's start or end, a notice)
    groups: list[Group] = field(default_factory=list)
    closed: bool = False  # a round's start or end: the next event starts a new line
    text: str = ""


class TurnLog:
    """The newest `turns` lines (the table shows a few), and every line of the current round
    since it was dealt or since the bot loaded the game (the round's log, for the Log button)."""

    def __init__(self, turns: int = LOG_TURNS) -> None:
        self._lines: deque[_Line] = deque(maxlen=turns)
        self._round: deque[_Line] = deque(maxlen=ROUND_LINES)
        self._stack = 0  # the running stack of draw cards, told as it grows (story.py)

    def __len__(self) -> int:
        return len(self._lines)

    def lines(self) -> list[str]:
        return [line.text for line in self._lines]

    def round_lines(self) -> list[str]:
        """The current round's lines, oldest first (the last round's, until the next is dealt)."""
        return [line.text for line in self._round]

    def _add(self, line: _Line) -> None:
        self._lines.append(line)
        self._round.append(line)

    def record(self, events: Iterable[E.Event], names: Mapping[int, str], locale: object) -> None:
        """Add one action's (or one automatic sequence's) events to the lines of their turns."""
        chunk: list[E.Event] = []
        for event in events:
            if isinstance(event, E.RoundStarted):
                self._tell(chunk, names, locale)
                chunk = []
                self._stack = 0
                self._round.clear()
                text = t(
                    "log.round_started",
                    locale,
                    round=event.round_number,
                    card=card_text(event.starter, locale),
                )
                self._standalone(text)
            elif isinstance(event, E.RoundEnded):
                self._tell(chunk, names, locale)
                chunk = []
                self._standalone(_round_end(event, names, locale))
            elif isinstance(event, E.MatchEnded):
                self._tell(chunk, names, locale)
                chunk = []
                self._append_text(t("log.match_ended", locale), names, locale)
            else:
                starter = turn_starter(event)
                if starter is not None and self._starts_turn(starter):
                    self._tell(chunk, names, locale)
                    chunk = []
                    self._add(_Line(starter))
                chunk.append(event)
        self._tell(chunk, names, locale)

    def note(self, text: str) -> None:
        """A line of the bot's own ("the bot restarted")."""
        self._standalone(text)

    def note_for(self, player: int, clause: str, names: Mapping[int, str], locale: object) -> None:
        """A clause of the bot's about `player`'s turn ("ran out of time"): it opens their
        turn's line, so what the bot then does for them joins it."""
        if self._starts_turn(player):
            self._add(_Line(player))
        line = self._lines[-1]
        line.groups.append(Group(player, [clause]))
        line.text = _shorten(sentence(line.groups, names, locale))

    # ------------------------------------------------------------------ internals

    def _starts_turn(self, player: int) -> bool:
        last = self._lines[-1] if self._lines else None
        return last is None or last.closed or last.owner != player

    def _current(self) -> _Line:
        if not self._lines or self._lines[-1].closed:
            self._add(_Line(None))
        return self._lines[-1]

    def _standalone(self, text: str) -> None:
        self._add(_Line(None, [Group(None, [text])], closed=True, text=text))

    def _append_text(self, text: str, names: Mapping[int, str], locale: object) -> None:
        line = self._lines[-1] if self._lines else self._current()
        line.groups.append(Group(None, [text]))
        line.text = _shorten(sentence(line.groups, names, locale))

    def _tell(self, chunk: list[E.Event], names: Mapping[int, str], locale: object) -> None:
        if not chunk:
            return
        groups = tell(chunk, names, locale, stack=self._stack)
        self._stack = stack_after(chunk, self._stack)
        if not groups:
            return
        line = self._current()
        for group in groups:
            last = line.groups[-1] if line.groups else None
            if last is not None and last.subject is not None and last.subject == group.subject:
                last.clauses.extend(group.clauses)
            else:
                line.groups.append(group)
        line.text = _shorten(sentence(line.groups, names, locale))


def _round_end(event: E.RoundEnded, names: Mapping[int, str], locale: object) -> str:
    outcome = event.outcome
    if outcome.winner is None:
        return t("log.round_ended_nobody", locale, round=outcome.round_number)
    winner = literal_name(names, outcome.winner)
    return t("log.round_ended", locale, round=outcome.round_number, name=winner)


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_LINE else text[: MAX_LINE - 1] + "…"
