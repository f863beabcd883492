"""A round's replay as one animated GIF: the table picture at each turn, a progress bar under it.

GIF rather than animated WebP, by measurement and by where it plays (benchmarks/replay.py; the
figures: docs/benchmarks.md, "Replays"): GIF is smaller than lossless WebP and faster than
lossy WebP, which also puts colour fringes on the flat art. And every Discord client animates a
GIF, while animated WebP attachments animate only in recent ones. The
table's 48-colour palette (encode.py) fits GIF's 256, so nothing is lost.

Each frame says what happened in its turn ("Ada played Red 7") on a line under the table, in
the server's language (bot/ui/replay.py words it), so a replay tells who played what without
reading the counts.

Long rounds stay watchable and small: turns come faster past `BRISK_TURNS` (down to
`MIN_TURN_MS`), at most `MAX_FRAMES` frames are kept (evenly spread, the first and last always),
and a file over `MAX_BYTES` loses every other frame until it fits: a replay never fails for
its size.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.ui.art.encode import table_palette_for
from bot.ui.art.palette import FELT, HIGHLIGHT
from bot.ui.art.table_picture import NAME_TONE, TableState, picture_size, table_picture
from bot.ui.art.text import name_label

FILENAME_EXTENSION: Final = "gif"
#: A turn on screen: long enough to read the table on a phone, short enough to keep watching.
TURN_MS: Final = 1000
#: The last frame (who won, who was left with what) stays before the loop starts again.
LAST_MS: Final = 4000
#: Rounds longer than this many turns play faster, so they last about BRISK_TURNS seconds...
BRISK_TURNS: Final = 60
#: ... but a turn never flashes by quicker than this.
MIN_TURN_MS: Final = 400
#: Frames kept at most: 300 turns at the quickest pace are two minutes.
MAX_FRAMES: Final = 300
#: The file's limit: under Discord's 10 MiB for an attachment, with room to spare.
MAX_BYTES: Final = 8 * 1000 * 1000
#: The progress bar's height under the table (px).
BAR: Final = 4
#: The caption's line under the table: its height and its text's size (px).
CAPTION: Final = 30
CAPTION_SIZE: Final = 17
CAPTION_TONE: Final = NAME_TONE


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the replay: the table after turn `turn` (0: the deal) of `turns`, and
    what happened in that turn (`caption`; empty: nothing to say)."""

    state: TableState
    turn: int
    ms: int
    caption: str = ""


def turn_ms(turns: int) -> int:
    """How long each turn shows in a round of `turns` turns."""
    if turns <= BRISK_TURNS:
        return TURN_MS
    return max(MIN_TURN_MS, TURN_MS * BRISK_TURNS // turns)


def plan_frames(
    states: Sequence[TableState],
    *,
    captions: Sequence[str] = (),
    max_frames: int = MAX_FRAMES,
) -> list[Frame]:
    """The frames of a replay of `states` (the deal, then the table after each turn), each
    with its caption from `captions` (as many as `states`, or none): one per turn, a turn that
    changed neither the table nor its caption merged into the one before (its time added), at
    most `max_frames` (evenly spread over the round, the first and last kept), the last one
    held LAST_MS."""
    if not states:
        return []
    turns = len(states) - 1
    pace = turn_ms(turns)
    said = list(captions) or [""] * len(states)
    frames: list[Frame] = []
    for turn, (state, caption) in enumerate(zip(states, said, strict=True)):
        last = frames[-1] if frames else None
        if last is not None and last.state == state and caption in ("", last.caption):
            frames[-1] = Frame(last.state, turn, last.ms + pace, last.caption)
        else:
            frames.append(Frame(state, turn, pace, caption))
    frames = _spread(frames, max(2, max_frames))
    last = frames[-1]
    frames[-1] = Frame(last.state, last.turn, LAST_MS, last.caption)
    return frames


def _spread(frames: list[Frame], keep: int) -> list[Frame]:
    """`keep` of `frames`, evenly spread, the first and the last among them; each kept frame
    shows for the time of those it stands for (the replay's pace holds)."""
    if len(frames) <= keep:
        return frames
    step = (len(frames) - 1) / (keep - 1)
    picked = sorted({round(i * step) for i in range(keep)})
    out = []
    for k, index in enumerate(picked):
        end = picked[k + 1] if k + 1 < len(picked) else len(frames)
        ms = sum(f.ms for f in frames[index:end])
        kept = frames[index]
        out.append(Frame(kept.state, kept.turn, ms, kept.caption))
    return out


def frame_picture(frame: Frame, turns: int, *, captioned: bool = False) -> Image.Image:
    """The table of `frame` with the round's progress as a bar along its bottom edge; when
    `captioned`, the frame's caption on a line of its own under the bar."""
    table = table_picture(frame.state)
    width, height = table.size
    image = Image.new("RGB", (width, height + BAR + (CAPTION if captioned else 0)), FELT)
    image.paste(table, (0, 0))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, height, width - 1, height + BAR - 1), fill=(0, 0, 0))
    done = round(width * frame.turn / turns) if turns else width
    if done:
        draw.rectangle((0, height, done - 1, height + BAR - 1), fill=HIGHLIGHT)
    if captioned and frame.caption:
        line = name_label(frame.caption, width - 16, CAPTION, CAPTION_TONE, CAPTION_SIZE)
        image.paste(line, (8, height + BAR), line)
    return image


def encode_gif(frames: Sequence[Frame], *, max_bytes: int = MAX_BYTES) -> tuple[bytes, int]:
    """The animated GIF of `frames` (looping) and how many frames it holds: every other frame
    dropped (the first and last kept) until it is at most `max_bytes`."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    turns = max(f.turn for f in frames)
    palette = table_palette_for(frames[0].state)  # (UNO Flip's tables have their own)
    captioned = any(f.caption for f in frames)
    size = max(
        (picture_size(len(f.state.seats), f.state.flip) for f in frames), key=lambda s: s[1]
    )  # (a seat that left shrinks the table: every frame gets the tallest size)
    full = size[1] + BAR + (CAPTION if captioned else 0)
    pictures = []
    for frame in frames:
        image = frame_picture(frame, turns, captioned=captioned)
        if image.height < full:  # (the table padded, the bar and caption kept at the bottom)
            padded = Image.new("RGB", (size[0], full), image.getpixel((0, 0)))
            table_h = image.height - (full - size[1])
            padded.paste(image.crop((0, 0, image.width, table_h)), (0, 0))
            padded.paste(image.crop((0, table_h, image.width, image.height)), (0, size[1]))
            image = padded
        pictures.append(image.quantize(palette=palette, dither=Image.Dither.NONE))
    kept = list(range(len(frames)))
    while True:
        ends = [*kept[1:], len(frames)]
        durations = [sum(f.ms for f in frames[i:end]) for i, end in zip(kept, ends, strict=True)]
        data = _gif([pictures[i] for i in kept], durations)
        if len(data) <= max_bytes or len(kept) <= 2:
            return data, len(kept)
        last = kept[-1]
        kept = [*kept[:-1][::2], last]  # (each kept frame takes the time of those dropped)


def _gif(pictures: Sequence[Image.Image], durations: Sequence[int]) -> bytes:
    buffer = io.BytesIO()
    pictures[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=list(pictures[1:]),
        duration=list(durations),
        loop=0,
        disposal=1,  # each frame stays under the next, which then holds only what changed
    )
    return buffer.getvalue()
