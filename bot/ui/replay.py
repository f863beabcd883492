"""A finished round to watch (`/uno replay`): its record replayed by the engine's verifier, the
public table read at every turn and drawn as an animated picture (art/replay.py).

Only the table is drawn, as a spectator saw it: the top card, the colour, the direction, each
seat's card count and UNO state (`table_state` reads the spectator's view). The record holds the
seed, so it could show every hand; the replay does not, so it shows nothing a player of the
round did not see and is safe to post in the channel.

`replay_file` is the whole job, from the record (plain JSON-able data, cheap to send) to the
file's bytes, so the bot runs it in a worker process: replaying a long match and drawing a few
hundred pictures would hold the event loop for a second or more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.engine.record import build_record
from bot.engine.verify import Mismatch, Replay
from bot.ui.art.encode import warm_up
from bot.ui.art.replay import FILENAME_EXTENSION, MAX_BYTES, MAX_FRAMES, encode_gif, plan_frames
from bot.ui.art.table_picture import TableState
from bot.ui.pictures import table_state

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
    replay = Replay(record)
    states: list[TableState] = []
    winner: str | None = None
    for step in replay.steps():  # (the rounds before are replayed, not drawn: they deal this one)
        if step.round_number > round_number:
            break
        if step.round_number == round_number:
            state = table_state(step.game, replay.names)
            if state is not None:
                states.append(state)
            outcome = step.game.round_outcome
            if outcome is not None and outcome.round_number == round_number:
                winner = replay.names.get(outcome.winner) if outcome.winner is not None else None
    if not states:
        raise Mismatch(f"round {round_number} cannot be replayed from this record")
    if winner is not None:  # the last picture says who won: their seat lit, at 0 cards
        last = states[-1]
        seats = tuple(replace(s, current=s.name == winner and s.cards == 0) for s in last.seats)
        states[-1] = replace(last, seats=seats)
    return states


def replay_file(
    record: Mapping[str, Any],
    round_number: int,
    *,
    max_frames: int = MAX_FRAMES,
    max_bytes: int = MAX_BYTES,
) -> ReplayFile:
    """Round `round_number` of `record` as an animated GIF (the worker process's job)."""
    states = round_states(record, round_number)
    data, frames = encode_gif(plan_frames(states, max_frames=max_frames), max_bytes=max_bytes)
    return ReplayFile(data, frames, len(states) - 1)


def warm_up_replays() -> int:
    """The replay process's start: every face and the table's palette drawn once, so the first
    replay is as quick as the next (this module, imported to run this, brings the engine)."""
    return warm_up()


def replay_from_parts(parts: Mapping[str, Any], round_number: int) -> ReplayFile:
    """`replay_file` of the record `build_record(**parts)` builds: the record is built in the
    worker too (it replays the match to name each round's dealer)."""
    return replay_file(build_record(**parts), round_number)
