"""The fonts players' names are drawn in, which characters they draw, and what stands for the rest.

Names are drawn in Roboto (the `fontpkg-roboto` package, OFL-1.1): every Latin alphabet the bot
speaks, with all their letters (æøå, äöüß, ąęłńśźż, ç, ã, ñ, ...), Greek and Cyrillic, exactly as
written. Arabic letters come from Noto Sans Arabic (`fontpkg-noto-sans-arabic`, OFL-1.1, a
0.5 MB wheel), shaped and written right to left by Pillow's layout engine. CJK has no font small
enough to ship (the smallest packaged Noto Sans CJK is a 27 MB wheel), so a letter no font has
is written as its transliteration (`anyascii`: "山田" -> "ShanTian", "김" -> "Gim"), readable on
a phone where a box is not. A symbol no font has (an emoji) is left out; a name made of nothing
else is spelled out ("😀" -> "grinning"). The alt text (alt.py) and every message's text keep
the exact name: a picture is never the only place a name is written.

Which characters a font draws is read from its own character map (`cmap` table; `_cmap_codes`):
measuring a rendered glyph against the font's .notdef box cannot tell a missing glyph from one
drawn alike.

Each font is opened once per process and size (the picture workers); if a package's file cannot
be opened, it is left out (logged once), and without Roboto Pillow's built-in font draws the
ASCII letters (everything else transliterated).
"""

from __future__ import annotations

import logging
import struct
import unicodedata
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

from anyascii import anyascii
from PIL import ImageDraw, ImageFont

from bot.ui.art.palette import RGB

log = logging.getLogger(__name__)

FONT_PACKAGE: Final = "fontpkg_roboto"
#: The fonts tried for a character Roboto lacks, in order.
FALLBACK_PACKAGES: Final = ("fontpkg_noto_sans_arabic",)
#: What Pillow's built-in font draws (it stands in when Roboto cannot be opened).
_BUILT_IN_CODES: Final = frozenset(range(0x20, 0x7F))

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _package_font(package: str) -> Path | None:
    """The upright font file of `package`, checked to open; None (logged once) if it cannot."""
    try:
        files = resources.files(package) / "files"
        path = next(
            Path(str(f))
            for f in sorted(files.iterdir(), key=lambda f: f.name)
            if f.name.endswith(".ttf") and "Italic" not in f.name
        )
        ImageFont.truetype(path, 12)
    except (ImportError, OSError, StopIteration) as error:
        log.warning("no font from %s (%s): names it would draw are transliterated", package, error)
        return None
    return path


@cache
def font_path() -> Path | None:
    """Roboto's file; None (logged once) if it cannot be opened."""
    return _package_font(FONT_PACKAGE)


@cache
def _font_files() -> tuple[Path | None, ...]:
    """The names' fonts in order of preference: Roboto (None: the built-in font), then each
    fallback that opens."""
    fallbacks = (_package_font(p) for p in FALLBACK_PACKAGES)
    return (font_path(), *(p for p in fallbacks if p is not None))


def _cmap_codes(path: Path) -> frozenset[int]:
    """The code points `path`'s character map gives a glyph (TrueType/OpenType `cmap` table,
    its Unicode subtables of format 4 and 12)."""
    data = path.read_bytes()
    tables = struct.unpack_from(">H", data, 4)[0]
    found = (struct.unpack_from(">4s4xI", data, 12 + 16 * i) for i in range(tables))
    cmap = next((offset for tag, offset in found if tag == b"cmap"), None)
    codes: set[int] = set()
    if cmap is None:
        return frozenset()
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, sub = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        if not (platform == 0 or (platform == 3 and encoding in (1, 10))):
            continue
        at = cmap + sub
        kind = struct.unpack_from(">H", data, at)[0]
        if kind == 4:
            segments = struct.unpack_from(">H", data, at + 6)[0] // 2
            ends = struct.unpack_from(f">{segments}H", data, at + 14)
            starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
            deltas = struct.unpack_from(f">{segments}h", data, at + 16 + 4 * segments)
            range_at = at + 16 + 6 * segments
            ranges = struct.unpack_from(f">{segments}H", data, range_at)
            for k in range(segments):
                for code in range(starts[k], ends[k] + 1):
                    if code == 0xFFFF:
                        continue
                    if ranges[k]:
                        where = range_at + 2 * k + ranges[k] + 2 * (code - starts[k])
                        glyph = struct.unpack_from(">H", data, where)[0]
                        glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                    else:
                        glyph = (code + deltas[k]) & 0xFFFF
                    if glyph:
                        codes.add(code)
        elif kind == 12:
            for g in range(struct.unpack_from(">I", data, at + 12)[0]):
                first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
                codes.update(range(first + (glyph == 0), last + 1))
    return frozenset(codes)


@cache
def _coverage() -> tuple[frozenset[int], ...]:
    """What each font of `_font_files` draws."""
    return tuple(_BUILT_IN_CODES if p is None else _cmap_codes(p) for p in _font_files())


@cache
def _fonts(size: int) -> tuple[Font, ...]:
    return tuple(
        ImageFont.load_default(size=size) if p is None else ImageFont.truetype(p, size)
        for p in _font_files()
    )


def name_font(size: int) -> Font:
    """The names' main font (Roboto) at `size` px, opened once per process and size."""
    return _fonts(size)[0]


def font_for(char: str) -> int | None:
    """The index (in the fonts' order) of the first font that draws `char`; None if none does."""
    code = ord(char)
    return next((i for i, codes in enumerate(_coverage()) if code in codes), None)


def has_glyph(char: str) -> bool:
    """Whether a names' font draws `char`."""
    return char == " " or font_for(char) is not None


def _mark(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me")


def _letter(char: str) -> str:
    """`char` as drawn: itself; else its compatibility form if drawn (styled and full-width
    letters: "𝓐" -> "A", "Ａ" -> "A"); else a letter's or digit's transliteration ("山" ->
    "Shan"); else nothing (a symbol: an emoji)."""
    if has_glyph(char):
        return char
    folded = unicodedata.normalize("NFKC", char)
    if folded != char and folded.strip() and all(has_glyph(c) for c in folded):
        return folded
    if unicodedata.category(char)[0] in "LN":
        spelled = anyascii(char)
        if spelled.strip() and all(has_glyph(c) for c in spelled):
            return spelled
    return ""


def drawable(text: str) -> str:
    """`text` as the names are drawn: composed (NFC), control and format characters dropped,
    spaces collapsed, each character no font draws transliterated or left out (`_letter`);
    never empty for a name with something visible in it."""
    out: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if char.isspace():
            out.append(" ")
        elif category in ("Cc", "Cf", "Cs"):
            continue
        elif _mark(char):
            # a mark sits on the letter before it, drawn in the same font
            if out and out[-1][-1:].strip() and font_for(char) == font_for(out[-1][-1]):
                out.append(char)
        else:
            out.append(_letter(char))
    shown = " ".join("".join(out).split())
    if not any(c.isalnum() for c in shown) and text.strip():
        spelled = anyascii(unicodedata.normalize("NFC", text)).replace(":", " ").replace("_", " ")
        words = " ".join("".join(c for c in spelled if has_glyph(c)).split())
        shown = words or shown or "?"
    return shown


def _runs(text: str) -> list[tuple[int, str]]:
    """`text` (from `drawable`) cut into runs of one font each; a space or a mark stays in
    the run it is in."""
    runs: list[tuple[int, str]] = []
    for char in text:
        font = font_for(char)
        if runs and (font is None or char == " " or _mark(char) or font == runs[-1][0]):
            runs[-1] = (runs[-1][0], runs[-1][1] + char)
        else:
            runs.append((font or 0, char))
    return runs


def text_width(text: str, size: int) -> float:
    """How wide `text` (from `drawable`) is drawn at `size`."""
    fonts = _fonts(size)
    return sum(fonts[font].getlength(run) for font, run in _runs(text))


def draw_name(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: RGB
) -> None:
    """`text` (from `drawable`) from `xy`, left and middle, each run in its own font."""
    fonts = _fonts(size)
    x, y = xy
    for font, run in _runs(text):
        draw.text((x, y), run, font=fonts[font], fill=fill, anchor="lm")
        x += fonts[font].getlength(run)
