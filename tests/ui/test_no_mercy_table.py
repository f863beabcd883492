"""What a Show 'Em No Mercy player reads at the table: the mercy rule's knock-outs (seats, the
hands' strip, the round's result), the running stack, and the game's own events told in words
(a Discard All's cards, a Colour Roulette's turned-over cards, an ignored starter)."""

from __future__ import annotations

from dataclasses import replace

from bot.engine import Card, Color, Game, RuleSet, build_deck
from bot.engine import actions as A
from bot.engine import events as E
from bot.engine.view import view_for
from bot.ui.art.alt import describe_table
from bot.ui.card_emojis import wanted_emojis
from bot.ui.hand_message import hand_embed, hand_layout, seats_strip
from bot.ui.pictures import table_state
from bot.ui.story import personal_notice, sentence, tell
from bot.ui.table_message import render_round_result, render_table
from bot.ui.turn_log import TurnLog

NAMES = {1: "Ann", 2: "Ben", 3: "Cat"}
NO_MERCY = RuleSet.preset("no_mercy")
#: Three cards each and out at eight: a stack of six knocks a hand of three out.
SMALL = replace(NO_MERCY, hand_size=3, mercy_limit=8)


def _deck(hands: list[str], starter: str) -> list[Card]:
    rest = build_deck("no_mercy168")
    order = []
    for code in [*" ".join(hands).split(), starter]:
        card = Card.of(code)
        rest.remove(card)
        order.append(card)
    return order + rest


def _plain(text: str) -> str:
    """Without the marks that isolate names (names.py)."""
    return text.replace("\u2068", "").replace("\u2069", "")


def _table_text(game: Game) -> str:
    embed = render_table(game, 1, NAMES, "en").embeds[0]
    return _plain(
        "\n".join([embed.description or "", *(f"{f.name}\n{f.value}" for f in embed.fields)])
    )


def test_a_running_stack_is_shown_and_a_knock_out_is_told_and_shown_everywhere() -> None:
    # Ann plays a Draw Two, Ben stacks a Draw Four on it, Cat (3 cards) cannot add: she takes
    # the six (though a Wild Draw Six would have added to it) and is out at eight.
    hands = ["RD R1 R2", "RD4 B2 B3", "W6 G2 G3"]
    game, dealt = Game.start([1, 2, 3], SMALL, seed=1, dealer=3, deck=_deck(hands, "R9"))
    log = TurnLog()
    log.record(dealt, NAMES, "en")
    log.record(game.apply(1, A.Play(Card.of("RD"))), NAMES, "en")
    assert _plain(log.lines()[-1]) == "Ann played 🟥 Red Draw Two"  # no stack yet to add to
    assert "📚 Draw stack: **+2**" in _table_text(game)
    log.record(game.apply(2, A.Play(Card.of("RD4"))), NAMES, "en")
    assert "📚 Draw stack: **+6**" in _table_text(game)
    # With the table picture the text leaves out what the picture shows, but not the stack.
    pictured = render_table(game, 1, NAMES, "en", pictured=True).embeds[0].description or ""
    assert "📚 Draw stack: **+6**" in pictured
    events = game.apply(3, A.Accept())
    log.record(events, NAMES, "en")
    assert any(isinstance(e, E.PlayerKnockedOut) and e.player == 3 for e in events)
    assert "📚" not in _table_text(game)  # taken: no stack any more
    # The mercy check stops her draw at eight (docs/playing.md).
    line = _plain(log.lines()[-1])
    assert line.startswith("Ben played 🟥 Red Draw Four (📚 +6)")  # the stack as it grows
    assert line.endswith("Cat drew 5 cards, is skipped, is knocked out (too many cards) 💀")
    mine = _plain(personal_notice(events, 3, NAMES, "en"))
    assert mine.startswith("You drew 5 cards:") and "are knocked out (too many cards) 💀" in mine
    assert "**Cat** — 💀 knocked out" in _table_text(game)
    # Cat's own hand says why she has no cards, not that she was never dealt in.
    cat = hand_embed(game, 3, NAMES, "en", layout=hand_layout(game, 3, NAMES, "en"))
    assert "You're knocked out of this round**: 8 cards" in (cat.description or "")
    state = table_state(game, NAMES)
    assert state is not None and "Cat knocked out" in describe_table(state, "en")
    strip = _plain(seats_strip(view_for(game, 1), NAMES))
    assert "~~Cat~~ 💀" in strip and "Ben" in strip
    # Ann and Ben play on; Ann goes out and wins the round: Cat is knocked out, not "0 cards".
    while game.round_outcome is None:
        player = game.current_player
        assert player is not None
        game.apply(player, game.legal_actions(player)[0])
    result = _plain(render_round_result(game.round_outcome, NAMES, "en").description or "")
    assert "**Cat**: 💀 knocked out · total **0**" in result
    assert "Cat**: +0 (held 0 cards)" not in result
    assert result.index("**Cat**") > result.index("**Ben**")  # the knocked out come last


def _told(events: list[E.Event], viewer: int | None = None) -> str:
    return _plain(sentence(tell(events, NAMES, "en", viewer=viewer), NAMES, "en", viewer=viewer))


def test_discard_all_roulette_and_an_ignored_starter_are_told_with_their_cards() -> None:
    discarded = [
        E.CardPlayed(1, Card.of("YDA")),
        E.CardsDiscarded(1, (Card.of("Y6"), Card.of("YR"))),
    ]
    assert (
        _told(discarded) == "Ann played 🟨 Yellow Discard All, also discarded 2 cards: "
        "🟨 Yellow 6, 🟨 Yellow Reverse"
    )
    roulette = [
        E.ColorChosen(2, Color.BLUE),
        E.CardsDrawn(2, (Card.of("YS"), Card.of("B8")), E.DrawReason.EFFECT),
        E.TurnSkipped(2),
    ]
    # Turned face up, so named for everyone, not only for Ben.
    public = _told(roulette)
    assert "Ben chose 🟦 Blue, turned over 2 cards: 🟨 Yellow Skip, 🟦 Blue 8" in public
    assert "turned over 2 cards" in _told(roulette, viewer=2)
    # A Customizable card's draw (others draw) stays a count for the others.
    custom = [
        E.ColorChosen(1, Color.RED),
        E.CardsDrawn(2, (Card.of("Y1"), Card.of("Y2")), E.DrawReason.EFFECT),
    ]
    assert "Ben drew 2 cards" in _told(custom)
    assert "first: no effect" in _told([E.StarterIgnored(Card.of("RSE"))])


def test_every_language_tells_the_new_events() -> None:
    events: list[E.Event] = [
        E.StarterIgnored(Card.of("GDA")),
        E.CardsDiscarded(1, (Card.of("Y6"),) * 5),
        E.ColorChosen(2, Color.RED),
        E.CardsDrawn(2, (Card.of("B1"),) * 22 + (Card.of("R2"),), E.DrawReason.EFFECT),
        E.PlayerKnockedOut(3, 25),
    ]
    for locale in ("da", "de", "en", "es-ES", "fr", "it", "nl", "no", "pl", "pt-BR", "sv-SE"):
        for viewer in (None, 1, 2, 3):
            text = sentence(
                tell(events, NAMES, locale, viewer=viewer), NAMES, locale, viewer=viewer
            )
            assert "{" not in text and "turn." not in text and "you." not in text, (locale, text)


def test_no_mercy_cards_have_emojis_drawn_from_their_pictures() -> None:
    keys = {art.key for art in wanted_emojis()}
    assert {"RD4", "YSE", "GDA", "WR4", "W6", "W10", "WCR", "WCRcB", "W10cR"} <= keys
