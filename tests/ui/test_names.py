"""Names made literal: every markdown trick in a display name shows as typed, and every public
message that names a player escapes the name exactly once."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import discord
import pytest
from discord.utils import escape_markdown, escape_mentions

from bot.engine import Game, RuleSet
from bot.engine import events as E
from bot.engine.errors import NotYourTurn
from bot.engine.scoring import RoundEnd, RoundOutcome
from bot.store import LeaderboardPage, PlayerStats
from bot.ui.art import describe_table
from bot.ui.errors import game_error_text
from bot.ui.names import literal
from bot.ui.pictures import table_state
from bot.ui.stats import render_leaderboard, render_stats
from bot.ui.story import sentence, tell
from bot.ui.table_message import render_lobby, render_round_result, render_table
from bot.ui.turn_log import TurnLog
from testing.fakediscord.markdown import markup, shown, unescaped

#: Each is read as markup when shown raw.
HOSTILE = [
    "[Nitro](https://evil.example/x)",
    "@everyone",
    "@here",
    "<@123>",
    "<@!123>",
    "<#1>",
    "<@&1>",
    "</cmd:1>",
    "<t:1:R>",
    "<:e:1>",
    "`x`",
    "**x**",
    "*x*",
    "__x__",
    "_x_",
    "~~x~~",
    "||x||",
    "> quote",
    ">>> quote",
    "# heading",
    "### heading",
    "-# subtext",
    "- item",
    "* item",
    "+ item",
    "1. item",
    "  > indented quote",
    "https://evil.example/x",
    ":skull:",
    "[__x__](https://evil.example/x)",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_shows_exactly_and_as_text_only(name: str) -> None:
    assert markup(name), "the case is markup when raw"
    escaped = literal(name)
    assert markup(escaped) == []
    assert shown(escaped) == name


@pytest.mark.parametrize("name", ["Ann", "Jean-Luc", "O'Brien", "Dr. Who", "🤖 Bot Ann (easy)"])
def test_plain_names_stay_as_they_are(name: str) -> None:
    assert literal(name) == f"\u2068{name}\u2069"  # (only isolated: see below)


def test_a_trailing_backslash_escapes_nothing_after_the_name() -> None:
    name = "evil\\"
    assert shown(literal(name)) == name
    # The template's closing bold stays bold: the name's backslash is itself escaped.
    assert unescaped(f"**{literal(name)}**").endswith("**")
    assert markup(f"**{literal(name)}**") != []


def test_line_breaks_cannot_start_a_block() -> None:
    assert literal("a\n# b") == "\u2068a # b\u2069"
    assert markup(literal("a\n> b\u2028- c")) == []


def test_discord_py_escapes_leave_the_gaps_this_fills() -> None:
    """Why names.py does not use discord.utils: these stay live (or change the name) there."""
    assert markup(escape_markdown("<@123>")) and markup(escape_markdown("@everyone"))
    assert markup(escape_markdown("[__x__](https://evil.example/x)"))  # underline, bare link
    assert markup(escape_markdown("1. item")) and markup(escape_markdown("<t:1:R>"))
    assert shown(escape_mentions("@everyone")) != "@everyone"  # a zero-width space added


# ----------------------------------------------------------------------------- call sites

PLAYERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, -1]
#: Ten names that are markup when raw, and ten plain ones for the same seats.
BAD = dict(
    zip(
        PLAYERS,
        [
            "[Nitro](https://evil.example/x)",
            "@everyone",
            "<@123>",
            "**x**",
            "`x`",
            "# big",
            "-# small ||s||",
            "1. <t:1:R> </cmd:1>",
            "> q ~~y~~ \\",
            "🤖 Bot __x__ (easy)",
        ],
        strict=True,
    )
)
GOOD = {p: f"Zed{i}q" for i, p in enumerate(PLAYERS)}


def _texts(embed: discord.Embed) -> list[str]:
    """The markdown parts of an embed (footers and authors are plain text)."""
    parts = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        parts += [f.name or "", f.value or ""]
    return parts


def _same_but_names(bad: list[str], good: list[str]) -> None:
    """Rendered with BAD names, each text has the markup of the GOOD render and shows the
    BAD names exactly where the GOOD one shows its names."""
    assert len(bad) == len(good)
    for b, g in zip(bad, good, strict=True):
        assert [kind for kind, _ in markup(b)] == [kind for kind, _ in markup(g)], b
        expected = shown(g)
        for p in PLAYERS:
            expected = expected.replace(GOOD[p], BAD[p])
        assert shown(b) == expected


def _played(seed: int = 3) -> tuple[Game, list[E.Event]]:
    rng = random.Random(seed)
    game = Game.new(PLAYERS, RuleSet(scoring="none"), seed=seed)
    events: list[E.Event] = []
    while game.outcome is None:
        p = game.current_player
        assert p is not None
        events += game.apply(p, rng.choice(game.legal_actions(p)))
    return game, events


def test_lobby_table_results_and_log_escape_each_name_once() -> None:
    rules = RuleSet()
    lobby = [render_lobby(9, 1, list(n.items()), rules).embed for n in (BAD, GOOD)]
    _same_but_names(_texts(lobby[0]), _texts(lobby[1]))

    game = Game.new(PLAYERS, rules, seed=4)
    deadline = datetime(2030, 1, 1, tzinfo=UTC)
    log = ["a line"]
    while game.current_player is None or game.current_player > 0:  # a computer's turn: in bold
        p = game.current_player
        assert p is not None
        game.apply(p, random.Random(p).choice(game.legal_actions(p)))
    for pictured in (False, True):
        tables = [
            _texts(
                render_table(
                    game, 9, n, log=log, deadline=deadline, last_chance=2, pictured=pictured
                ).embed
            )
            for n in (BAD, GOOD)
        ]
        _same_but_names(tables[0], tables[1])

    game, events = _played()
    assert game.round_outcome is not None
    results = [render_round_result(game.round_outcome, n, match=game.outcome) for n in (BAD, GOOD)]
    _same_but_names(_texts(results[0]), _texts(results[1]))
    logs = [TurnLog(), TurnLog()]
    for turn_log, n in zip(logs, (BAD, GOOD), strict=True):
        turn_log.record(events, n, None)
    _same_but_names(logs[0].lines(), logs[1].lines())


def test_clauses_about_another_player_escape_both_names() -> None:
    events = [
        E.UnoCaught(1, 2, 2),
        E.ChallengeResolved(3, 4, True, ()),
        E.HandsSwapped(5, 6),
        E.FalseCatch(7, 8, 2),
    ]
    lines = [sentence(tell(events, n), n) for n in (BAD, GOOD)]
    _same_but_names(lines[:1], lines[1:])


def test_leaderboard_stats_and_errors_escape_names() -> None:
    def board(names: dict[int, str]) -> discord.Embed:
        rows = tuple(
            PlayerStats(p, 2, names[p], points=10, games_played=1, rank=i + 1)
            for i, p in enumerate(PLAYERS)
        )
        return render_leaderboard(LeaderboardPage("points", 1, 1, len(rows), rows))

    _same_but_names(_texts(board(BAD)), _texts(board(GOOD)))
    stats = [render_stats(None, n[1]) for n in (BAD, GOOD)]
    _same_but_names(_texts(stats[0]), _texts(stats[1]))
    errors = [game_error_text(NotYourTurn(player=2), None, n) for n in (BAD, GOOD)]
    _same_but_names(errors[:1], errors[1:])


def test_the_table_pictures_alt_text_keeps_names_exact() -> None:
    """Alt text is read out and shown as typed, never as markdown: no escapes in it."""
    game = Game.new(PLAYERS, RuleSet(), seed=4)
    state = table_state(game, BAD)
    assert state is not None
    alt = describe_table(state)
    for name in BAD.values():
        assert name in alt


#: A name that ends in an unterminated RIGHT-TO-LEFT OVERRIDE, and one that also tries to close
#: the isolate it is put in (POP DIRECTIONAL ISOLATE) before opening its override.
REVERSING = ["Eve\u202e", "Eve\u2069\u202e", "\u2067Eve\u202e"]


@pytest.mark.parametrize("name", REVERSING)
def test_a_name_is_bidi_isolated_so_its_override_ends_with_it(name: str) -> None:
    made = literal(name)
    assert made.startswith("\u2068") and made.endswith("\u2069")
    inside = made[1:-1]
    # No isolate mark inside: the name's own PDI cannot end its isolate early, so the override
    # it opens is closed by the isolate's end (UAX #9, rule X6a).
    assert not any(mark in inside for mark in "\u2066\u2067\u2068\u2069")
    assert "\u202e" in inside and shown(made) == name.replace("\u2069", "").replace("\u2067", "")


@pytest.mark.parametrize("name", REVERSING)
def test_the_leaderboard_and_the_results_keep_the_rest_of_the_line_outside_the_name(
    name: str,
) -> None:
    page = LeaderboardPage(
        "points", 1, 10, 1, (PlayerStats(1, 5, name, points=42, games_played=1, rank=1),)
    )
    row = (render_leaderboard(page).description or "").splitlines()[0]
    assert _outside_names(row).count("\u202e") == 0 and "42" in _outside_names(row), row
    outcome = RoundOutcome(  # (any round's result will do)
        round_number=1,
        winner=1,
        reason=RoundEnd.WENT_OUT,
        hand_points={1: 0, 2: 14},
        cards_left={1: 0, 2: 3},
        points={1: 14, 2: 0},
        totals={1: 14, 2: 0},
    )
    text = render_round_result(outcome, {1: name, 2: "Bo"}).description or ""
    for line in text.splitlines():
        assert "\u202e" not in _outside_names(line), line
        assert line.count("\u2068") == line.count("\u2069"), line


def _outside_names(line: str) -> str:
    """`line` without its isolated names (what their marks cannot reach)."""
    return re.sub("\u2068[^\u2069]*\u2069", "", line)
