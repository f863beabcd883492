"""The server's settings page: the rules by what differs from official, then the table options.

Listing every one of the two dozen rule options buried the few a server changed; the menus
below the page show each option's value anyway. So the page names the rules, lists only the
changed ones (with the official value beside them), and always shows the server's own options.
"""

from __future__ import annotations

import discord

from bot.engine import RuleSet
from bot.i18n import t
from bot.ui.rule_options import language_text, option_label, ping_text, timer_text, value_text
from bot.ui.rules_text import rules_in_words, rules_summary


def render_settings(
    rules: RuleSet,
    turn_timeout: int,
    language: str,
    start_policy: str,
    locale: object = None,
    *,
    turn_ping: int | None,
    card_images: bool = True,
    season: str = "off",
    round_break: int = 15,
    notice: str | None = None,
) -> discord.Embed:
    description = t("settings.intro", locale)
    if notice:
        description = f"{notice}\n\n{description}"
    embed = discord.Embed(
        title=t("settings.title", locale), description=description[:4096], colour=0x0956BF
    )
    embed.add_field(
        name=t("settings.rules", locale, preset=rules_summary(rules, locale)),
        value=rules_in_words(rules, locale)[:1024],
        inline=False,
    )
    table = [
        (option_label("turn_timer", locale), timer_text(turn_timeout, locale)),
        (option_label("turn_ping", locale), ping_text(turn_ping, locale)),
        (option_label("round_break", locale), t("settings.seconds", locale, count=round_break)),
        (option_label("card_images", locale), value_text("card_images", card_images, locale)),
        (option_label("language", locale), language_text(language, locale)),
        (
            option_label("start_policy", locale),
            t(f"settings.start_policy.{start_policy}", locale),
        ),
        (option_label("season", locale), t(f"settings.season.{season}", locale)),
    ]
    lines = [t("settings.line", locale, option=name, value=value) for name, value in table]
    embed.add_field(name=t("settings.group.table", locale), value="\n".join(lines), inline=False)
    return embed
