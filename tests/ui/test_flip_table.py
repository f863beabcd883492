"""What an UNO Flip player reads and clicks at the table: the side in play, the other side of
everybody else's cards (text, picture, alt text) and never the hidden side of one's own, the
dark colours' one-click wild buttons, the Wild Draw Colour's answer, the flip told in words."""

from __future__ import annotations

import re

import pytest

from bot.engine import Card, Color, Decision, Game, RuleSet, build_deck
from bot.engine import actions as A
from bot.engine import events as E
from bot.engine.cards import COLORS, DARK_COLORS, Rank, flip_side_deck
from bot.engine.flip import pairing_of
from bot.engine.view import view_for
from bot.ui.art.alt import describe_table
from bot.ui.cards import card_mark, card_name
from bot.ui.hand_buttons import hand_layout
from bot.ui.hand_message import hand_embed
from bot.ui.ids import matches_exactly_one
from bot.ui.items import action_texts
from bot.ui.pictures import hand_picture, table_state
from bot.ui.story import sentence, tell
from bot.ui.table_message import render_table
from tests.engine.scenario import deal

FLIP = RuleSet.preset("flip")
NAMES = {1: "Ann", 2: "Ben", 3: "Cat"}
_SAME_PLACE = {
    Rank.DRAW_ONE: Rank.DRAW_FIVE,
    Rank.SKIP: Rank.SKIP_EVERYONE,
    Rank.WILD: Rank.DARK_WILD,
    Rank.WILD_DRAW_TWO: Rank.WILD_DRAW_COLOR,
}
#: Each light card with the dark card in its place (Red 7 with Pink 7, ...), to read by.
PARALLEL = pairing_of(
    {
        c: Card.of(
            (DARK_COLORS[COLORS.index(c.color)].value if c.color else "")
            + _SAME_PLACE.get(c.rank, c.rank).value
        )
        for c in set(build_deck("flip112"))
    }
)


def _plain(text: str) -> str:
    return text.replace("\u2068", "").replace("\u2069", "")


def _flip_game(hands: dict[int, str], starter: str, pile: str = "", **options: object) -> Game:
    game = deal([1, 2, 3], hands, starter, pile, rules=FLIP, **options)
    game.flip_pairs = PARALLEL
    game.touch()
    return game


def _table_text(game: Game) -> str:
    embed = render_table(game, 1, NAMES, "en").embeds[0]
    return _plain(
        "\n".join([embed.description or "", *(f"{f.name}\n{f.value}" for f in embed.fields)])
    )


def _hand_message(game: Game, me: int) -> tuple[str, list[str], object]:
    """Everything `me`'s hand message carries: its text, its buttons' custom_ids and labels,
    and what its picture shows."""
    view = view_for(game, me)
    layout = hand_layout(game, me, NAMES, "en", player_view=view)
    embed = hand_embed(game, me, NAMES, "en", layout=layout, player_view=view)
    slots = [*layout.controls, *layout.all_cards]
    buttons = [f"{s.action} {s.label} {s.short}" for s in slots]
    picture = hand_picture(view, "en")
    return _plain(embed.description or "") + (embed.title or ""), buttons, picture and picture.key


def _with_my_hidden_sides_changed(game: Game, me: int) -> Game | None:
    """The same game but for the other side of a kind only `me` holds, swapped with that of a
    kind nobody sees: `me` cannot tell the two apart (the others can)."""
    others = {c for p in game.players if p != me for c in game.hands[p]}
    visible = others | set(game.discard) | ({game.draw_pile[-1]} if game.draw_pile else set())
    mine = [c for c in game.hands[me] if not c.is_wild and c not in visible]
    unseen = {c for c in flip_side_deck(dark=game.dark) if not c.is_wild}
    unseen -= visible | set(game.hands[me])
    if not mine or not unseen:
        return None  # (every kind `me` holds is on view elsewhere: nothing hidden to change)
    a, c = mine[0], min(unseen)
    other = list(game.flip_pairs)
    oa, oc = other[a.face], other[c.face]
    other[a.face], other[c.face] = oc, oa
    other[oa], other[oc] = c.face, a.face
    changed = game.copy()
    changed.flip_pairs = tuple(other)
    changed.touch()
    assert changed.other_sides(me) != game.other_sides(me)
    return changed


@pytest.mark.parametrize("seed", range(4))
def test_a_hand_message_never_depends_on_the_hidden_side_of_its_own_cards(seed: int) -> None:
    """Two games that differ only in the hidden side of `me`'s cards give `me` the very same
    hand message (text, buttons, picture), at every turn of a seeded round on both sides."""
    game, _ = Game.start([1, 2, 3], FLIP, seed=seed)
    checked = dark = 0
    for _ in range(80):
        player = game.current_player
        if game.round_over or player is None:
            break
        for me in game.players:
            changed = _with_my_hidden_sides_changed(game, me)
            if changed is None:
                continue
            assert _hand_message(game, me) == _hand_message(changed, me)
            checked += 1
            dark += game.dark
        legal = game.legal_actions(player)
        plays = [a for a in legal if isinstance(a, A.Play)]
        flips = [a for a in plays if a.card.rank is Rank.FLIP]
        game.apply(player, (flips or plays or legal)[0])
    assert checked > 20 and dark > 0  # (both sides seen)


def test_the_table_shows_each_hands_other_side_and_no_hand_its_side_in_play() -> None:
    game = _flip_game({1: "R1 R2 RD1", 2: "Y2 GS Y5", 3: "BF W2 G4"}, "R9", "B1 B2 B3")
    text = _table_text(game)
    assert "☀️ **Light side** in play" in text
    # what everybody sees of each hand is its dark side: Ann's Red 1, Red 2, Red Draw One
    assert "**Ann** — 3 cards · 👀 🩷1 🩷2 🩷+5" in text
    assert "**Ben** — 3 cards · 👀 🩵2 🩵5 🧡⊘⊘" in text
    state = table_state(game, NAMES)
    assert state is not None and state.dark is False and state.pile_top == Card.of("V1")
    shown = {c for s in state.seats for c in s.shows}
    held = {c for p in game.players for c in game.hand(p)}
    assert shown and not shown & held  # no card in play on the picture
    alt = describe_table(state, "en")
    assert alt.startswith("Light side in play.") and "Ann 3 cards, showing Pink 1" in alt
    for card in held - {state.top}:  # no name of a card anyone plays with, anywhere
        assert card_name(card, "en") not in text + alt and card_mark(card) not in text


def test_a_flip_turns_the_table_and_is_told() -> None:
    game = _flip_game({1: "RF R1", 2: "Y2 Y3", 3: "G4 B5"}, "R9", "B1 B2")
    events = game.apply(1, A.Play(Card.of("RF")))
    assert any(isinstance(e, E.SidesFlipped) for e in events)
    told = _plain(sentence(tell(events, NAMES, "en"), NAMES, "en"))
    assert (
        told == "Ann played 🟥 Red Flip · 🌙 everything flipped to the dark side, 🩷 Pink 9 on top"
    )
    text = _table_text(game)
    assert "🌙 **Dark side** in play" in text
    assert re.search(r"\*\*Ann\*\* — 1 card .*· 👀 🟥1 ·", text)  # the light side shows
    state = table_state(game, NAMES)
    assert state is not None and state.dark and state.top == Card.of("P9")
    hand = _hand_message(game, 2)[0]
    assert "🌙 **Dark side** in play" in hand and "👀 Cat: 🟩4 🟦5" in hand
    assert "👀 Ben" not in hand  # never one's own other side


def test_a_dark_wild_is_played_with_a_dark_colour_in_one_click() -> None:
    game = _flip_game({1: "RF R1 R2", 2: "Y2 Y3 Y4", 3: "W2 B5 G7"}, "R9", "B1 B2 B3")
    game.apply(1, A.Play(Card.of("RF")))
    game.apply(2, A.Draw())  # Ben cannot play on the Pink 9
    if game.current_player == 2:  # (the card drawn could be played: he keeps it)
        game.apply(2, A.Keep())
    assert game.current_player == 3 and Card.of("WDC") in game.hand(3)
    layout = hand_layout(game, 3, NAMES, "en")
    ids = [s.action for s in layout.all_cards if s.card == Card.of("WDC")]
    assert ids == ["play:WDC:P", "play:WDC:T", "play:WDC:O", "play:WDC:V"]
    for action in ids:
        assert matches_exactly_one(f"uno:1:{game.version}:{action}")
    assert action_texts("play:WDC:V") == ["play:WDC", "color:V"]
    labels = [s.label for s in layout.all_cards if s.card == Card.of("WDC")]
    assert labels[3] == "Wild Draw Color → Purple"
    # the click's two actions, as the engine takes them: Ben must draw until purple
    game.apply(3, A.Play(Card.of("WDC")))
    game.apply(3, A.ChooseColor(Color.PURPLE))
    assert game.decision is Decision.RESPOND and game.current_player == 1
    answer = hand_layout(game, 1, NAMES, "en")
    assert [s.label for s in answer.controls][:2] == ["Draw until Purple", "Challenge"]
    status = _hand_message(game, 1)[0]
    assert "**Cat played a Wild Draw Color on you: Purple.**" in status
    assert "<@1> must draw until a Purple card comes, or challenge." in _table_text(game)


def test_dark_colours_are_told_apart_from_light_ones_in_text() -> None:
    marks = {card_mark(Card.of(c)) for c in ("R7", "P7", "B7", "V7", "G7", "O7", "Y7", "T7")}
    assert len(marks) == 8  # eight colours, eight emojis
    assert re.fullmatch(r"[^\w]+7", card_mark(Card.of("V7")))
