"""A round to watch (bot/ui/replay.py, bot/ui/art/replay.py): one frame per turn, long rounds
spread over at most MAX_FRAMES frames, every file within its byte limit, and nothing in any
frame but the public table."""

from __future__ import annotations

import io
from dataclasses import fields
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageSequence

from bot.engine import Game, view_for
from bot.engine import events as E
from bot.engine.record import build_record
from bot.engine.verify import Mismatch, Replay
from bot.i18n import t
from bot.ui.art.encode import table_palette
from bot.ui.art.replay import (
    BAR,
    CAPTION,
    LAST_MS,
    MAX_BYTES,
    MAX_FRAMES,
    TURN_MS,
    Frame,
    encode_gif,
    frame_picture,
    plan_frames,
    turn_ms,
)
from bot.ui.art.table_picture import SeatState, TableState, picture_size
from bot.ui.cards import card_text
from bot.ui.replay import replay_file, replay_from_parts, round_frames, round_states
from testing.fakediscord.markdown import plain
from tests.engine.matches import PLAYERS, recorded_match


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return build_record(**recorded_match(7))


def _round_lengths(record: dict[str, Any]) -> list[int]:
    return [len(r["actions"]) for r in record["rounds"]]


def _gif_frames(data: bytes) -> list[tuple[Image.Image, int]]:
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.is_animated
    return [(f.convert("RGB"), f.info["duration"]) for f in ImageSequence.Iterator(gif)]


def test_a_round_is_one_frame_per_turn_each_a_second_the_last_held(record) -> None:
    lengths = _round_lengths(record)
    number = next(n for n, k in enumerate(lengths, start=1) if k < MAX_FRAMES and k <= 60)
    turns = lengths[number - 1]
    made = replay_file(record, number)
    frames = _gif_frames(made.data)
    assert made.turns == turns and made.frames == turns + 1 == len(frames)
    assert [ms for _, ms in frames] == [TURN_MS] * turns + [LAST_MS]
    assert len(made.data) <= MAX_BYTES


def test_a_long_round_is_spread_over_max_frames_played_faster() -> None:
    # Random legal moves make rounds of hundreds or thousands of turns: a long round for free.
    record = build_record(**recorded_match(1))
    lengths = _round_lengths(record)
    number = max(range(1, len(lengths) + 1), key=lambda n: lengths[n - 1])
    turns = lengths[number - 1]
    assert turns > 2 * MAX_FRAMES
    made = replay_file(record, number)
    frames = _gif_frames(made.data)
    assert made.frames == len(frames) == MAX_FRAMES and made.turns == turns
    assert len(made.data) <= MAX_BYTES
    pace = turn_ms(turns)
    assert pace < TURN_MS
    # Every turn's time is still there: the kept frames stand for the ones left out.
    shown = sum(ms for _, ms in frames[:-1])
    assert abs(shown - pace * turns) <= 10 * len(frames)  # (GIF keeps centiseconds)
    assert frames[-1][1] == LAST_MS


def test_a_file_over_its_byte_limit_loses_frames_until_it_fits(record) -> None:
    number = max(range(1, len(record["rounds"]) + 1), key=lambda n: _round_lengths(record)[n - 1])
    full = replay_file(record, number)
    limit = len(full.data) // 3
    thinned = replay_file(record, number, max_bytes=limit)
    assert len(thinned.data) <= limit
    assert 2 <= thinned.frames < full.frames // 2
    assert len(_gif_frames(thinned.data)) == thinned.frames
    # A limit nothing fits: the first and last frames still come, it never fails.
    tiny = replay_file(record, number, max_bytes=1)
    assert tiny.frames == 2 and len(_gif_frames(tiny.data)) == 2


def test_turns_that_change_nothing_on_the_table_share_a_frame() -> None:
    seats = (SeatState("Ada", 7, True), SeatState("Bo", 7))
    a = TableState(Game.start([1, 2], seed=1)[0].top_card, None, True, seats, 90)
    b = TableState(a.top, a.color, False, seats, 89)
    frames = plan_frames([a, a, b, b, b, a])
    assert [(f.state, f.turn, f.ms) for f in frames] == [
        (a, 1, 2 * TURN_MS),
        (b, 4, 3 * TURN_MS),
        (a, 5, LAST_MS),
    ]


def test_the_frames_are_the_public_table_and_nothing_else(record) -> None:
    """What a frame can show is a `TableState`: the top card, the colour, the direction, each
    seat's name, card count and UNO state, the draw pile's size. At every turn the replay's
    state is the spectator's view of the game (no hand), and the GIF's pixels are exactly
    those states drawn: no card of any hand is in the file."""
    number = 1
    turns = _round_lengths(record)[0]
    assert turns < MAX_FRAMES
    states = round_states(record, number)
    replay = Replay(record)
    seen = [
        (view_for(step.game, None), {p: step.game.hand(p) for p in step.game.players})
        for step in replay.steps()
        if step.round_number == number
    ]
    assert len(states) == len(seen) == turns + 1
    assert [f.name for f in fields(TableState)] == [
        "top",
        "color",
        "clockwise",
        "seats",
        "draw_pile",
        "dark",  # UNO Flip: the side in play, and the other side of the draw pile's top
        "pile_top",  # card, which everybody sees (the spectator's view: PlayerView.pile_back)
    ]
    for state, (view, hands) in zip(states[:-1], seen[:-1], strict=True):
        assert view.hand == () and state.top == view.top_card
        assert [s.cards for s in state.seats] == [len(hands[p]) for p, _ in PLAYERS]
    # The file's pixels: each frame is its public state drawn, with its caption, to the pixel.
    made = replay_file(record, number)
    _, captions = round_frames(record, number)
    frames = plan_frames(states, captions=captions)
    palette = table_palette()
    for (picture, _), frame in zip(_gif_frames(made.data), frames, strict=True):
        drawn = frame_picture(frame, turns, captioned=True)
        expected = drawn.quantize(palette=palette, dither=0).convert("RGB")
        assert picture.size == expected.size
        assert ImageChops.difference(picture, expected).getbbox() is None


@pytest.mark.parametrize("locale", ["en", "de", "no"])
def test_each_frame_says_who_played_what_in_the_server_s_language(record, locale: str) -> None:
    """Every turn's caption names its player and, for a play, the card, in the table log's
    words of `locale`; the deal and the win have theirs; and the GIF's frames show them."""
    names = dict(PLAYERS)
    states, captions = round_frames(record, 1, locale)
    assert len(captions) == len(states)
    assert captions[0].startswith(t("log.round_started", locale, round=1, card="")[:6])
    steps = [s for s in Replay(record).steps() if s.round_number == 1]
    played = 0
    for step, said in zip(steps[1:], captions[1:], strict=True):
        for event in step.events:
            if isinstance(event, E.CardPlayed):
                played += 1
                card = t("turn.played", locale, card=card_text(event.card, locale))
                assert f"{names[event.player]} {card}" in plain(said), (said, event)
        assert said, step.events  # every action says something
    assert played > 3
    winner = names[record["rounds"][0]["result"]["winner"]]
    assert captions[-1].startswith(t("log.round_ended", locale, round=1, name=winner))
    # the frames differ in their caption's line alone where the table did not change
    made = replay_file(record, 1, locale=locale)
    height = picture_size(len(states[0].seats))[1] + BAR + CAPTION
    pictures = [p for p, _ in _gif_frames(made.data)]
    assert {p.size[1] for p in pictures} == {height}
    english = replay_file(record, 1, locale="en")
    if locale != "en":
        assert english.data != made.data


def test_the_last_frame_lights_the_winner() -> None:
    record = build_record(**recorded_match(7))
    outcome = record["rounds"][0]["result"]
    names = dict(PLAYERS)
    last = round_states(record, 1)[-1]
    lit = [s.name for s in last.seats if s.current]
    assert lit == [names[outcome["winner"]]]


def test_a_round_that_is_not_there_or_does_not_replay_is_a_mismatch(record) -> None:
    with pytest.raises(Mismatch):
        round_states(record, len(record["rounds"]) + 1)
    altered = {**record, "rounds": [dict(r) for r in record["rounds"]]}
    altered["rounds"][0]["actions"] = [[11, "play:W4"], *record["rounds"][0]["actions"]]
    with pytest.raises(Mismatch):
        round_states(altered, 1)


def test_the_worker_builds_the_record_from_its_parts() -> None:
    parts = recorded_match(7)
    assert replay_from_parts(parts, 1) == replay_file(build_record(**parts), 1)


def test_encode_needs_a_frame() -> None:
    with pytest.raises(ValueError):
        encode_gif([])
    seats = (SeatState("Ada", 1), SeatState("Bo", 0, True))
    state = TableState(Game.start([1, 2], seed=1)[0].top_card, None, True, seats, 9)
    data, count = encode_gif([Frame(state, 0, LAST_MS)])
    assert count == 1 and Image.open(io.BytesIO(data)).format == "GIF"
