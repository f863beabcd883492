"""The public messages of a game: the lobby, the table, round results and the final standings.

Card counts are never hidden; hands never appear here.

Over 500 lines on purpose: the lobby, the table and a round's results are one public message
in its three states, sharing its layout helpers (the seat lines, the log, the footer).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from functools import lru_cache

import discord

from bot.engine import Decision, Game, Outcome, PlayerView, RoundOutcome, RuleSet, view_for
from bot.engine.ai import is_computer
from bot.engine.game_kinds import game_kinds, game_of, player_range
from bot.engine.seeds import shown_commitment
from bot.i18n import t
from bot.ui.cards import EMBED_COLOUR, card_text, color_name, marks_summary, side_line
from bot.ui.ids import LOBBY_TARGETS
from bot.ui.items import (
    GameButton,
    HandButton,
    LobbyButton,
    LobbyGameSelect,
    LobbyTargetSelect,
    LogButton,
    RecordButton,
    RematchButton,
    ReplayButton,
)
from bot.ui.names import literal, literal_name
from bot.ui.outgoing import Outgoing
from bot.ui.rule_options import match_target
from bot.ui.rules_text import difference_lines, rules_summary

#: Changed rules the lobby lists (a preset changes at most about 8; the rest is in /uno rules).
MAX_LOBBY_RULE_LINES = 12


def _name(names: Mapping[int, str], user: int | None) -> str:
    """A player's name as markdown that shows it exactly (see names.py)."""
    if user is None:
        return "-"
    return literal_name(names, user)


def bold_name(name: str) -> str:
    """A name in bold that pings no one (an ended game's table mentions nobody)."""
    return f"**{literal(name)}**"


def mention(user: int, names: Mapping[int, str]) -> str:
    """A ping for a person; a computer player's name in bold."""
    return f"**{_name(names, user)}**" if is_computer(user) else f"<@{user}>"


def goal_text(rules: RuleSet, locale: object = None) -> str:
    """What ends the match: "one round", or "to 500 points"."""
    if rules.scoring == "none":
        return t("table.goal_one_round", locale)
    return t("table.goal_points", locale, count=rules.target)


@lru_cache(maxsize=1024)
def rules_line(rules: RuleSet, locale: object = None) -> str:
    """The rules and the goal, for the table's footer: told once per rule set and language
    (a table is drawn again after every move)."""
    return t(
        "table.rules_line",
        locale,
        preset=rules_summary(rules, locale, length_apart=True),
        goal=goal_text(rules, locale),
    )


# ----------------------------------------------------------------------------- lobby


def is_practice(players: Sequence[int]) -> bool:
    """One person against computer players only: played out, counted for nobody
    (docs/playing.md, "What counts")."""
    people = [p for p in players if not is_computer(p)]
    return len(people) == 1 and len(people) < len(players)


def target_text(rules: RuleSet, locale: object = None) -> str:
    """How long the match lasts: one round, or to so many points."""
    choice = match_target(rules)
    if choice == "round":
        return t("lobby.target_round", locale)
    return t("lobby.target_points", locale, points=t("count.points", locale, count=rules.target))


def _target_select(game_id: int, rules: RuleSet, locale: object) -> LobbyTargetSelect:
    chosen = match_target(rules)
    choices = list(LOBBY_TARGETS)
    if chosen not in choices:  # e.g. `/uno new target:300`: still shown as chosen
        choices.append(chosen)
    options = []
    for choice in choices:
        if choice == "round":
            label = t("lobby.target_option_round", locale)
        else:
            label = t("count.points", locale, count=int(choice))
        description = t("lobby.target_official", locale) if choice == "500" else None
        options.append(
            discord.SelectOption(
                label=label[:100],
                value=choice,
                description=description[:100] if description else None,
                default=choice == chosen,
            )
        )
    return LobbyTargetSelect(
        game_id, options, placeholder=t("lobby.target_placeholder", locale)[:150], row=2
    )


def _game_select(game_id: int, rules: RuleSet, locale: object) -> LobbyGameSelect:
    """The games on offer (bot/engine/game_kinds.py), each with its players; the chosen one
    is the game these rules play."""
    chosen = game_of(rules)
    options = [
        discord.SelectOption(
            label=t(f"game.{kind.key}", locale)[:100],
            value=kind.key,
            description=t("lobby.game_players", locale, min=kind.min_players, max=kind.max_players)[
                :100
            ],
            default=kind.key == chosen,
        )
        for kind in game_kinds()
    ]
    return LobbyGameSelect(
        game_id, options, placeholder=t("lobby.game_placeholder", locale)[:150], row=3
    )


def render_lobby(
    game_id: int,
    host_id: int,
    players: Sequence[tuple[int, str]],
    rules: RuleSet,
    locale: object = None,
    *,
    closed: str | None = None,
) -> Outgoing:
    """The lobby message; `closed` (a reason) renders it without buttons. The host picks the
    match target and the game in its selects (the table takes as many players as the game
    does); a lobby of one person and computers says it is practice."""
    _, most = player_range(game_of(rules))
    lines = [
        t("lobby.host", locale, host=f"<@{host_id}>"),
        t("lobby.rules_name", locale, preset=rules_summary(rules, locale, length_apart=True)),
        target_text(rules, locale),
    ]
    lines += difference_lines(rules, locale)[:MAX_LOBBY_RULE_LINES]
    lines += ["", t("lobby.players", locale, count=len(players), max=most)]
    lines += [f"{i + 1}. {literal(name)}" for i, (_, name) in enumerate(players)]
    if is_practice([p for p, _ in players]):
        lines += ["", t("lobby.practice", locale)]
    if closed:
        lines += ["", closed]
    else:
        lines += ["", t("lobby.how", locale)]
    embed = discord.Embed(
        title=t("lobby.title", locale), description="\n".join(lines), colour=0xD72600
    )
    view = discord.ui.View(timeout=None)
    if not closed:
        view.add_item(
            LobbyButton(
                game_id, "join", label=t("lobby.join", locale), style=discord.ButtonStyle.success
            )
        )
        view.add_item(LobbyButton(game_id, "leave", label=t("lobby.leave", locale)))
        view.add_item(
            LobbyButton(
                game_id,
                "addbot",
                label=t("lobby.add_computer", locale),
                disabled=len(players) >= most,
            )
        )
        view.add_item(
            LobbyButton(
                game_id,
                "addexpert",
                label=t("lobby.add_expert", locale),
                disabled=len(players) >= most,
            )
        )
        view.add_item(LobbyButton(game_id, "rules", label=t("lobby.rules", locale)))
        view.add_item(
            LobbyButton(
                game_id,
                "start",
                label=t("lobby.start", locale),
                style=discord.ButtonStyle.primary,
                disabled=len(players) < 2,
            )
        )
        view.add_item(
            LobbyButton(
                game_id, "cancel", label=t("lobby.cancel", locale), style=discord.ButtonStyle.danger
            )
        )
        view.add_item(_target_select(game_id, rules, locale))
        if len(game_kinds()) > 1:
            view.add_item(_game_select(game_id, rules, locale))
    return Outgoing.of(embed, view)


# ----------------------------------------------------------------------------- table


def _decision_line(view: PlayerView, names: Mapping[int, str], locale: object) -> str:
    current = view.current_player
    who = mention(current, names) if current is not None else "-"
    decision = view.decision
    if decision is Decision.PLAY:
        return t("table.turn", locale, player=who)
    if decision is Decision.PLAY_DRAWN:
        return t("table.turn_drawn", locale, player=who)
    if decision is Decision.CHOOSE_COLOR:
        return t("table.turn_color", locale, player=who)
    if decision is Decision.CHOOSE_TARGET:
        return t("table.turn_target", locale, player=who)
    if decision is Decision.RESPOND and view.penalty_kind == "WDC":  # UNO Flip: to a colour
        return t(
            "table.turn_respond_color", locale, player=who, color=color_name(view.color, locale)
        )
    if decision is Decision.RESPOND:
        return t("table.turn_respond", locale, player=who, count=view.penalty)
    if decision is Decision.NEXT_ROUND:
        return t("table.round_over", locale)
    return t("table.match_over", locale)


#: What the turn timer does for each decision when it runs out (autoplay's default moves).
_RUNS_OUT = (
    Decision.PLAY,
    Decision.PLAY_DRAWN,
    Decision.CHOOSE_COLOR,
    Decision.CHOOSE_TARGET,
    Decision.RESPOND,
)


def _clock_lines(
    view: PlayerView,
    names: Mapping[int, str],
    locale: object,
    deadline: datetime | None,
    last_chance: int,
) -> list[str]:
    """When the turn runs out and what happens then, as a timestamp every client counts down
    by itself (no edits); and, before the timeout that would remove the player, a warning."""
    current = view.current_player
    if deadline is not None and view.decision is Decision.NEXT_ROUND:
        return [t("table.next_round_at", locale, when=discord.utils.format_dt(deadline, "R"))]
    if deadline is None or current is None or view.decision not in _RUNS_OUT:
        return []
    name = _name(names, current)
    when = discord.utils.format_dt(deadline, "R")
    lines = [t(f"table.runs_out.{view.decision.value}", locale, when=when, player=name)]
    if last_chance:
        lines.append(t("table.last_chance", locale, player=name, count=last_chance))
    return lines


#: The log lines the table shows: the newest, at most TABLE_LOG_LINES of them and, beyond the
#: newest, at most TABLE_LOG_CHARS characters in all (about four lines on a phone); the
#: round's whole log is one click away (the Log button, cogs/uno/game/results.py).
TABLE_LOG_LINES = 3
TABLE_LOG_CHARS = 200


def _log_lines(log: Sequence[str]) -> list[str]:
    """The newest lines of the log for the table, whole lines only (the newest one shortened
    if it alone is longer than the budget), as plain text: a footer reads no markdown, so the
    names' escapes (names.py) come out and each name shows exactly."""
    kept: list[str] = []
    size = 0
    for line in reversed(log):
        line = _UNESCAPE.sub(r"\1", line)
        if len(kept) == TABLE_LOG_LINES:
            break
        if not kept and len(line) > TABLE_LOG_CHARS:
            line = line[: TABLE_LOG_CHARS - 1] + "…"
        size += len(line)
        if kept and size > TABLE_LOG_CHARS:
            break
        kept.append(line)
    return kept[::-1]


#: A backslash escape of names.literal: the log's only markdown (its texts have none).
_UNESCAPE = re.compile(r"\\(.)")


#: The table's game buttons: (action, label key, style, emoji).
_NEXT_ROUND = ("next", "table.next_round", discord.ButtonStyle.success, "⏭️")
_WAIT = ("wait", "table.wait", discord.ButtonStyle.secondary, "⏸️")
_DRAW = ("draw", "table.draw", discord.ButtonStyle.secondary, "📤")
_UNO = ("uno", "table.uno", discord.ButtonStyle.danger, "📣")
_CATCH = ("catch", "table.catch", discord.ButtonStyle.danger, "🫵")


def _seat_lines(view: PlayerView, names: Mapping[int, str], locale: object) -> list[str]:
    """Every seat's count, UNO state and total; in UNO Flip also what everybody sees of the
    seat's hand: the other side of its cards (the view's `other_sides`, never the side the
    seat plays with)."""
    shows = dict(view.other_sides)
    seats = []
    for seat in view.seats:
        marker = "▶️" if seat.player == view.current_player else "▫️"
        if seat.left:
            state = t("table.seat_left", locale)
        elif seat.knocked_out:
            state = t("table.seat_knocked_out", locale)
        elif not seat.in_round:
            state = t("table.seat_out", locale)
        elif seat.cards == 1 and seat.at_risk:
            state = t("table.seat_at_risk", locale, count=seat.cards)
        elif seat.cards == 1:
            state = t("table.seat_uno", locale, count=seat.cards)
        else:
            state = t("table.seat_cards", locale, count=seat.cards)
        if shows.get(seat.player):
            state += " · 👀 " + marks_summary(shows[seat.player])
        seats.append(
            t(
                "table.seat",
                locale,
                marker=marker,
                name=_name(names, seat.player),
                state=state,
                points=t("count.pts", locale, count=seat.total),
            )
        )
    return seats


def _title(game: Game, locale: object, closed: bool) -> str:
    round_number = game.round_number
    if closed:
        return t("table.title_ended", locale, round=round_number)
    if is_practice(game.players):
        return t("table.title_practice", locale, round=round_number)
    return t("table.title", locale, round=round_number)


def render_table(
    game: Game,
    game_id: int,
    names: Mapping[int, str],
    locale: object = None,
    *,
    log: Sequence[str] = (),
    closed: str | None = None,
    deadline: datetime | None = None,
    last_chance: int = 0,
    pictured: bool = False,
    spectator_view: PlayerView | None = None,
) -> Outgoing:
    """The public table, made to fit a phone: whose turn it is and when it runs out, then the
    picture, then in small print (the footer) the newest log lines, the rules and the goal.

    `pictured` (the table picture will be the embed's image, see cogs/uno/game/requests.py): the
    picture
    shows the top card, the colour, the direction and every seat's count and UNO state, so the
    text does not repeat them (the picture's alt text has them all); otherwise the text says
    all of it. Who may be caught is the picture's red "UNO?" badge (and its alt text), beside
    the Catch button. The round's whole log is behind the Log button.

    `deadline`: when the current turn runs out (the turn timer); `last_chance`: the turns in a
    row the current player already lost to it, when one more removes them (0: no warning).
    `closed` (why the game ended): the table says it ended, without picture, turn, countdown,
    mentions or buttons. A finished match's table carries its results' Rematch / Game record /
    Replay buttons (`rematch_view`). `spectator_view`: `view_for(game, None)`, if the caller
    already has it.
    """
    view = spectator_view or view_for(game, None)
    lines: list[str] = []
    if closed:
        lines.append(closed)
    else:
        if game.rules.deck == "flip112":
            lines.append(side_line(view.dark, locale))
        if not pictured:
            lines += _state_lines(view, locale)
        lines.append(_decision_line(view, names, locale))
        if view.decision is Decision.RESPOND and view.penalty and game.rules.stacking != "off":
            # The running stack: what whoever cannot add to it takes (No Mercy's grow long).
            lines.append(t("table.stack", locale, count=view.penalty))
        lines += _clock_lines(view, names, locale, deadline, last_chance)
    embed = discord.Embed(
        title=_title(game, locale, bool(closed)),
        description="\n".join(lines)[:4096],
        colour=EMBED_COLOUR[view.color],
    )
    if closed or not pictured:
        embed.add_field(
            name=t("table.players", locale),
            value="\n".join(_seat_lines(view, names, locale))[:1024],
            inline=False,
        )
    rules = rules_line(game.rules, locale)
    if game.commitment is not None and not closed:  # the deal's; its seed comes with the results
        commitment = shown_commitment(game.commitment)
        rules += " · " + t("table.commitment", locale, commitment=commitment)
    footer = [*_log_lines(log), rules]
    embed.set_footer(text="\n".join(footer)[-2048:])
    buttons = discord.ui.View(timeout=None)
    if not closed and view.decision is not Decision.MATCH_OVER:
        buttons.add_item(HandButton(game_id, label=t("table.show_hand", locale)))
        if view.decision is Decision.NEXT_ROUND:  # start it now, or ask for more time
            wanted = [_NEXT_ROUND, _WAIT]
        else:  # Catch only while someone has one card and no UNO called
            wanted = [_DRAW, _UNO, *([_CATCH] if game.at_risk else [])]
        for action, key, style, emoji in wanted:
            label = t(key, locale)
            buttons.add_item(
                GameButton(game_id, game.version, action, label=label, style=style, emoji=emoji)
            )
        buttons.add_item(LogButton(game_id, label=t("table.log", locale)))
    elif not closed:  # a finished match: the same buttons as its results, should those be late
        buttons = rematch_view(game_id, locale)
    return Outgoing.of(embed, buttons)


def _state_lines(view: PlayerView, locale: object) -> list[str]:
    """The top card, the colour, the direction and the piles, in words (no picture)."""
    arrow = t("table.clockwise" if view.direction == 1 else "table.counterclockwise", locale)
    lines = []
    if view.top_card is not None:
        lines.append(
            t(
                "table.top",
                locale,
                card=card_text(view.top_card, locale),
                color=color_name(view.color, locale),
                direction=arrow,
            )
        )
    lines.append(t("table.piles", locale, draw=view.draw_pile, discard=view.discard_pile))
    return [*lines, ""]


def render_round_log(
    lines: Sequence[str], round_number: int, locale: object = None
) -> tuple[discord.Embed, str | None]:
    """The whole log of a round, shown privately (the table's Log button): an embed with the
    newest lines that fit, and the whole log as text when they do not all fit (else None)."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > MAX_LOG_EMBED:
            break
        kept.append(line)
    kept.reverse()
    whole = None
    description = "\n".join(kept) or t("table.log_empty", locale)
    if len(kept) < len(lines):
        whole = "\n".join(lines)
        description = t("table.log_more", locale, count=len(lines) - len(kept)) + "\n" + description
    embed = discord.Embed(
        title=t("table.log_title", locale, round=round_number),
        description=description[:4096],
        colour=0x2B2D31,
    )
    return embed, whole


#: Characters of log lines the private log's embed holds (its description takes 4,096).
MAX_LOG_EMBED = 3900


# ----------------------------------------------------------------------------- results


def render_round_result(
    outcome: RoundOutcome,
    names: Mapping[int, str],
    locale: object = None,
    *,
    match: Outcome | None = None,
    practice: bool | None = None,
    left: Collection[int] = (),
    ratings: Mapping[int, tuple[int, int]] | None = None,
    provisional: Collection[int] = (),
    unrated_below: int | None = None,
) -> discord.Embed:
    """A round's result (and the match's, with `match`), made to be short on a phone: who won,
    then the standings, best total first (each with what this round added and the cards they
    held). The round's seed is not repeated here: it is in the game's record (the Game record
    button, `/uno export`: docs/records.md), and the table's countdown and each player's hand
    say when the next round starts. `practice`: one person against computers (by default: so
    when the round's players are); it says so, counted for nobody. `left`: players out of the
    game (left, removed, kicked), named so rather than as having scored nothing. `ratings`:
    each player's skill rating (before, after) when the match was rated, `provisional` those
    whose rating is still provisional (shown so, not as a number and a change);
    `unrated_below`: the match was not rated because its hands were smaller than this."""
    if practice is None:
        practice = is_practice(list(outcome.totals))
    if outcome.winner is None:
        head = t("result.nobody", locale, round=outcome.round_number)
    else:
        head = t(
            "result.winner", locale, round=outcome.round_number, name=_name(names, outcome.winner)
        )
    rows = []
    # Knocked out by the mercy rule: in the round (scored) without a hand left to count.
    knocked_out = {p for p in outcome.points if p not in outcome.cards_left}
    order = sorted(
        outcome.totals, key=lambda p: (p in left, p in knocked_out, -outcome.totals[p], p)
    )
    for p in order:
        if p in left:
            rows.append(t("result.row_left", locale, name=_name(names, p), total=outcome.totals[p]))
            continue
        if p in knocked_out:
            row = t("result.row_knocked_out", locale, name=_name(names, p), total=outcome.totals[p])
            rows.append(row)
            continue
        rows.append(
            t(
                "result.row",
                locale,
                name=_name(names, p),
                points=outcome.points.get(p, 0),
                cards=t("count.cards", locale, count=outcome.cards_left.get(p, 0)),
                total=outcome.totals.get(p, 0),
            )
        )
    lines = [head, *rows]
    if match is not None:
        winners = ", ".join(_name(names, w) for w in match.winners) or "-"
        lines += ["", t("result.match_winner", locale, names=winners)]
        if ratings:
            lines.append(rating_changes_line(ratings, names, locale, provisional))
        elif unrated_below is not None and not practice:
            lines.append(t("result.unrated_hand", locale, min=unrated_below))
    if practice:
        lines.append(t("result.practice", locale))
    return discord.Embed(
        title=t("result.title", locale, round=outcome.round_number),
        description="\n".join(lines)[:4096],
        colour=0xF1C40F,
    )


def rating_changes_line(
    ratings: Mapping[int, tuple[int, int]],
    names: Mapping[int, str],
    locale: object = None,
    provisional: Collection[int] = (),
) -> str:
    """One line: each rated player's new rating and its change, best rating first; a player
    whose rating is still provisional (a newcomer) is said to be so, without numbers: a first
    loss is nobody's business."""
    order = sorted(ratings, key=lambda p: (p in provisional, -ratings[p][1], p))
    changes = ", ".join(
        t("result.rating_provisional", locale, name=_name(names, p))
        if p in provisional
        else t(
            "result.rating_change",
            locale,
            name=_name(names, p),
            rating=ratings[p][1],
            change=f"{ratings[p][1] - ratings[p][0]:+d}",
        )
        for p in order
    )
    return t("result.ratings", locale, changes=changes)


def rematch_view(game_id: int, locale: object = None) -> discord.ui.View:
    """The buttons under a finished match's result: Rematch (cogs/uno/lobby/rematch.py), its
    record and its last round's replay (cogs/uno/records/exports.py)."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, label=t("result.rematch", locale)))
    view.add_item(RecordButton(game_id, label=t("result.record", locale)))
    view.add_item(ReplayButton(game_id, label=t("result.replay", locale)))
    return view
