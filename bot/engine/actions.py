"""Moves are values: small hashable actions with a text form that round-trips.

The text form is what a button's custom_id, a log line and a test all spell:
`play:R7`, `play:W4:uno`, `draw`, `keep`, `pass`, `color:G`, `target:1234`, `accept`,
`challenge`, `uno`, `catch:1234`, `next`, `leave`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .cards import Card, Color


class Action:
    """Base class of every action; `code` gives the text form, `parse_action` reads it back."""

    __slots__ = ()
    verb: ClassVar[str]

    @property
    def code(self) -> str:
        return self.verb


@dataclass(frozen=True, slots=True)
class Play(Action):
    card: Card
    uno: bool = False
    verb: ClassVar[str] = "play"

    @property
    def code(self) -> str:
        return f"play:{self.card.code}" + (":uno" if self.uno else "")


@dataclass(frozen=True, slots=True)
class Draw(Action):
    verb: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """Keep the card just drawn and end the turn."""

    verb: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End the turn when nothing can be played and nothing is left to draw."""

    verb: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class ChooseColor(Action):
    color: Color
    verb: ClassVar[str] = "color"

    @property
    def code(self) -> str:
        return f"color:{self.color.value}"


@dataclass(frozen=True, slots=True)
class ChooseTarget(Action):
    """The opponent to swap hands with (Swap Hands, a 7 under seven_o, a swap Customizable)."""

    player: int
    verb: ClassVar[str] = "target"

    @property
    def code(self) -> str:
        return f"target:{self.player}"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Take the pending penalty (draw cards, lose the turn)."""

    verb: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """Challenge the Wild Draw Four just played on you."""

    verb: ClassVar[str] = "challenge"


@dataclass(frozen=True, slots=True)
class CallUno(Action):
    verb: ClassVar[str] = "uno"


@dataclass(frozen=True, slots=True)
class Catch(Action):
    """Catch a player who went down to one card without calling UNO."""

    target: int
    verb: ClassVar[str] = "catch"

    @property
    def code(self) -> str:
        return f"catch:{self.target}"


@dataclass(frozen=True, slots=True)
class NextRound(Action):
    verb: ClassVar[str] = "next"


@dataclass(frozen=True, slots=True)
class Leave(Action):
    """Leave the match; the player's cards go under the draw pile."""

    verb: ClassVar[str] = "leave"


DRAW = Draw()
KEEP = Keep()
PASS = Pass()
ACCEPT = Accept()
CHALLENGE = Challenge()
CALL_UNO = CallUno()
NEXT_ROUND = NextRound()
LEAVE = Leave()
_SIMPLE: dict[str, Action] = {
    a.verb: a for a in (DRAW, KEEP, PASS, ACCEPT, CHALLENGE, CALL_UNO, NEXT_ROUND, LEAVE)
}


def parse_action(text: str) -> Action:
    """The action spelled by `text` (its `code`); raises ValueError for anything else."""
    verb, _, arg = text.strip().partition(":")
    if verb in _SIMPLE and not arg:
        return _SIMPLE[verb]
    try:
        if verb == "play":
            code, _, flag = arg.partition(":")
            if flag not in ("", "uno"):
                raise ValueError(flag)
            return Play(Card.of(code), uno=flag == "uno")
        if verb == "color":
            return ChooseColor(Color(arg.upper()))
        if verb == "target":
            return ChooseTarget(int(arg))
        if verb == "catch":
            return Catch(int(arg))
    except ValueError:
        pass
    raise ValueError(f"not an action: {text!r}")
