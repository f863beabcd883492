"""A hand's buttons: one per distinct card, the wild colours, the controls, laid out in rows.

One button per distinct card (with a count when held more than once), disabled when it cannot
be played now; a playable Wild or Wild Draw Four that asks for a colour right away gets one
button per colour instead, so it is played with its colour in one click, its colours kept on one
row. Controls (Draw, UNO!, colours, Accept/Challenge, between rounds Next round / Wait / Leave,
...) and Refresh come first; with card pictures on, a card's button is its picture alone (its
application emoji; a wild's colours are swatches), so a 7-card turn fits a phone. Cards fill the
rows below, a group never split across two, and page with Previous/Next on the last, so no card
is ever dropped.

Styles point at the sensible next move: a playable card shows its colour and an unplayable one
is grey; Draw (or Pass) is blue only when no card can be played; with two cards on your turn,
"card + UNO!" and UNO! stand out and the plain plays are grey. The message around them:
hand_message.py.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

import discord

from bot.engine import (
    Accept,
    CallUno,
    Card,
    Catch,
    Challenge,
    ChooseColor,
    ChooseTarget,
    Decision,
    Draw,
    Game,
    Keep,
    NextRound,
    Pass,
    Play,
    PlayerView,
    Rank,
    view_for,
)
from bot.i18n import t
from bot.ui.card_emojis import EmojiJson, button_emoji, color_emoji
from bot.ui.cards import (
    COLOR_STYLE,
    card_name,
    card_style,
    color_name,
    side_colors,
)

#: Buttons in the four rows above the navigation row (at most: a row holds one group whole).
SLOTS = 20
ROW_WIDTH = 5
ROWS = 5  # Discord's most action rows in a message


@dataclass(frozen=True, slots=True)
class Slot:
    """One button of the hand, before it becomes a DynamicItem."""

    action: str
    label: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    emoji: EmojiJson | str | None = None
    disabled: bool = False
    card: Card | None = None  # the card a card button plays
    # With card pictures on, the label next to the card's own emoji ("" for none): the emoji
    # says which card it is. None: the full label stays (no emoji of the card known).
    short: str | None = None


@dataclass(frozen=True, slots=True)
class HandLayout:
    controls: tuple[Slot, ...]
    cards: tuple[Slot, ...]  # this page's cards
    page: int
    pages: int
    targets: tuple[tuple[int, str], ...] = ()  # (user id, name) for the target select
    all_cards: tuple[Slot, ...] = ()  # every card slot of every page (for tests)
    finished: bool = False  # the match is over: no buttons at all, not even Refresh
    card_rows: tuple[tuple[Slot, ...], ...] = ()  # this page's cards, row by row


def _name(names: Mapping[int, str], user: int) -> str:
    """A name for a button label or a select option: exact, as Discord reads no markdown there."""
    return names.get(user, str(user))


#: Wilds whose colour their player names right after playing them, with the tag their colour
#: buttons wear to tell them apart (Swap Hands asks for a target first, Shuffle Hands shuffles
#: first, the Customizable's house effects vary, a Colour Roulette's colour is named by its
#: victim: those keep the two steps, as does the colour of a Wild turned up to start a round).
_COLOR_NEXT: Final = {
    Rank.WILD: "",
    Rank.WILD_DRAW_FOUR: "+4",
    Rank.WILD_REVERSE_DRAW_FOUR: "⇄+4",
    Rank.WILD_DRAW_SIX: "+6",
    Rank.WILD_DRAW_TEN: "+10",
    # UNO Flip's: the light side's Wild Draw Two, the dark side's Wild and Wild Draw Colour
    # (coloured by the dark side's colours)
    Rank.WILD_DRAW_TWO: "+2",
    Rank.DARK_WILD: "",
    Rank.WILD_DRAW_COLOR: "+?",
}


def colour_follows(card: Card, view: PlayerView) -> bool:
    """Whether playing `card` now asks its player for a colour at once (a Wild, a Wild Draw
    Four, No Mercy's draw wilds, UNO Flip's wilds) and it is not their last card (going out
    ends the round, no colour is chosen)."""
    return card.rank in _COLOR_NEXT and len(view.hand) > 1


def _play_slots(
    card: Card,
    label: str,
    view: PlayerView,
    locale: object,
    custom: bool,
    *,
    uno: bool,
    count: int = 1,
) -> list[Slot]:
    """The buttons that play a playable `card` (with an UNO call if `uno`): one, or one per
    colour when the colour follows at once (`play:W:R` is the play and the colour). `count`:
    how many the player holds (a short label says so, with card pictures on)."""
    code = f"play:{card.code}" + (":uno" if uno else "")
    own = button_emoji(card, custom)
    uno_label = t("hand.uno", locale)
    if not colour_follows(card, view):
        if uno:
            emoji = own if _known(own) else "📣"
            short = uno_label if _known(own) else None
            return [Slot(code, label, card_style(card), emoji, card=card, short=short)]
        short = _short(own, count)
        return [Slot(code, label, card_style(card), own, card=card, short=short)]
    key = "hand.wild_color_uno" if uno else "hand.wild_color"
    name = card_name(card, locale)
    # A wild's colours are swatches: "+4" tells a Wild Draw Four's from a Wild's.
    tag = _COLOR_NEXT[card.rank]
    tag = f"{tag} {uno_label}".strip() if uno else tag
    slots = []
    for color in side_colors(view.dark):
        swatch = color_emoji(color, custom)
        slots.append(
            Slot(
                f"{code}:{color.value}",
                t(key, locale, card=name, color=color_name(color, locale)),
                COLOR_STYLE[color],
                swatch,
                card=card,
                short=tag if _known(swatch) else None,
            )
        )
    return slots


def _known(emoji: EmojiJson | str) -> bool:
    """Whether a button's emoji is our own picture (an application emoji), which says what the
    button is without words; a colour square from Unicode does not."""
    return isinstance(emoji, dict)


def _short(emoji: EmojiJson | str, count: int) -> str | None:
    """A card button's label with card pictures on: its count ("×2") or none; None (the full
    label) when its emoji is no picture of the card."""
    if not _known(emoji):
        return None
    return f"×{count}" if count > 1 else ""


def _grey(slot: Slot) -> Slot:
    return replace(slot, style=discord.ButtonStyle.secondary)


def _card_slots(view: PlayerView, locale: object, custom: bool) -> list[list[Slot]]:
    """The card buttons in groups that stay on one row: a card's button, or its colour
    buttons (a Wild played with its colour)."""
    legal = set(view.legal)
    counts = Counter(view.hand)
    # Two cards and one playable: the sensible move is a play with an UNO call, so the plain
    # plays go grey and the "+ UNO!" ones keep their colours.
    uno_turn = any(Play(c, uno=True) in legal for c in counts)
    slots: list[list[Slot]] = []
    for card in sorted(counts):
        name = card_name(card, locale)
        n = counts[card]
        label = t("hand.card_count", locale, card=name, count=n) if n > 1 else name
        if Play(card) not in legal:
            emoji = button_emoji(card, custom)
            code = f"play:{card.code}"
            short = _short(emoji, n)
            slots.append([Slot(code, label, emoji=emoji, disabled=True, card=card, short=short)])
            continue
        plays = _play_slots(card, label, view, locale, custom, uno=False, count=n)
        slots.append([_grey(p) for p in plays] if uno_turn else plays)
    # The next-to-last card: offer "play and call UNO" for each playable card.
    for card in sorted(counts):
        if Play(card, uno=True) in legal:
            label = t("hand.play_uno", locale, card=card_name(card, locale))
            slots.append(_play_slots(card, label, view, locale, custom, uno=True))
    return slots


def hand_layout(
    game: Game,
    viewer: int,
    names: Mapping[int, str],
    locale: object = None,
    *,
    page: int = 0,
    host_id: int | None = None,
    player_view: PlayerView | None = None,
    card_emojis: bool = False,
    waited: bool = False,
) -> HandLayout:
    """The hand's buttons; `card_emojis`: the cards' own emojis where known (card pictures on);
    `waited`: the viewer already asked to wait in this round's break (its Wait is spent)."""
    view = player_view or view_for(game, viewer)
    legal = set(view.legal)
    controls: list[Slot] = []
    show_cards = True
    targets: tuple[tuple[int, str], ...] = ()
    decision = view.decision
    if view.my_turn and decision is Decision.PLAY_DRAWN and view.drawn is not None:
        show_cards = False
        drawn = view.drawn
        name = card_name(drawn, locale)
        if Play(drawn) in legal:
            label = t("hand.play_drawn", locale, card=name)
            plays = _play_slots(drawn, label, view, locale, card_emojis, uno=False)
            uno_turn = Play(drawn, uno=True) in legal
            controls += [_grey(p) for p in plays] if uno_turn else plays
        if Play(drawn, uno=True) in legal:
            label = t("hand.play_uno", locale, card=name)
            controls += _play_slots(drawn, label, view, locale, card_emojis, uno=True)
        if Keep() in legal:
            controls.append(Slot("keep", t("hand.keep", locale), emoji="✋"))
    elif view.my_turn and decision is Decision.CHOOSE_COLOR:
        show_cards = False
        for color in side_colors(view.dark):
            if ChooseColor(color) in legal:
                controls.append(
                    Slot(
                        f"color:{color.value}",
                        color_name(color, locale),
                        COLOR_STYLE[color],
                        color_emoji(color, card_emojis),
                    )
                )
    elif view.my_turn and decision is Decision.CHOOSE_TARGET:
        show_cards = False
        targets = tuple(
            (a.player, _name(names, a.player)) for a in view.legal if isinstance(a, ChooseTarget)
        )
    elif view.my_turn and decision is Decision.RESPOND:
        if view.penalty_kind == "WDC":  # UNO Flip's Wild Draw Colour: no count, a colour
            accept = t("hand.accept_to_color", locale, color=color_name(view.color, locale))
        else:
            accept = t("hand.accept", locale, count=view.penalty)
        controls.append(
            Slot(
                "accept",
                accept,
                discord.ButtonStyle.secondary,
                "📥",
                disabled=Accept() not in legal,
            )
        )
        if Challenge() in legal:
            controls.append(
                Slot("challenge", t("hand.challenge", locale), discord.ButtonStyle.danger, "⚖️")
            )
    elif decision is Decision.NEXT_ROUND and NextRound() in legal:  # anyone at the table
        # The break's three choices: start now, ask for more time (once a break), or leave;
        # the cards left are only counted now (the picture still shows them).
        show_cards = False
        controls += [
            Slot("next", t("table.next_round", locale), discord.ButtonStyle.success, "⏭️"),
            Slot("wait", t("table.wait", locale), emoji="⏸️", disabled=waited),
            Slot("leave", t("lobby.leave", locale), discord.ButtonStyle.danger, "🚪"),
        ]
    elif decision is Decision.MATCH_OVER:
        return HandLayout((), (), 0, 1, finished=True)
    can_play = any(isinstance(a, Play) for a in legal)
    if view.my_turn and decision is Decision.PLAY:
        # Draw (or Pass) is the sensible move only when no card can be played.
        fallback = discord.ButtonStyle.secondary if can_play else discord.ButtonStyle.primary
        if Draw() in legal:
            controls.append(Slot("draw", t("hand.draw", locale), fallback, "📤"))
        if Pass() in legal:
            controls.append(Slot("pass", t("hand.pass", locale), fallback, "⏭️"))
    if CallUno() in legal:
        # Urgent with one card left (uncalled) or two on your turn with one to play.
        urgent = len(view.hand) == 1 or (len(view.hand) == 2 and view.my_turn and can_play)
        style = discord.ButtonStyle.danger if urgent else discord.ButtonStyle.secondary
        controls.append(Slot("uno", t("hand.uno", locale), style, "📣"))
    catchable = [a.target for a in view.legal if isinstance(a, Catch)]
    at_risk = [p for p in catchable if view.seat(p).at_risk]
    if len(at_risk) == 1:
        target = at_risk[0]
        label = t("hand.catch_named", locale, name=_name(names, target))
        controls.append(Slot(f"catch:{target}", label, discord.ButtonStyle.danger, "🫵"))
    elif at_risk:
        controls.append(Slot("catch", t("hand.catch", locale), discord.ButtonStyle.danger, "🫵"))

    cards = _card_slots(view, locale, card_emojis) if show_cards and view.hand else []
    # Rows left for cards: the target select and the controls (Refresh among them) come first;
    # a hand of several pages gives one more row to Previous/Next.
    fixed = (1 if targets else 0) + control_rows(len(controls))
    rows = _rows(cards)
    per_page = max(1, ROWS - fixed)
    if len(rows) > per_page:
        per_page = max(1, per_page - 1)
    pages = [rows[k : k + per_page] for k in range(0, len(rows), per_page)] or [[]]
    page = min(max(page, 0), len(pages) - 1)
    shown = tuple(tuple(row) for row in pages[page])
    every = tuple(slot for group in cards for slot in group)
    flat = tuple(slot for row in shown for slot in row)
    return HandLayout(tuple(controls), flat, page, len(pages), targets, every, card_rows=shown)


def control_rows(controls: int) -> int:
    """Rows the controls and Refresh take (Refresh joins the controls' last row)."""
    return -(-(controls + 1) // ROW_WIDTH)


def _rows(groups: list[list[Slot]]) -> list[list[Slot]]:
    """The card buttons row by row, a group (a card, a wild's colours) never split across two
    rows unless it is wider than one."""
    rows: list[list[Slot]] = []
    for group in groups:
        for start in range(0, len(group), ROW_WIDTH):
            part = group[start : start + ROW_WIDTH]
            # A wild's colours take a row of their own: beside other buttons they would wrap
            # onto a second line on a phone.
            alone = len(part) > 1 or (rows and len(rows[-1]) > 1 and _grouped(rows[-1]))
            if not rows or alone or len(rows[-1]) + len(part) > ROW_WIDTH:
                rows.append([])
            rows[-1].extend(part)
    return rows


def _grouped(row: list[Slot]) -> bool:
    """Whether `row` holds one wild's colours (its buttons all play the same card)."""
    return len({slot.card for slot in row}) == 1 and row[0].action.count(":") >= 2
