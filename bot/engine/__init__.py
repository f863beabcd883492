"""THE RULES: a pure-Python UNO engine (standard library only; no discord, database or asyncio).

Players are integer ids. Ask `Game.legal_actions(player)`, then `Game.apply(player, action)`.
"""

from .actions import (
    Accept,
    Action,
    CallUno,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Draw,
    Keep,
    Leave,
    NextRound,
    Pass,
    Play,
    parse_action,
)
from .cards import ALL_CARDS, COLORS, Card, Color, Rank, build_deck, card, parse_cards
from .errors import GameError, GameOver, IllegalAction, NotInGame, NotYourTurn
from .game import Game
from .rules import PRESETS, InvalidRules, RuleSet
from .scoring import Outcome, RoundEnd, RoundOutcome, Termination
from .state import Decision
from .view import PlayerView, SeatView, view_for

__all__ = [
    "ALL_CARDS",
    "COLORS",
    "PRESETS",
    "Accept",
    "Action",
    "CallUno",
    "Card",
    "Catch",
    "Challenge",
    "ChooseColor",
    "ChooseTarget",
    "Color",
    "Decision",
    "Draw",
    "Game",
    "GameError",
    "GameOver",
    "IllegalAction",
    "InvalidRules",
    "Keep",
    "Leave",
    "NextRound",
    "NotInGame",
    "NotYourTurn",
    "Outcome",
    "Pass",
    "Play",
    "PlayerView",
    "Rank",
    "RoundEnd",
    "RoundOutcome",
    "RuleSet",
    "SeatView",
    "Termination",
    "build_deck",
    "card",
    "parse_action",
    "parse_cards",
    "view_for",
]
