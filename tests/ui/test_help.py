"""`/uno help`: a short first page, a menu of topics, every command on some page."""

from __future__ import annotations

import pytest

from bot.i18n import available_locales
from bot.ui.help import FIRST_TOPIC, HELP_TOPICS, help_lines, render_help
from bot.ui.ids import matches_exactly_one

#: The single page `/uno help` was before it had topics (24 lines: 18 commands and 3 texts).
LINES_BEFORE = 24


@pytest.mark.parametrize("locale", available_locales())
def test_the_first_page_is_short_and_offers_the_topics(locale: str) -> None:
    page = render_help(locale)
    lines = page.embed.description.split("\n")
    assert len(lines) <= 9 < LINES_BEFORE
    (select,) = page.view.children
    assert matches_exactly_one(select.item.custom_id)
    assert [o.value for o in select.item.options] == list(HELP_TOPICS)
    assert [o.value for o in select.item.options if o.default] == [FIRST_TOPIC]
    for topic in HELP_TOPICS:
        assert len(render_help(locale, topic).embed) <= 6000


def test_each_topic_is_its_own_page_and_a_forged_one_reads_as_the_first() -> None:
    pages = {topic: "\n".join(help_lines(topic)) for topic in HELP_TOPICS}
    assert len(set(pages.values())) == len(HELP_TOPICS)
    assert "What counts on the leaderboard" in pages["leaderboard"]
    assert "turn timer" in pages["turns"] and "`/uno play`" in pages["turns"]
    assert "`/uno-admin settings`" in pages["admin"]
    assert help_lines("nonsense") == help_lines(FIRST_TOPIC)
    assert "Turns & timer" in render_help(None, "turns").embed.title
