"""Short, visible breaks: a round's end in each hand (who won, the totals, the countdown, Next
round / Wait / Leave), the table's Wait, and results short enough for a phone (standings by
total, the seed in the game's record rather than in every post). Figures printed with `-s`."""

from __future__ import annotations

import io
import random
from datetime import UTC, datetime

import pytest
from PIL import Image

from bot.engine import Decision, Game, RuleSet, view_for
from bot.engine.scoring import Outcome, RoundEnd, RoundOutcome, Termination
from bot.ui.hand_message import render_hand
from bot.ui.ids import matches_exactly_one
from bot.ui.outgoing import Outgoing
from bot.ui.table_message import render_round_result, render_table
from testing.fakediscord.markdown import plain
from tests.ui.phone import phone_height

NAMES = {1: "Alexandra Petrova", 2: "Bjørn Ødegård", 3: "Jürgen Weiß", 4: "Dana"}
DEADLINE = datetime(2030, 1, 1, 12, 0, 15, tzinfo=UTC)
#: The most a round's results may take on a 380-px phone (issue 32: they took 478 px).
RESULTS_MAX = 300


def _round_over(players: int = 4, seed: int = 3) -> Game:
    """A match of official rules (to 500) whose first round just ended: the break."""
    rng = random.Random(seed)
    game = Game.new(list(range(1, players + 1)), RuleSet(), seed=seed)
    while not game.round_over:
        player = game.current_player
        assert player is not None
        game.apply(player, rng.choice(game.legal_actions(player)))
    assert game.outcome is None and game.round_outcome is not None
    return game


def _buttons(kwargs: dict) -> list[tuple[str, str | None, bool]]:
    """(action, label, disabled) of each hand button."""
    return [
        (c["custom_id"].split(":", 3)[3], c.get("label"), bool(c.get("disabled")))
        for row in kwargs.view.rows
        for c in row
    ]


@pytest.mark.parametrize("pictures", [False, True])
def test_the_hand_at_a_round_s_end_says_who_won_the_totals_and_when_the_next_starts(
    pictures: bool,
) -> None:
    game = _round_over()
    outcome = game.round_outcome
    assert outcome is not None and outcome.winner is not None
    loser = next(p for p in game.players if p != outcome.winner)
    kwargs = render_hand(game, 77, loser, NAMES, pictures=pictures, deadline=DEADLINE)
    text = plain(kwargs.embed.description).replace("**", "")
    assert f"🏁 {NAMES[outcome.winner]} won round 1!" in text, text
    assert "The next round starts <t:1893499215:R>." in text  # the countdown, counted by Discord

    def short(player: int) -> str:
        name = NAMES[player]
        return name if len(name) <= 12 else name[:11] + "…"

    best_first = sorted(outcome.totals, key=lambda p: (-outcome.totals[p], p))
    totals = " · ".join(
        f"{short(p)} {outcome.totals[p]}"
        + (f" (+{outcome.points[p]})" if outcome.points[p] else "")
        for p in best_first
    )
    assert f"Totals: {totals}" in text, text
    buttons = _buttons(kwargs)
    assert [(a, d) for a, _, d in buttons] == [
        ("next", False),
        ("wait", False),
        ("leave", False),
        ("refresh", False),
    ]
    assert [label for _, label, _ in buttons[:3]] == ["Next round", "Wait", "Leave"]
    for row in kwargs.view.rows:
        assert all(matches_exactly_one(c["custom_id"]) for c in row)
    # The winner is told they won; a Wait already asked for is spent (greyed out).
    mine = render_hand(game, 77, outcome.winner, NAMES, deadline=DEADLINE, waited=True)
    assert "You won the round!" in mine.embed.description
    assert ("wait", "Wait", True) in _buttons(mine)
    picture = kwargs.picture
    size = Image.open(io.BytesIO(picture.render())).size if picture is not None else None
    height = phone_height(kwargs, size)
    results = phone_height(Outgoing.of(render_round_result(outcome, NAMES)))
    print(
        f"\nhand at a round's end, 4 players (pictures {pictures}): {height} px;"
        f" with the round's results posted below it: {height + results} px"
    )
    # The hand and the results below it fit the ~650 px between a phone's top bar and its
    # message box: the round's end is seen without a scroll.
    assert height + results <= 650


def test_a_wait_or_a_leave_is_offered_only_between_rounds() -> None:
    game = Game.new([1, 2, 3], RuleSet(), seed=4)
    for player in game.players:
        actions = [a for a, _, _ in _buttons(render_hand(game, 77, player, NAMES))]
        assert "wait" not in actions and "leave" not in actions and "next" not in actions


def test_the_table_between_rounds_offers_next_round_and_wait() -> None:
    game = _round_over()
    assert view_for(game, None).decision is Decision.NEXT_ROUND
    kwargs = render_table(game, 77, NAMES, deadline=DEADLINE)
    ids = [item.item.custom_id for item in kwargs.view.children]
    version = game.version
    assert f"uno:77:{version}:next" in ids and f"uno:77:{version}:wait" in ids
    assert "<t:1893499215:R>" in kwargs.embed.description


def test_results_are_standings_by_total_without_the_seed_and_fit_a_phone() -> None:
    game = _round_over()
    outcome = game.round_outcome
    assert outcome is not None
    embed = render_round_result(outcome, NAMES)
    text = plain(embed.description)
    assert "Seed" not in text and "SHA-256" not in text and "starts by itself" not in text
    rows = [line for line in text.split("\n") if "total" in line]
    shown = [next(p for p, n in NAMES.items() if line.startswith(f"**{n}**")) for line in rows]
    assert shown == sorted(outcome.totals, key=lambda p: (-outcome.totals[p], p))
    height = phone_height(Outgoing.of(embed))
    print(f"\nround results, 4 players: {height} px on a 380-px phone")
    assert height <= RESULTS_MAX


def test_a_match_s_final_standings_are_by_total_and_fit_a_phone() -> None:
    outcome = RoundOutcome(
        round_number=4,
        winner=4,
        reason=RoundEnd.WENT_OUT,
        hand_points={1: 12, 2: 40, 3: 7, 4: 0},
        cards_left={1: 2, 2: 5, 3: 1, 4: 0},
        points={1: 0, 2: 0, 3: 0, 4: 59},
        totals={1: 180, 2: 95, 3: 150, 4: 203},  # seat order is not the standings
    )
    match = Outcome(Termination.TARGET_REACHED, (4,), dict(outcome.totals))
    embed = render_round_result(outcome, NAMES, match=match, ratings={4: (1500, 1524)})
    text = plain(embed.description)
    order = [NAMES[4], NAMES[1], NAMES[3], NAMES[2]]
    positions = [text.index(f"**{n}**:") for n in order]
    assert positions == sorted(positions), text
    height = phone_height(Outgoing.of(embed))
    print(f"\nfinal results, 4 players: {height} px on a 380-px phone")
    assert height <= RESULTS_MAX
