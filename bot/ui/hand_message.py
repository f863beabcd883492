"""A player's private hand: the player's whole view of the game, in one phone screen.

Most players are on a phone, where the public table is far up the channel: the hand says
whose turn it is and when it runs out, the card to match and its colour, every opponent's card
count and UNO state in one strip, the last move or two, and shows the player's cards (the ones
they may play standing up in the picture on their turn) with the actions below (hand_buttons.py).
An ephemeral embed plus buttons built only from DynamicItems. A round's end says who won,
everyone's totals and when the next round starts. A finished match's hand has no buttons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import discord

from bot.engine import (
    Challenge,
    Decision,
    Game,
    PlayerView,
    Rank,
    view_for,
)
from bot.i18n import t
from bot.ui.card_emojis import card_image_url
from bot.ui.cards import (
    EMBED_COLOUR,
    card_text,
    color_name,
    hand_summary,
    marks_summary,
    side_line,
)
from bot.ui.hand_buttons import ROW_WIDTH, HandLayout, Slot, control_rows, hand_layout
from bot.ui.ids import game_id_for, target_select_id
from bot.ui.names import literal, literal_name
from bot.ui.outgoing import Outgoing
from bot.ui.pictures import hand_picture
from bot.ui.plain_view import Component, PlainView, button, select


def _status(game: Game, view: PlayerView, names: Mapping[int, str], locale: object) -> str:
    if view.decision is Decision.NEXT_ROUND:
        return _round_end(view, names, locale)
    if view.decision is Decision.MATCH_OVER:
        return _finished_status(view, locale)
    current = view.current_player
    if not view.my_turn:
        if view.viewer not in game.hands:
            if view.viewer is not None and view.seat(view.viewer).knocked_out:
                return t("hand.status.knocked_out", locale, limit=view.rules.mercy_limit)
            return t("hand.status.spectating", locale)
        return t("hand.status.waiting", locale, name=literal_name(names, current or 0))
    decision = view.decision
    if decision is Decision.PLAY_DRAWN and view.drawn is not None:
        return t("hand.status.drawn", locale, card=card_text(view.drawn, locale))
    if decision is Decision.CHOOSE_COLOR:
        return t("hand.status.choose_color", locale)
    if decision is Decision.CHOOSE_TARGET:
        return t("hand.status.choose_target", locale)
    if decision is Decision.RESPOND and view.penalty_kind == "WDC":  # UNO Flip
        color = color_name(view.color, locale)
        if Challenge() in view.legal and view.wd4_offender is not None:
            return t(
                "hand.status.respond_wdc",
                locale,
                target=color,
                color=color_name(view.wd4_color_before, locale),
                name=literal_name(names, view.wd4_offender),
            )
        return t("hand.status.respond_to_color", locale, color=color)
    if decision is Decision.RESPOND:
        top = view.top_card
        if Challenge() in view.legal and view.wd4_offender is not None and top is not None:
            if top.rank is Rank.WILD_DRAW_TWO:  # UNO Flip's, challenged as a Wild Draw Four
                return t(
                    "hand.status.respond_w2",
                    locale,
                    count=view.penalty,
                    fail=view.penalty + game.rules.challenge_fail_draw - 4,
                    color=color_name(view.wd4_color_before, locale),
                    name=literal_name(names, view.wd4_offender),
                )
            return t(
                "hand.status.respond_wd4",
                locale,
                count=view.penalty,
                fail=view.penalty + game.rules.challenge_fail_draw - 4,
                color=color_name(view.wd4_color_before, locale),
                name=literal_name(names, view.wd4_offender),
            )
        return t("hand.status.respond", locale, count=view.penalty)
    return t("hand.status.your_turn", locale)


def _finished_status(view: PlayerView, locale: object) -> str:
    """A finished round's or match's line, which tells its winner they won."""
    round_won = view.round_outcome is not None and view.round_outcome.winner == view.viewer
    if view.decision is Decision.MATCH_OVER:
        if view.outcome is not None and view.viewer in view.outcome.winners:
            return t("hand.status.match_won", locale)
        over = t("hand.status.match_over", locale)
        return f"{t('hand.status.round_won', locale)}\n{over}" if round_won else over
    return t("hand.status.round_won" if round_won else "hand.status.round_over", locale)


#: Characters of a name in the opponents' strip (a phone line holds about 44).
STRIP_NAME = 12


def _short_name(names: Mapping[int, str], user: int) -> str:
    """A name cut for a strip (STRIP_NAME characters), shown exactly."""
    name = names.get(user, str(user))
    if len(name) > STRIP_NAME:
        name = name[: STRIP_NAME - 1] + "…"
    return literal(name)


def _round_end(view: PlayerView, names: Mapping[int, str], locale: object) -> str:
    """A round's end as the hand tells it: who won (the viewer: that they did), then every
    player's total, best first, with what this round added (the viewer's in bold)."""
    outcome = view.round_outcome
    if outcome is None:
        return t("hand.status.round_over", locale)
    if outcome.winner == view.viewer:
        head = t("hand.status.round_won", locale)
    elif outcome.winner is None:
        head = t("result.nobody", locale, round=outcome.round_number)
    else:
        name = literal_name(names, outcome.winner)
        head = "🏁 " + t("result.winner", locale, round=outcome.round_number, name=name)
    parts = []
    for player in sorted(outcome.totals, key=lambda p: (-outcome.totals[p], p)):
        gained = outcome.points.get(player, 0)
        text = f"{_short_name(names, player)} {outcome.totals[player]}"
        text += f" (+{gained})" if gained else ""
        parts.append(f"**{text}**" if player == view.viewer else text)
    return f"{head}\n{t('hand.round_totals', locale, totals=' · '.join(parts))}"


def seats_strip(view: PlayerView, names: Mapping[int, str]) -> str:
    """Every opponent still in the round in one strip, from the next seat on: their name
    (▶ whose turn it is), card count, and UNO state (📣 called, ⚠️ one card and not called,
    catchable); those the mercy rule knocked out struck through with 💀. Numbers and marks
    only, so it reads in every language."""
    seats = [s for s in view.seats if (s.in_round or s.knocked_out) and not s.left]
    players = [s.player for s in seats]
    start = players.index(view.viewer) + 1 if view.viewer in players else 0
    parts = []
    for seat in seats[start:] + seats[:start]:
        if seat.player == view.viewer:
            continue
        if seat.knocked_out:  # out by the mercy rule: no hand to count
            parts.append(f"~~{_short_name(names, seat.player)}~~ 💀")
            continue
        mark = " ⚠️" if seat.at_risk else (" 📣" if seat.cards == 1 else "")
        text = f"{_short_name(names, seat.player)} {seat.cards}{mark}"
        parts.append(f"▶ **{text}**" if seat.player == view.current_player else text)
    return " · ".join(parts)


def others_sides(view: PlayerView, names: Mapping[int, str]) -> list[str]:
    """UNO Flip: what the viewer sees of each opponent's hand, the other side of their cards,
    from the next seat on ("👀 Ben: 🩷7×2 💜⇄"); the view never holds the viewer's own."""
    shows = dict(view.other_sides)
    players = [s.player for s in view.seats]
    start = players.index(view.viewer) + 1 if view.viewer in players else 0
    lines = []
    for player in players[start:] + players[:start]:
        if player != view.viewer and shows.get(player):
            lines.append(f"👀 {_short_name(names, player)}: {marks_summary(shows[player])}")
    return lines


def hand_embed(
    game: Game,
    viewer: int,
    names: Mapping[int, str],
    locale: object = None,
    *,
    layout: HandLayout,
    notice: str | None = None,
    player_view: PlayerView | None = None,
    deadline: datetime | None = None,
    recent: Sequence[str] = (),
) -> discord.Embed:
    """The hand's text, most urgent first: what just happened to the player, whose turn it is
    and when it runs out (`deadline`, a Discord timestamp that counts down by itself), the card
    to match, the opponents' strip, and the last move or two (`recent`, the table's log)."""
    view = player_view or view_for(game, viewer)
    lines: list[str] = []
    if notice:
        lines += [notice, ""]
    status = _status(game, view, names, locale)
    between = view.decision is Decision.NEXT_ROUND
    if deadline is not None and between:  # the break's countdown, in its own words
        when = discord.utils.format_dt(deadline, "R")
        status += "\n" + t("table.next_round_at", locale, when=when)
    elif deadline is not None and view.decision is not Decision.MATCH_OVER:
        status += f" ⏱ {discord.utils.format_dt(deadline, 'R')}"
    lines.append(status)
    if view.top_card is not None and not between:
        lines.append(
            t(
                "hand.top",
                locale,
                card=card_text(view.top_card, locale),
                color=color_name(view.color, locale),
            )
        )
    if view.rules.deck == "flip112" and not between:
        lines.append(side_line(view.dark, locale))
    strip = seats_strip(view, names)
    if strip and view.decision not in (Decision.MATCH_OVER, Decision.NEXT_ROUND):
        lines.append(strip)
        lines += others_sides(view, names)
    if not notice:  # (a notice tells the last move already, as it concerns the player)
        lines += [f"↪ {line}" for line in recent if line]
    if view.hand and not layout.cards and not between:  # a choice shows, not the cards: list
        lines += ["", t("hand.cards", locale, cards=hand_summary(view.hand, locale))]
    if layout.pages > 1:
        lines.append(t("hand.page", locale, page=layout.page + 1, pages=layout.pages))
    embed = discord.Embed(
        title=t("hand.title", locale, count=len(view.hand)),
        description="\n".join(lines)[:4096],
        colour=EMBED_COLOUR[view.color],
    )
    return embed


def hand_view(
    game_id: int, version: int, layout: HandLayout, locale: object = None, *, compact: bool = False
) -> PlainView:
    """The buttons of a hand, at most 25, as plain components (see plain_view.py): each one's
    custom_id is a DynamicItem template's, so it is routed like any of the bot's buttons.
    `compact` (card pictures on): a card button shows its picture and at most a short label,
    and Refresh and the page buttons their emoji alone, so a turn fits a phone's screen."""
    view = PlainView()
    row = 0
    if layout.targets:
        options = [(name, str(uid)) for uid, name in layout.targets]
        placeholder = t("hand.target_placeholder", locale)
        view.add(select(target_select_id(game_id, version), options, placeholder=placeholder), 0)
        row = 1

    def add(slot: Slot, at: int) -> None:
        label = slot.short if compact and slot.short is not None else slot.label
        component = button(
            game_id_for(game_id, version, slot.action),
            label=label or None,
            style=slot.style,
            emoji=slot.emoji,
            disabled=slot.disabled,
        )
        view.add(component, at)

    def small(action: str, key: str, emoji: str, disabled: bool = False) -> Component:
        label = None if compact else t(key, locale)
        return button(
            game_id_for(game_id, version, action), label=label, emoji=emoji, disabled=disabled
        )

    if layout.finished:  # nothing left to do or to refresh
        return view
    for index, slot in enumerate(layout.controls):
        add(slot, row + index // ROW_WIDTH)
    row += control_rows(len(layout.controls)) - 1
    view.add(small("refresh", "hand.refresh", "🔄"), row)
    row += 1
    for cards in layout.card_rows:
        for slot in cards:
            add(slot, row)
        row += 1
    if layout.pages > 1:
        first, last = layout.page == 0, layout.page >= layout.pages - 1
        back = "page:999" if first else f"page:{layout.page - 1}"
        view.add(small(back, "hand.previous", "◀️", disabled=first), row)
        onward = "page:998" if last else f"page:{layout.page + 1}"
        view.add(small(onward, "hand.next", "▶️", disabled=last), row)
    return view


def render_hand(
    game: Game,
    game_id: int,
    viewer: int,
    names: Mapping[int, str],
    locale: object = None,
    *,
    page: int = 0,
    notice: str | None = None,
    host_id: int | None = None,
    pictures: bool = False,
    deadline: datetime | None = None,
    recent: Sequence[str] = (),
    waited: bool = False,
    player_view: PlayerView | None = None,
) -> Outgoing:
    """The message showing the viewer's hand (`deadline`: when
    the turn or the round's break runs out; `recent`: the last lines of the table's log, see
    `hand_embed`; `waited`: the viewer's Wait of this break is spent). `pictures` (the
    server's card pictures setting): card emojis on the buttons, the card to match as the
    embed's thumbnail (its emoji, once the emojis are known), and the hand's picture (a
    `Picture` to render and attach; the embed already points at it). `player_view`: the
    viewer's `view_for` of `game`, if the caller already has it."""
    seen = player_view or view_for(game, viewer)  # once for the layout and the embed
    layout = hand_layout(
        game,
        viewer,
        names,
        locale,
        page=page,
        host_id=host_id,
        player_view=seen,
        card_emojis=pictures,
        waited=waited,
    )
    embed = hand_embed(
        game,
        viewer,
        names,
        locale,
        layout=layout,
        notice=notice,
        player_view=seen,
        deadline=deadline,
        recent=recent,
    )
    view = hand_view(game_id, game.version, layout, locale, compact=pictures)
    picture = None
    if pictures:
        if seen.top_card is not None:
            # The card to match, from its application emoji on Discord's CDN (uploaded once):
            # never inside the hand's own picture, which would then change at every turn.
            url = card_image_url(seen.top_card, seen.color)
            if url is not None:
                embed.set_thumbnail(url=url)
        picture = hand_picture(seen, locale)
        if picture is not None:
            picture.point(embed)
    return Outgoing.of(embed, view, picture=picture)
