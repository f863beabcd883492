"""`/uno help` in pages: a short first page, and a menu of topics for the rest (a phone shows a
page without scrolling)."""

from __future__ import annotations

from typing import Final

import discord

from bot.i18n import t
from bot.ui.items import HelpSelect
from bot.ui.outgoing import Outgoing

#: Each topic's commands, in the order a reader needs them; every `/uno` command is on one page.
HELP_TOPICS: Final[dict[str, tuple[str, ...]]] = {
    "basics": ("new", "join", "start", "hand", "help"),
    "turns": ("play", "draw", "uno", "catch", "table", "leave"),
    "rules": ("addbot", "setrule", "rules"),
    "leaderboard": ("leaderboard", "stats", "export", "verify", "replay"),
    "admin": ("kick", "end"),
}
FIRST_TOPIC: Final = "basics"


def _command_line(name: str, locale: object) -> str:
    key = "uno_call" if name == "uno" else name  # `/uno uno`: the call, not the group
    # The command as the reader's Discord client lists it (`/uno neu` in German).
    group = t("cmdname.uno", locale)
    return f"`/{group} {t(f'cmdname.{key}', locale)}` — {t(f'cmd.{key}', locale)}"


def help_lines(topic: str, locale: object = None) -> list[str]:
    """One page of the help; an unknown topic (a forged value) reads as the first page."""
    if topic not in HELP_TOPICS:
        topic = FIRST_TOPIC
    commands = [_command_line(name, locale) for name in HELP_TOPICS[topic]]
    if topic == "basics":
        return [t("help.intro", locale), "", *commands, "", t("help.more", locale)]
    if topic == "turns":
        return [*commands, "", t("help.buttons", locale), "", t("help.timer", locale)]
    if topic == "rules":
        return [t("help.house", locale), "", *commands]
    if topic == "leaderboard":
        return [*commands, "", t("help.counting", locale)]
    settings = f"`/{t('cmdname.admin', locale)} {t('cmdname.admin.settings', locale)}`"
    return [*commands, "", t("help.admin", locale, settings=settings)]


def render_help(locale: object = None, topic: str = FIRST_TOPIC) -> Outgoing:
    """A page of the help (an embed) and the menu of topics, the page shown chosen."""
    if topic not in HELP_TOPICS:
        topic = FIRST_TOPIC
    title = f"{t('help.title', locale)} — {t(f'help.topic.{topic}', locale)}"
    embed = discord.Embed(
        title=title[:256], description="\n".join(help_lines(topic, locale)), colour=0xD72600
    )
    options = [
        discord.SelectOption(
            label=t(f"help.topic.{name}", locale)[:100], value=name, default=name == topic
        )
        for name in HELP_TOPICS
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(HelpSelect(options, placeholder=t("help.placeholder", locale)[:150]))
    return Outgoing.of(embed, view)
