"""The table of a running round fits a phone: at most 640 px tall in a 380-px-wide client, by
the estimate of tests/ui/phone.py (its docstring lists the assumptions)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.engine import Game, RuleSet
from bot.ui.art.table_picture import picture_size
from bot.ui.pictures import table_picture
from bot.ui.table_message import render_table
from bot.ui.turn_log import TurnLog
from tests.ui.phone import BODY_CHARS, phone_height

PHONE_MAX = 640
NAMES = (
    "Alexandra Petrova",
    "Bjørn Ødegård",
    "Jürgen Weiß",
    "Dana",
    "Emilia Kowalska",
    "François Gonçalves",
    "Giulia",
    "Hendrik van Dijk",
    "Ingrid Ærø",
    "José María",
)


def _running(players: int, seed: int = 7) -> tuple[Game, dict[int, str], TurnLog]:
    """A round 30 turns in, played at random, with its log told as the bot tells it."""
    ids = list(range(1, players + 1))
    names = dict(zip(ids, NAMES, strict=False))
    game, dealt = Game.start(ids, RuleSet(), seed=seed)
    log = TurnLog()
    log.record(dealt, names, None)
    rng = random.Random(seed)
    for _ in range(30):
        player = game.current_player
        assert player is not None
        log.record(game.apply(player, rng.choice(game.legal_actions(player))), names, None)
        if game.round_outcome is not None:
            break
    return game, names, log


def _table(players: int, *, pictured: bool) -> tuple[dict, tuple[int, int] | None]:
    game, names, log = _running(players)
    # The tallest state: the timer on, the last-chance warning and someone to catch.
    game.at_risk.append(next(p for p in game.players if p != game.current_player))
    kwargs = render_table(
        game,
        12345678901234567,
        names,
        log=log.lines(),
        deadline=datetime(2030, 1, 1, tzinfo=UTC),
        last_chance=2,
        pictured=pictured,
    )
    if not pictured:
        return kwargs, None
    picture = table_picture(game, names, None)
    assert picture is not None
    picture.point(kwargs.embed)
    return kwargs, picture_size(sum(1 for s in game.seats))


@pytest.mark.parametrize("players", [2, 4, 10])
def test_a_running_round_s_table_fits_a_phone(players: int) -> None:
    kwargs, image = _table(players, pictured=True)
    assert image is not None
    height = phone_height(kwargs, image)
    print(f"\n{players} players: table {height} px")
    assert height <= PHONE_MAX, height


def test_the_estimate_counts_what_makes_a_table_tall() -> None:
    kwargs, image = _table(10, pictured=True)
    short = phone_height(kwargs, image)
    kwargs.embed.description += "\n" + "x" * (2 * BODY_CHARS)  # two more lines of text
    assert phone_height(kwargs, image) == short + 2 * 18
    assert phone_height(kwargs, (400, 400)) == phone_height(kwargs, image) + 300 - 207
