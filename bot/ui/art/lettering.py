"""The font players' names are drawn in, which characters it draws, and a box for those it lacks.

Names are drawn in Roboto (the `fontpkg-roboto` package, OFL-1.1): every Latin alphabet the bot
speaks, with all their letters (æøå, äöüß, ąęłńśźż, ç, ã, ñ, ...), Greek and Cyrillic, exactly as
written. It has no CJK, emoji or right-to-left scripts, and no font small enough to ship has
them all, so each character the font lacks is drawn as a hollow box (a "tofu", as a browser
without the font would show it): the name visibly takes its place and its length shows, and the
alt text (alt.py) says the exact name. Names are never transliterated.

The font is opened once per process and size (the picture workers); if the package's file
cannot be opened, Pillow's built-in font takes over (ASCII only: the rest becomes boxes), logged
once.
"""

from __future__ import annotations

import logging
import unicodedata
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

from PIL import ImageDraw, ImageFont

from bot.ui.art.palette import RGB

log = logging.getLogger(__name__)

FONT_PACKAGE: Final = "fontpkg_roboto"
# Stands for a character the font lacks; a private-use character, which no font of ours draws,
# so a name that contains it gets a box for it like for any other missing character.
TOFU: Final = "\U000f0000"

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def font_path() -> Path | None:
    """The upright font file of FONT_PACKAGE, checked to open; None (logged once) if it cannot."""
    try:
        files = resources.files(FONT_PACKAGE) / "files"
        path = next(
            Path(str(f))
            for f in sorted(files.iterdir(), key=lambda f: f.name)
            if f.name.endswith(".ttf") and "Italic" not in f.name
        )
        ImageFont.truetype(path, 12)
    except (ImportError, OSError, StopIteration) as error:
        log.warning("no font for names (%s), Pillow's built-in font draws ASCII only", error)
        return None
    return path


@cache
def name_font(size: int) -> Font:
    """The names' font at `size` px, opened once per process and size."""
    path = font_path()
    return ImageFont.load_default(size=size) if path is None else ImageFont.truetype(path, size)


@cache
def _notdef(size: int) -> tuple[bytes, float]:
    f = name_font(size)
    return bytes(f.getmask(TOFU)), f.getlength(TOFU)


@cache
def has_glyph(char: str, size: int = 20) -> bool:
    """Whether the names' font draws `char` (a missing one renders as the font's .notdef)."""
    if char == " ":
        return True
    f = name_font(size)
    return (bytes(f.getmask(char)), f.getlength(char)) != _notdef(size)


def _mark(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me")


def _letter(char: str) -> str:
    """`char` as drawn: itself, else its compatibility form if the font draws that (styled and
    full-width letters: "𝓐" -> "A", "Ａ" -> "A"), else TOFU."""
    if has_glyph(char):
        return char
    folded = unicodedata.normalize("NFKC", char)
    if folded != char and folded.strip() and all(has_glyph(c) for c in folded):
        return folded
    return TOFU


def drawable(text: str) -> str:
    """`text` as the names are drawn: composed (NFC), control and format characters dropped,
    spaces collapsed, each character the font lacks replaced by TOFU (its accents with it)."""
    out: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if char.isspace():
            out.append(" ")
        elif category in ("Cc", "Cf", "Cs"):
            continue
        elif _mark(char):
            # a mark sits on the letter before it: none, a space or a box has nothing to carry it
            if out and out[-1] not in (" ", TOFU) and has_glyph(char):
                out.append(char)
        else:
            out.append(_letter(char))
    return " ".join("".join(out).split())


@cache
def _box(size: int) -> tuple[int, int, int, int]:
    """A box's advance, its stroke, and its top and bottom against the text's middle: as high as
    a capital letter, a little narrower."""
    f = name_font(size)
    _, top, _, bottom = f.getbbox("H", anchor="lm")
    return max(4, round(size * 0.6)), max(1, round(size / 14)), round(top), round(bottom)


def _runs(text: str) -> list[str]:
    """`text` cut into runs of drawable characters and single TOFUs."""
    runs: list[str] = []
    for char in text:
        if char != TOFU and runs and runs[-1] != TOFU:
            runs[-1] += char
        else:
            runs.append(char)
    return runs


def text_width(text: str, size: int) -> float:
    """How wide `text` (from `drawable`) is drawn at `size`."""
    f = name_font(size)
    advance = _box(size)[0]
    return sum(advance if run == TOFU else f.getlength(run) for run in _runs(text))


def draw_name(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: RGB
) -> None:
    """`text` (from `drawable`) from `xy`, left and middle, each TOFU as a hollow box."""
    f = name_font(size)
    advance, stroke, top, bottom = _box(size)
    x, y = xy
    for run in _runs(text):
        if run == TOFU:
            gap = max(1, advance // 6)
            draw.rectangle(
                (x + gap, y + top, x + advance - gap, y + bottom), outline=fill, width=stroke
            )
            x += advance
        else:
            draw.text((x, y), run, font=f, fill=fill, anchor="lm")
            x += f.getlength(run)
