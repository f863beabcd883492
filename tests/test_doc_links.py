"""Every relative link of the README and the docs leads somewhere: to a file or folder that exists
and, with a `#fragment`, to a heading of that page (GitHub's anchors)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The pages a reader follows links through.
PAGES = sorted(
    {
        ROOT / "README.md",
        ROOT / "TRANSLATING.md",
        *(ROOT / "docs").glob("*.md"),
        *(ROOT / "testing").rglob("README.md"),
    }
)

_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"`+[^`]*`+")
#: [text](target) and ![alt](target), the target up to a space (a title may follow) or ")".
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _prose_lines(text: str) -> list[str]:
    """The page's lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text lower-cased, markup and punctuation dropped
    (letters, digits, `-` and `_` stay), each space a `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").lower()
    kept = [
        ch
        for ch in text
        if ch in " -_" or unicodedata.category(ch)[0] in "LN" or unicodedata.category(ch) == "Mn"
    ]
    return "".join(kept).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor on `page`, a repeated one numbered as GitHub does (-1, -2, ...)."""
    seen: dict[str, int] = {}
    found = set()
    for line in _prose_lines(page.read_text()):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    """The targets of the page's Markdown links and images, outside code."""
    targets = []
    for line in _prose_lines(page.read_text()):
        targets += _LINK.findall(_INLINE_CODE.sub("", line))
    return targets


def _relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE)


def test_the_pages_are_found() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in PAGES}
    assert {"README.md", "TRANSLATING.md", "docs/architecture.md", "docs/records.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in filter(_relative, links(page)):
        path_part, _, fragment = target.partition("#")
        destination = (page.parent / path_part).resolve() if path_part else page
        if not destination.exists():
            broken.append(f"{target}: no such file")
        elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
            broken.append(f"{target}: no heading #{fragment} in {destination.name}")
    assert broken == []


def test_the_slugs_are_githubs() -> None:
    assert slug("The server's settings") == "the-servers-settings"
    assert slug("Turns: the timer and the pings") == "turns-the-timer-and-the-pings"
    assert (
        slug("The seed and the shuffle: `uno-shuffle-v1`")
        == "the-seed-and-the-shuffle-uno-shuffle-v1"
    )
    assert slug("Provable deals and game records") == "provable-deals-and-game-records"


def test_a_broken_link_is_seen(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[ok](#title) [bad](#nowhere) [gone](missing.md)\n")
    assert links(page) == ["#title", "#nowhere", "missing.md"]
    assert anchors(page) == {"title"}
