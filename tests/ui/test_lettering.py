"""Names in pictures keep their letters in every script the bot's players write (Latin with all
its accents, Greek, Cyrillic, Arabic); a letter no font has (CJK) is transliterated and an emoji
left out, never drawn as a box; a computer player gets the robot icon; the alt text and the
messages keep the exact name."""

from __future__ import annotations

import logging
import unicodedata
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFont

from bot.engine import Card, Color, Game, RuleSet
from bot.ui import pictures
from bot.ui.art import SeatState, TableState, describe_table, lettering, table_picture
from bot.ui.art.lettering import _cmap_codes, drawable, font_for, font_path, has_glyph, name_font
from bot.ui.art.table_picture import NAME_X, seat_right

# Names an ASCII fold would draw alike: each pair must give different pictures.
LOOK_ALIKES = [
    ("Bjørn Ødegård", "Bjorn Odegard"),
    ("Jürgen Weiß", "Jurgen Weiss"),
    ("Alena", "Алёна"),
    ("Sofia", "Σοφία"),
    ("Zofia Łąckaś", "Zofia Lackas"),
    ("Søren Ærø", "Soren Aero"),
    ("François Gonçalves", "Francois Goncalves"),
]
NAMES = sorted({n for pair in LOOK_ALIKES for n in pair} | {"山田太郎", "Ωмега"})
# Every letter of the alphabets of the bot's languages and their neighbours, both cases.
ALPHABETS = (
    "ÆØÅ ÄÖÜẞß ĄĆĘŁŃÓŚŹŻ ÀÂÇÉÈÊËÎÏÔŒÙÛÜŸ ÁÉÍÑÓÚÜ¿¡ ÃÕÀÁÂÇÉÊÍÓÔÚ ÀÈÉÌÍÎÒÓÙÚ IJ "
    "ÞÐÝ ČĎĚŇŘŠŤŮŽ ŐŰ ĞİŞ ĂȘȚ ĀĒĪŪĢĶĻŅ ĖĮŲ ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ ΆΈΉΊΌΎΏΪΫ "
    "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ ЄІЇҐЎЂЈЉЊЋЏ"
)
NAME_BOX = (NAME_X, seat_right())  # the seat list's name column, in x


def _table(name: str) -> TableState:
    seats = (SeatState(name, 5, False), SeatState("Ben", 3, True))
    return TableState(Card.of("R7"), Color.RED, True, seats, 42)


def _ink(image: Image.Image) -> int:
    """How many pixels of the first seat's name box differ from the same table without a name."""
    blank = table_picture(_table(""))
    diff = ImageChops.difference(image, blank).convert("L")
    return sum(1 for v in diff.tobytes() if v > 40)


@pytest.mark.parametrize("pair", LOOK_ALIKES, ids=lambda p: p[0])
def test_names_an_ascii_fold_confuses_are_different_pictures(pair: tuple[str, str]) -> None:
    a, b = (table_picture(_table(n)) for n in pair)
    assert ImageChops.difference(a, b).getbbox() is not None, pair


@pytest.mark.parametrize("name", NAMES)
def test_a_name_is_never_blank(name: str) -> None:
    picture = table_picture(_table(name))
    assert picture != table_picture(_table("")), name
    assert _ink(picture) > 15 * len(name.replace(" ", "")), name
    box = ImageChops.difference(picture, table_picture(_table(""))).getbbox()
    assert box is not None and NAME_BOX[0] <= box[0] and box[2] <= NAME_BOX[1], (name, box)


@pytest.mark.parametrize("name", [n for n in NAMES if not n.isascii()])
def test_no_letter_of_a_name_is_lost(name: str) -> None:
    """Taking any one non-ASCII letter out changes the picture: none was dropped or folded."""
    picture = table_picture(_table(name))
    for k, letter in enumerate(name):
        if not letter.isascii():
            shorter = name[:k] + name[k + 1 :]
            assert picture != table_picture(_table(shorter)), (name, letter)


def test_a_cjk_name_is_drawn_as_its_transliteration() -> None:
    """No font of ours has CJK: each letter is written as its reading, so two names are told
    apart in the picture (boxes made every CJK name of a length look the same)."""
    assert drawable("山田太郎") == "ShanTianTaiLang"
    assert drawable("김민준") == "GimMinJun"
    assert drawable("さくら") == "sakura"
    assert table_picture(_table("山田")) != table_picture(_table("太郎"))
    assert _ink(table_picture(_table("山田太郎"))) > 1.5 * _ink(table_picture(_table("山田")))


def test_an_arabic_name_is_drawn_in_the_fallback_font() -> None:
    name = "محمد علي"
    assert drawable(name) == name
    assert {font_for(c) for c in name.replace(" ", "")} == {1}
    assert table_picture(_table(name)) != table_picture(_table("محمد"))
    assert _ink(table_picture(_table(name))) > 200


def test_emoji_are_left_out_and_a_name_of_emoji_is_spelled_out() -> None:
    assert drawable("Sam 🎲🔥") == "Sam"
    assert drawable("🤖 Bot Ada (normal)") == "Bot Ada (normal)"
    assert drawable("😀") == "grinning"
    assert drawable("\U000f0000") == "?"  # a private-use character: nothing to spell
    assert table_picture(_table("Sam 🎲🔥")) == table_picture(_table("Sam"))


def test_the_character_map_is_read_from_the_font_file() -> None:
    """Coverage comes from Roboto's own cmap: every Latin, Greek and Cyrillic letter, none of
    CJK, emoji, Arabic or the private-use area (each then goes to a fallback or is spelled)."""
    path = font_path()
    assert path is not None
    codes = _cmap_codes(path)
    assert {ord(c) for c in "AZaz09 æøåßąłΣωЖя€"} <= codes
    assert not {ord(c) for c in "山김م😀\U000f0000"} & codes
    assert has_glyph("ł") and not has_glyph("山") and not has_glyph("😀")
    assert font_for("A") == 0 and font_for("م") == 1 and font_for("山") is None


def test_a_computer_player_is_drawn_with_the_robot_icon_not_a_box() -> None:
    """The seat of a computer player gets our robot icon before its name; the name's emoji is
    not drawn (no box), so its picture is that of the same name without the emoji."""

    def table(name: str, computer: bool) -> Image.Image:
        seats = (SeatState(name, 5, computer=computer), SeatState("Ben", 3, True))
        return table_picture(TableState(Card.of("R7"), Color.RED, True, seats, 42))

    with_icon = table("🤖 Bot Ada (normal)", True)
    assert with_icon == table("Bot Ada (normal)", True)
    assert with_icon != table("Bot Ada (normal)", False)
    box = ImageChops.difference(with_icon, table("Bot Ada (normal)", False)).getbbox()
    assert box is not None and box[0] == NAME_X, box  # the icon sits where the name began


def test_the_table_state_marks_computer_seats() -> None:
    names = {1: "山田太郎", -1: "🤖 Bot Ada (normal)"}
    state = pictures.table_state(Game.new([1, -1], RuleSet(), seed=3), names)
    assert state is not None
    assert {s.name: s.computer for s in state.seats} == {"山田太郎": False, names[-1]: True}


def test_the_alt_text_keeps_the_exact_names() -> None:
    for name in NAMES:
        text = describe_table(_table(name))
        assert f"{name} 5 cards" in text, (name, text)


def test_names_are_drawn_in_the_packaged_font() -> None:
    f = name_font(18)
    assert isinstance(f, ImageFont.FreeTypeFont) and f.getname() == ("Roboto", "Regular")


def test_every_letter_of_every_catalogue_and_alphabet_is_drawn() -> None:
    catalogues = Path(lettering.__file__).parents[2] / "i18n"
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(catalogues.glob("*.json")))
    text += ALPHABETS + ALPHABETS.lower()
    letters = {c for c in text if unicodedata.category(c)[0] == "L"}
    assert len(letters) > 250
    assert sorted(c for c in letters if not has_glyph(c)) == []


def test_without_the_font_package_the_built_in_font_draws_and_it_is_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caches = (lettering.font_path, lettering._font_files, lettering._coverage, lettering._fonts)
    monkeypatch.setattr(lettering, "FONT_PACKAGE", "no_such_font_package")
    monkeypatch.setattr(lettering, "FALLBACK_PACKAGES", ())
    for cached in caches:
        cached.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, "bot.ui.art.lettering"):
            assert drawable("Bjørn") == "Bjorn"  # the built-in font: ASCII, the rest spelled
            assert name_font(16).getname()[0] != "Roboto"
            name_font(12)
        assert len(caplog.records) == 1
    finally:
        monkeypatch.undo()
        for cached in caches:
            cached.cache_clear()
    assert drawable("Bjørn") == "Bjørn"


@pytest.mark.parametrize("locale", ["de", "no"])
def test_the_table_picture_s_alt_text_keeps_the_exact_names(locale: str) -> None:
    names = {1: "Bjørn Ødegård", 2: "Jürgen Weiß", 3: "山田太郎"}
    picture = pictures.table_picture(Game.new([1, 2, 3], RuleSet(), seed=3), names, locale)
    assert picture is not None
    for name in names.values():
        assert name in picture.description, (name, picture.description)


def test_a_name_in_a_picture_carries_no_direction_mark_to_the_text_drawn_after_it() -> None:
    """Pictures draw each name on its own, and without the bidi embedding, override and isolate
    marks (format characters): an unterminated override in a name reverses nothing."""
    marks = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
    assert drawable(f"Eve{marks}") == "Eve"
