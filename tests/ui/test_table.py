"""Public messages: the lobby, the table, results, rules and leaderboards stay within limits."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.engine import PRESETS, Game, RuleSet
from bot.engine import events as E
from bot.engine.scoring import RoundEnd, RoundOutcome
from bot.engine.seeds import shown_commitment
from bot.store import LeaderboardPage, PlayerStats
from bot.ui.help import HELP_TOPICS, render_help
from bot.ui.ids import MAX_CUSTOM_ID, matches_exactly_one
from bot.ui.rules_text import difference_lines, render_rules, rules_in_words, rules_summary
from bot.ui.stats import render_leaderboard, render_stats
from bot.ui.table_message import (
    TABLE_LOG_CHARS,
    render_lobby,
    render_round_log,
    render_round_result,
    render_table,
)
from bot.ui.turn_log import TurnLog
from testing.fakediscord.markdown import plain

BIG = 2**63 - 1


def _check(kwargs: dict) -> None:
    embed = kwargs.embed
    assert len(embed) <= 6000 and len(embed.description or "") <= 4096
    assert all(len(f.value) <= 1024 for f in embed.fields) and len(embed.footer.text or "") <= 2048
    for item in kwargs.view.children:
        assert len(item.item.custom_id) <= MAX_CUSTOM_ID
        assert matches_exactly_one(item.item.custom_id)


def _lock(game: Game) -> str:
    """The deal's commitment as the footer ends with it (bot/engine/seeds.py)."""
    assert game.commitment is not None
    return f" · 🔒 {shown_commitment(game.commitment)}"


def test_table_shows_every_seat_count_and_the_turn() -> None:
    players = list(range(1, 11))
    names = {p: f"Player{p}" * 12 for p in players}
    game = Game.new(players, RuleSet(), seed=1)
    kwargs = render_table(game, BIG, names, log=["x" * 300] * 6)
    _check(kwargs)
    state = kwargs.embed
    text = state.fields[0].value
    for p in players:
        assert f"{game.card_count(p)} cards" in text
    assert f"<@{game.current_player}>" in state.description
    assert "Top card" in state.description  # no picture: the text says everything
    # the newest line only, shortened: it fills the budget; then the rules and the goal
    rules = "Rules: Official · to 500 points" + _lock(game)
    assert state.footer.text == "x" * (TABLE_LOG_CHARS - 1) + "…\n" + rules
    labels = [i.item.label for i in kwargs.view.children]
    assert labels == ["Show my hand", "Draw", "UNO!", "Log"]  # nobody can be caught
    game.at_risk.append(players[0])
    labels = [i.item.label for i in render_table(game, BIG, names).view.children]
    assert labels == ["Show my hand", "Draw", "UNO!", "Catch", "Log"]


def test_a_pictured_table_leaves_the_seats_to_the_picture() -> None:
    game = Game.new([1, 2, 3], RuleSet(), seed=1)
    names = {1: "Ann", 2: "Bo", 3: "Cy"}
    kwargs = render_table(game, 1, names, log=["a", "b", "c", "d"], pictured=True)
    state = kwargs.embed
    assert not state.fields and "Top card" not in state.description
    assert state.description.startswith(f"<@{game.current_player}>")  # the first mention
    # the newest three lines, plain (a footer reads no markdown: names without escapes)
    assert state.footer.text == "b\nc\nd\nRules: Official · to 500 points" + _lock(game)
    odd = render_table(game, 1, names, log=[r"\_Zed\_ played Red 7"], pictured=True).embed
    assert odd.footer.text.startswith("_Zed_ played Red 7\n")
    risky = next(p for p in game.players if p != game.current_player)
    game.hands[risky] = game.hands[risky][:1]  # down to one card without calling UNO
    game.at_risk.append(risky)
    table = render_table(game, 1, names, pictured=True)
    assert "no UNO called" not in table.embed.description  # the picture's badge says it
    assert "Catch" in [i.item.label for i in table.view.children]
    assert "no UNO called" in render_table(game, 1, names).embed.fields[0].value


def test_the_table_shows_the_goal_and_a_practice_game() -> None:
    game = Game.new([1, -1, -2], RuleSet(scoring="none"), seed=1)
    kwargs = render_table(game, 1, {1: "Ann", -1: "Bot", -2: "Bot 2"}, log=["x"])
    assert kwargs.embed.title == "🃏 UNO — round 1 · practice"
    # (official play for one round: named for its play, its length said beside it)
    assert kwargs.embed.footer.text == "x\nRules: Official · one round" + _lock(game)
    two = Game.new([1, 2, -1], RuleSet(target=200), seed=1)
    kwargs = render_table(two, 1, {1: "Ann", 2: "Bo", -1: "Bot"})
    assert kwargs.embed.title == "🃏 UNO — round 1"
    assert kwargs.embed.footer.text == "Rules: Official · to 200 points" + _lock(two)


def test_the_table_counts_the_turn_down_and_warns_before_a_removal() -> None:
    game = Game.new([1, 2], RuleSet(), seed=1)
    names = {1: "Ann", 2: "Bo"}
    deadline = datetime(2030, 1, 1, tzinfo=UTC)

    def description(**kwargs: object) -> str:
        return render_table(game, 1, names, **kwargs).embed.description

    plain = description()
    assert "<t:" not in plain and "Time runs out" not in plain
    timed = description(deadline=deadline)
    assert f"<t:{int(deadline.timestamp())}:R>" in timed and "leave the game" not in timed
    warned = description(deadline=deadline, last_chance=2, pictured=True)
    assert "let 2 turns in a row run out" in warned and "leave the game" in warned


def test_an_ended_game_s_table_says_so_and_mentions_no_one() -> None:
    game = Game.new([1, 2], RuleSet(), seed=1)
    names = {1: "Ann", 2: "Bo"}
    deadline = datetime(2030, 1, 1, tzinfo=UTC)
    kwargs = render_table(
        game, 1, names, log=["Ann played Red 7"], closed="Ended.", deadline=deadline, pictured=True
    )
    state = kwargs.embed
    assert state.title == "🃏 UNO — round 1 · ended" and state.description == "Ended."
    text = " ".join([state.description, state.fields[0].value, state.footer.text])
    assert "<@" not in text and "<t:" not in text and "turn" not in text
    assert kwargs.view.children == []


def test_the_round_log_shows_every_line_or_attaches_them() -> None:
    lines = [f"line {k}" for k in range(10)]
    embed, whole = render_round_log(lines, 3)
    assert embed.title == "📜 Round 3: the whole log" and whole is None
    assert embed.description == "\n".join(lines)
    many = [f"{k:04d} " + "x" * 95 for k in range(300)]
    embed, whole = render_round_log(many, 3)
    assert whole == "\n".join(many) and len(embed.description) <= 4096
    assert embed.description.endswith(many[-1]) and "earlier lines are in the attached file" in (
        embed.description
    )
    assert render_round_log([], 1)[0].description == "Nothing has happened in this round yet."


def test_lobby_buttons() -> None:
    kwargs = render_lobby(BIG, 1, [(1, "Ann"), (2, "Ben")], RuleSet())
    _check(kwargs)
    assert [i.item.custom_id for i in kwargs.view.children] == [
        f"uno:{BIG}:lobby:{v}"
        for v in (
            "join", "leave", "addbot", "addexpert", "rules", "start", "cancel", "target", "game"
        )
    ]  # fmt: skip
    closed = render_lobby(BIG, 1, [(1, "Ann")], RuleSet(), closed="gone")
    assert closed.view.children == []


def test_round_results_and_log_lines() -> None:
    rng = random.Random(5)
    game = Game.new([1, 2, 3], RuleSet(scoring="none"), seed=5)
    names = {1: "Ann", 2: "Ben", 3: "Cat"}
    events: list[E.Event] = []
    while game.outcome is None:
        p = game.current_player
        assert p is not None
        events += game.apply(p, rng.choice(game.legal_actions(p)))
    assert game.round_outcome is not None
    embed = render_round_result(game.round_outcome, names, match=game.outcome)
    assert "Match winner" in embed.description
    log = TurnLog()
    log.record(events, names, None)  # every event of a whole round can be told
    assert 0 < len(log) <= 12 and all(log.lines())
    final = render_table(game, BIG, names)  # a finished match: its results' buttons, no moves
    assert [i.item.custom_id for i in final.view.children] == [
        f"uno:{BIG}:{b}" for b in ("rematch", "record", "replay")
    ]
    closed = render_table(game, BIG, names, closed="ended")
    assert closed.view.children == []


def test_rules_leaderboard_stats_help_render() -> None:
    for rules in PRESETS.values():
        embed = render_rules(rules)
        assert len(embed) <= 6000
    page = LeaderboardPage(
        "points", 1, 10, 1, (PlayerStats(1, 2, "Ann", points=10, games_played=1, rank=1),)
    )
    assert "Ann" in render_leaderboard(page).description
    assert "No games" in render_stats(None, "Ann").description
    assert all(len(render_help(None, topic).embed) <= 6000 for topic in HELP_TOPICS)


def test_rules_are_named_and_only_differences_are_listed() -> None:
    official = RuleSet()
    assert rules_summary(official) == "Official"
    assert "nothing changed" in rules_in_words(official)
    assert difference_lines(official) == []
    norway = RuleSet.preset("norway")
    assert rules_summary(norway) == "Norway"
    # A change on top of a preset is named from the nearest preset, not "Custom".
    assert rules_summary(norway.with_options(jump_in=True)) == "Norway + Jump-in"
    assert rules_summary(official.with_options(jump_in=True)) == "Official + Jump-in"
    lines = difference_lines(official.with_options(jump_in=True, hand_size=5))
    assert sorted(lines) == [
        "✳️ Cards dealt: **5** (official: 7)",
        "✳️ Jump-in: **on** (official: off)",
    ]
    assert len(difference_lines(norway)) == len(norway.changes())


def _target_options(kwargs: dict) -> list[tuple[str, str, bool]]:
    select = next(i.item for i in kwargs.view.children if i.item.custom_id.endswith(":target"))
    return [(o.value, o.label, o.default) for o in select.options]


def test_the_lobby_offers_the_match_target_with_the_official_500_chosen() -> None:
    kwargs = render_lobby(BIG, 1, [(1, "Ann"), (2, "Ben")], RuleSet())
    assert _target_options(kwargs) == [
        ("round", "One round", False),
        ("100", "100 points", False),
        ("200", "200 points", False),
        ("500", "500 points", True),
    ]
    assert "Match length: **500 points**" in kwargs.embed.description
    one = render_lobby(BIG, 1, [(1, "Ann")], RuleSet(scoring="none"))
    assert "Match length: **one round**" in one.embed.description
    assert [v for v, _, chosen in _target_options(one) if chosen] == ["round"]
    odd = render_lobby(BIG, 1, [(1, "Ann")], RuleSet(target=300), "de")
    assert _target_options(odd)[-1] == ("300", "300 Punkte", True)
    assert "Partielänge: **300 Punkte**" in odd.embed.description


def test_the_match_target_choices_as_rules() -> None:
    from bot.engine import InvalidRules
    from bot.ui.rule_options import match_target, with_match_target

    one = with_match_target(RuleSet.preset("germany"), "round")
    assert one.scoring == "none" and match_target(one) == "round"
    back = with_match_target(one, "200")
    assert (back.scoring, back.target, match_target(back)) == ("standard", 200, "200")
    penalty = with_match_target(RuleSet.preset("germany"), "100")
    assert (penalty.scoring, penalty.target) == ("penalty", 100)
    with pytest.raises(InvalidRules):
        with_match_target(RuleSet(), "lots")


def test_a_lobby_of_one_person_and_computers_says_practice() -> None:
    solo = render_lobby(BIG, 1, [(1, "Ann"), (-1, "Ada")], RuleSet()).embed.description
    assert "Practice" in solo
    for players in ([(1, "Ann")], [(1, "Ann"), (2, "Ben"), (-1, "Ada")]):
        assert "Practice" not in render_lobby(BIG, 1, players, RuleSet()).embed.description


def test_results_of_a_practice_match_say_practice() -> None:
    from bot.engine.scoring import RoundEnd, RoundOutcome

    def outcome(players: list[int]) -> RoundOutcome:
        zero = dict.fromkeys(players, 0)
        return RoundOutcome(1, players[0], next(iter(RoundEnd)), zero, zero, zero, zero)

    names = {1: "Ann", 2: "Ben", -1: "Bot"}
    solo = render_round_result(outcome([1, -1]), names).description
    assert "Practice game: counted for nobody" in solo
    assert "Practice" not in render_round_result(outcome([1, 2, -1]), names).description
    told = render_round_result(outcome([1, -1]), names, practice=False)
    assert "Practice" not in told.description


def test_stats_keep_practice_games_apart() -> None:
    counted = PlayerStats(1, 2, "Ann", points=10, games_played=1, games_won=1, rank=1)
    text = render_stats(counted, "Ann", practice=3).description
    assert "Games: 1 won of 1" in text and text.endswith("counted for nobody): 3")
    assert "Practice" not in (render_stats(counted, "Ann").description or "")
    only = render_stats(None, "Ann", practice=2).description
    assert "No counted games" in only and "under way" not in only and only.endswith(": 2")
    assert render_stats(None, "Ann").description == "No games on this server yet."


def test_the_results_name_a_player_who_left_as_gone_not_as_scoring_nothing() -> None:
    outcome = RoundOutcome(
        round_number=1,
        winner=1,
        reason=RoundEnd.WENT_OUT,
        hand_points={1: 0, 2: 14, 3: 0},
        cards_left={1: 0, 2: 3, 3: 0},
        points={1: 14, 2: 0, 3: 0},
        totals={1: 14, 2: 0, 3: 20},
    )
    names = {1: "Ann", 2: "Bo", 3: "Cy"}
    text = plain(render_round_result(outcome, names, left={3}).description)
    assert "**Cy**: left the game · total **20**" in text
    assert "Cy**: +0" not in text and "**Bo**: +0 (held 3 cards)" in text
    assert "left the game" not in render_round_result(outcome, names).description


@pytest.mark.parametrize("preset", ["official", "party", "germany"])
def test_a_preset_keeps_its_name_when_only_the_match_length_changes(preset: str) -> None:
    """The lobby's One round, or a points target, leaves the rules' name where the match length
    has a line of its own: Official played for one round is not "Norway"."""
    from bot.ui.rule_options import with_match_target
    from bot.ui.table_message import render_lobby

    rules = RuleSet.preset(preset)
    name = rules_summary(rules)
    for choice in ("round", "100", "200", "500"):
        changed = with_match_target(rules, choice)
        assert rules_summary(changed, length_apart=True) == name, choice
        lobby = str(render_lobby(1, 10, [(10, "Ann")], changed).embed.description)
        assert f"Rules: **{name}**" in lobby, lobby
    # still named for what differs in play
    jump_in = with_match_target(rules.with_options(jump_in=True), "round")
    assert rules_summary(jump_in, length_apart=True).startswith(name)
