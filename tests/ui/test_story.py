"""The log tells each turn in one line, each fact once; a hand tells its player in one line."""

from __future__ import annotations

import random

from bot.engine import Card, Color, Game, RuleSet, build_deck
from bot.engine import actions as A
from bot.engine import events as E
from bot.ui.cards import hand_summary
from bot.ui.story import personal_notice
from bot.ui.table_message import TABLE_LOG_LINES, _log_lines
from bot.ui.turn_log import LOG_TURNS, TurnLog
from testing.fakediscord.markdown import plain

NAMES = {1: "Ann", 2: "Ben", 3: "Cat"}


def _deck(hands: list[str], starter: str) -> list[Card]:
    rest = build_deck("classic108")
    order = []
    for code in [*" ".join(hands).split(), starter]:
        card = Card.of(code)
        rest.remove(card)
        order.append(card)
    return order + rest


def _game(hands: list[str], starter: str, **rules: object) -> tuple[Game, list[E.Event]]:
    return Game.start([1, 2, 3], RuleSet(**rules), seed=1, dealer=3, deck=_deck(hands, starter))


HANDS = ["W4 R1 R2 R3 R4 R5 RD", "B1 B2 B3 B4 B5 B6 B7", "G1 G2 G3 G4 G5 G6 G7"]


def test_a_wild_draw_four_its_colour_the_challenge_and_the_draws_make_one_line() -> None:
    game, dealt = _game(HANDS, "R9")
    log = TurnLog()
    log.record(dealt, NAMES, None)
    for player, action in ((1, A.Play(Card.of("W4"))), (1, A.ChooseColor(Color.BLUE))):
        log.record(game.apply(player, action), NAMES, None)
    challenge = game.apply(2, A.Challenge())  # Ann held red cards: guilty
    log.record(challenge, NAMES, None)
    round_line, turn = map(plain, log.lines())
    assert round_line.startswith("Round 1 dealt")
    assert turn == (
        "Ann played 🌈 Wild Draw Four, chose 🟦 Blue"
        " · Ben challenged Ann: guilty! · Ann drew 4 cards"
    )
    # The challenger alone reads the hand it revealed, in the second person.
    mine = plain(personal_notice(challenge, 2, NAMES))
    assert mine.startswith("You challenged Ann: guilty! They held 🟥 Red 1"), mine
    assert mine.endswith("· Ann drew 4 cards"), mine
    assert "They held" not in personal_notice(challenge, 3, NAMES)


def test_a_draw_two_is_told_once_in_the_players_turn() -> None:
    game, _ = _game(HANDS, "R9")
    log = TurnLog()
    played = game.apply(1, A.Play(Card.of("RD")))
    log.record(played, NAMES, None)
    (line,) = map(plain, log.lines())
    assert line == "Ann played 🟥 Red Draw Two · Ben drew 2 cards, is skipped", line
    # Ben's hand names the cards he drew and speaks to him.
    drawn = next(e for e in played if isinstance(e, E.CardsDrawn)).cards
    assert plain(personal_notice(played, 2, NAMES)) == (
        f"Ann played 🟥 Red Draw Two · You drew 2 cards: {hand_summary(drawn)} · You are skipped"
    )


def test_an_accepted_penalty_joins_the_turn_that_gave_it() -> None:
    hands = [HANDS[0], "B1 B2 B3 B4 B5 B6 BD", HANDS[2]]
    game, _ = _game(hands, "R9", stacking="same")
    log = TurnLog()
    log.record(game.apply(1, A.Play(Card.of("RD"))), NAMES, None)
    log.record(game.apply(2, A.Accept()), NAMES, None)  # Ben could have stacked; he accepts
    (line,) = map(plain, log.lines())
    assert line == "Ann played 🟥 Red Draw Two · Ben drew 2 cards, is skipped", line


def test_a_catch_and_its_penalty_are_one_fact() -> None:
    game, _ = _game(["R1 R2", "B1 B2", "G1 G2"], "R9", hand_size=2)
    log = TurnLog()
    log.record(game.apply(1, A.Play(Card.of("R1"))), NAMES, None)  # no UNO called
    caught = game.apply(2, A.Catch(1))
    log.record(caught, NAMES, None)
    (line,) = map(plain, log.lines())
    assert line == "Ann played 🟥 Red 1 · Ben caught Ann: +2 cards", line
    assert plain(personal_notice(caught, 1, NAMES)) == "Ben caught you: +2 cards"


def test_the_log_keeps_a_full_lap_of_ten_players_one_line_each() -> None:
    players = list(range(1, 11))
    names = {p: f"Player{p:02d} Long" for p in players}
    game, dealt = Game.start(players, RuleSet(), seed=11)
    log = TurnLog()
    log.record(dealt, names, None)
    rng = random.Random(11)
    turns: list[int] = []
    while len(turns) < 30 and game.outcome is None:
        player = game.current_player
        assert player is not None
        action = rng.choice(game.legal_actions(player))
        # A turn: a player's actions until the next player's; answering a penalty is not one.
        if not isinstance(action, A.Accept | A.Challenge) and (not turns or turns[-1] != player):
            turns.append(player)
        log.record(game.apply(player, action), names, None)
    lines = log.lines()
    assert len(lines) == LOG_TURNS
    # The table shows the newest few lines; the round's log (the Log button) keeps them all.
    shown = _log_lines(lines)
    assert 1 <= len(shown) <= TABLE_LOG_LINES and shown == lines[-len(shown) :], shown
    assert log.round_lines()[-LOG_TURNS:] == lines
    # One line per turn: the players of the last lines are the last turns, in order.
    said = [plain(line) for line in lines[-10:]]
    owners = [next(p for p in players if line.startswith(names[p])) for line in said]
    assert owners == turns[-10:], (owners, turns[-10:], lines)
    assert not any(plain(line).count(names[p] + " drew") > 1 for line in lines for p in players)


def test_a_list_of_drawn_cards_ends_its_sentence_in_every_language() -> None:
    """In "You drew 4 cards: ..., 🌈 Wild, are skipped" the end read as a card: a list closes
    its sentence, and one card (no list) keeps the clauses together."""
    from bot.i18n import available_locales, t

    four = (Card.of("R3"), Card.of("B5"), Card.of("G2"), Card.of("W"))
    events = [E.CardsDrawn(2, four, E.DrawReason.PENALTY), E.TurnSkipped(2)]
    for locale in available_locales():
        notice = personal_notice(events, 2, NAMES, locale)
        drawn, skipped = notice.split(t("story.then", locale))
        assert drawn.endswith(hand_summary(list(four), locale)), (locale, notice)
        assert skipped == t("story.you", locale, clauses=t("you.skipped", locale)), locale
    one = [E.CardsDrawn(2, (Card.of("R3"),), E.DrawReason.CHOICE), E.DrawnCardKept(2)]
    assert personal_notice(one, 2, NAMES) == "You drew 🟥 Red 3, kept the drawn card"
