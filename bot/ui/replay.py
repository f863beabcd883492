"""A finished round to watch (`/uno replay`): its record replayed by the engine's verifier, the
public table read at every turn and drawn as an animated picture (art/replay.py).

Each frame's caption says what its turn did ("Ada played Red 7 · Ben drew 2 cards"), in the
language it is posted in: the record's actions, worded from the events the replay gives.

Only the table is drawn, as a spectator saw it: the top card, the colour, the direction, each
seat's card count and UNO state (`table_state` reads the spectator's view). The record holds the
seed, so it could show every hand; the replay does not, so it shows nothing a player of the
round did not see and is safe to post in the channel.

`replay_file` is the whole job, from the record (plain JSON-able data, cheap to send) to the
file's bytes, so the bot runs it in a worker process: replaying a long match and drawing a few
hundred pictures would hold the event loop for a second or more.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from bot.engine import events as E
from bot.engine.record import build_record
from bot.engine.verify import Mismatch, Replay
from bot.i18n import t
from bot.ui.art.encode import warm_up
from bot.ui.art.replay import FILENAME_EXTENSION, MAX_BYTES, MAX_FRAMES, encode_gif, plan_frames
from bot.ui.art.table_picture import TableState
from bot.ui.cards import card_name
from bot.ui.pictures import table_state
from bot.ui.story import sentence, tell

__all__ = [
    "FILENAME_EXTENSION",
    "Mismatch",
    "ReplayFile",
    "replay_file",
    "replay_from_parts",
    "round_states",
]


@dataclass(frozen=True, slots=True)
class ReplayFile:
    """The encoded replay: its frames (after merging, spreading and thinning) of `turns`."""

    data: bytes
    frames: int
    turns: int


def round_states(record: Mapping[str, Any], round_number: int) -> list[TableState]:
    """The public table of round `round_number` at its deal and after each of its actions, as
    the record replays (`Mismatch` if it does not, or has no such round); at the end of a
    round won by play, the winner's seat is the one lit."""
    return round_frames(record, round_number)[0]


def round_frames(
    record: Mapping[str, Any], round_number: int, locale: object = None
) -> tuple[list[TableState], list[str]]:
    """`round_states`, and for each what happened in its turn, in `locale`'s words
    (`caption`)."""
    replay = Replay(record)
    states: list[TableState] = []
    captions: list[str] = []
    winner: str | None = None
    for step in replay.steps():  # (the rounds before are replayed, not drawn: they deal this one)
        if step.round_number > round_number:
            break
        if step.round_number == round_number:
            state = table_state(step.game, replay.names)
            if state is not None:
                states.append(state)
                if step.action == 0:
                    card = card_name(state.top, locale)
                    said = t("log.round_started", locale, round=round_number, card=card)
                else:
                    said = caption(step.events, replay.names, locale)
                captions.append(said)
            outcome = step.game.round_outcome
            if outcome is not None and outcome.round_number == round_number:
                winner = replay.names.get(outcome.winner) if outcome.winner is not None else None
    if not states:
        raise Mismatch(f"round {round_number} cannot be replayed from this record")
    if winner is not None:  # the last picture says who won: their seat lit, at 0 cards
        last = states[-1]
        seats = tuple(replace(s, current=s.name == winner and s.cards == 0) for s in last.seats)
        states[-1] = replace(last, seats=seats)
        won = t("log.round_ended", locale, round=round_number, name=winner)
        captions[-1] = t("story.then", locale).join(filter(None, (won, captions[-1])))
    return states, captions


def caption(events: Iterable[E.Event], names: Mapping[int, str], locale: object = None) -> str:
    """What a turn's `events` did, in one line: the table log's own words ("Ada played 🟥 Red 7
    · Ben drew 2 cards", story.py), its markdown escapes undone, for it is drawn, not read as
    markdown (and the picture leaves the emoji out: "Ada played Red 7")."""
    told = sentence(tell(events, names, locale), names, locale)
    return _ESCAPED.sub(r"\1", told)


#: A character names.literal escaped with a backslash.
_ESCAPED: Final = re.compile(r"\\(.)")


def replay_file(
    record: Mapping[str, Any],
    round_number: int,
    *,
    locale: object = None,
    max_frames: int = MAX_FRAMES,
    max_bytes: int = MAX_BYTES,
) -> ReplayFile:
    """Round `round_number` of `record` as an animated GIF, its captions in `locale`'s words
    (the worker process's job)."""
    states, captions = round_frames(record, round_number, locale)
    planned = plan_frames(states, captions=captions, max_frames=max_frames)
    data, frames = encode_gif(planned, max_bytes=max_bytes)
    return ReplayFile(data, frames, len(states) - 1)


def warm_up_replays() -> int:
    """The replay process's start: every face and the table's palette drawn once, so the first
    replay is as quick as the next (this module, imported to run this, brings the engine)."""
    return warm_up()


def replay_from_parts(
    parts: Mapping[str, Any], round_number: int, locale: object = None
) -> ReplayFile:
    """`replay_file` of the record `build_record(**parts)` builds: the record is built in the
    worker too (it replays the match to name each round's dealer)."""
    return replay_file(build_record(**parts), round_number, locale=locale)
