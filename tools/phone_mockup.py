"""A phone turn as a player sees it: the bot's real hand message laid out as Discord's phone
client shows it (380 px wide), screenshotted with headless Chromium.

    .venv/bin/python tools/phone_mockup.py OUT.png [--players 4] [--cards 7] [--chromium PATH]

The hand is rendered by the bot's own code (bot/ui/hand_message.py, with card pictures on and
the card emojis as the bot uploads them), the same payload the end-to-end tests measure; the
page around it (author line, embed, buttons) follows tests/ui/phone.py's measured look. Needs
Debian's `chromium` (`apt-get install chromium`); nothing is fetched from the network. The
README's picture docs/phone-turn.png is made with the defaults.
"""

from __future__ import annotations

import argparse
import html
import io
import re
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.engine import COLORS, Card, Game, RuleSet, view_for  # noqa: E402
from bot.ui.card_emojis import CARD_EMOJIS, wanted_emojis  # noqa: E402
from bot.ui.hand_message import render_hand  # noqa: E402
from bot.ui.outgoing import Outgoing  # noqa: E402
from bot.ui.plain_view import PlainView  # noqa: E402

NAMES = {1: "Ana", 2: "Bjørn", 3: "Dora", 4: "Nils", 5: "Emilia", 6: "Jürgen"}
RECENT = ["**Nils** played 🟩 Green 4", "**Dora** drew 1 card"]
STYLE_COLOURS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c"}  # button styles


def _markdown(text: str) -> str:
    """Discord's inline markdown as HTML, enough for the bot's hand (bold, timestamps)."""
    text = html.escape(text)
    text = re.sub(r"&lt;t:\d+:R&gt;", '<span class="ts">in 55 seconds</span>', text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    return text.replace("\u2068", "").replace("\u2069", "").replace("\n", "<br>")


def _button(component: dict[str, Any], emoji_files: dict[str, Path]) -> str:
    emoji = component.get("emoji") or {}
    inner = ""
    if "id" in emoji:
        path = emoji_files.get(emoji["name"])
        if path is not None:
            inner += f'<img class="emoji" src="{path.as_uri()}">'
    elif emoji.get("name"):
        inner += f'<span class="uemoji">{emoji["name"]}</span>'
    if component.get("label"):
        inner += f"<span>{html.escape(component['label'])}</span>"
    colour = STYLE_COLOURS.get(component.get("style", 2), "#4e5058")
    dim = " dim" if component.get("disabled") else ""
    return f'<div class="button{dim}" style="background:{colour}">{inner}</div>'


def page(message: Outgoing, picture: Path, emoji_files: dict[str, Path]) -> str:
    assert message.embed is not None and isinstance(message.view, PlainView)
    embed = message.embed.to_dict()
    colour = f"#{embed.get('color', 0):06x}"
    thumb = embed.get("thumbnail", {}).get("url", "")
    thumb_html = f'<img class="thumb" src="{thumb}">' if thumb.startswith("file:") else ""
    rows = "".join(
        '<div class="row">' + "".join(_button(c, emoji_files) for c in row) + "</div>"
        for row in message.view.rows
        if row
    )
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
body {{ margin:0; width:380px; background:#313338; color:#dbdee1;
  font: 14px/18px "Noto Sans", "DejaVu Sans", sans-serif; }}
.bar {{ height:48px; background:#2b2d31; color:#f2f3f5; font-weight:600; display:flex;
  align-items:center; padding:0 16px; border-bottom:1px solid #1e1f22; }}
.msg {{ padding:12px 12px 8px 12px; }}
.author {{ display:flex; align-items:center; gap:8px; height:28px; }}
.avatar {{ width:24px; height:24px; border-radius:50%; background:#d72600; }}
.name {{ color:#f2f3f5; font-weight:600; }} .tag {{ background:#5865f2; color:white;
  font-size:10px; padding:0 4px; border-radius:3px; }} .only {{ color:#949ba4; font-size:12px; }}
.embed {{ background:#2b2d31; border-left:4px solid {colour}; border-radius:4px;
  padding:8px 12px 16px 12px; margin-top:4px; position:relative; }}
.title {{ color:#f2f3f5; font-weight:700; font-size:16px; line-height:22px; }}
.desc {{ margin-top:4px; }} .title, .desc {{ margin-right:60px; }}
.thumb {{ position:absolute; right:12px; top:10px; width:48px; }}
.ts {{ background:#3f4147; border-radius:3px; padding:0 2px; }}
.image {{ width:300px; margin-top:16px; border-radius:4px; }}
.row {{ display:flex; flex-wrap:wrap; gap:8px; margin-top:8px; }}
.button {{ height:32px; min-width:32px; padding:0 12px; border-radius:4px; color:white;
  display:flex; align-items:center; gap:4px; font-weight:500; }}
.button.dim {{ opacity:.5; }} .emoji {{ height:22px; }} .uemoji {{ font-size:16px; }}
.input {{ position:fixed; bottom:0; left:0; right:0; height:56px; background:#383a40;
  margin:8px; border-radius:8px; color:#6d6f78; padding:0 16px; display:flex;
  align-items:center; }}
</style></head><body>
<div class="bar"># uno-night</div>
<div class="msg"><div class="author"><div class="avatar"></div><span class="name">UNO Bot</span>
<span class="tag">APP</span><span class="only">Only you can see this</span></div>
<div class="embed">{thumb_html}<div class="title">{_markdown(embed.get("title", ""))}</div>
<div class="desc">{_markdown(embed.get("description", ""))}</div>
<img class="image" src="{picture.as_uri()}"></div>{rows}</div>
<div class="input">Message #uno-night</div>
</body></html>"""


def hand_payload(players: int, cards: int, work: Path) -> tuple[Outgoing, Path, dict[str, Path]]:
    """Player 1's turn with `cards` cards (a Wild Draw Four among them), as the bot sends it."""
    arts = wanted_emojis()
    emojis = {}
    for art in arts:
        path = work / f"{art.name}.png"
        path.write_bytes(art.image)
        emojis[art.name] = path
    CARD_EMOJIS.use([(art.key, 1000 + n, art.name) for n, art in enumerate(arts)])
    ids = list(range(1, players + 1))
    game = next(
        g
        for seed in range(200)
        if (g := Game.new(ids, RuleSet(), seed=seed, dealer=ids[-1])).current_player == 1
        and view_for(g, 1).color is not None
        and view_for(g, 1).top_card is not None
    )
    seen = view_for(game, 1)
    top, colour = seen.top_card, seen.color
    assert top is not None and colour is not None
    others = [c for c in COLORS if c is not colour]
    hand = [Card.of("W4"), Card.of(f"{colour.value}7")]
    hand += [Card.of(f"{others[k % 3].value}{k % 9 + 1}") for k in range(cards - 2)]
    game.hands[1] = hand[:cards]
    deadline = datetime.now(UTC) + timedelta(seconds=55)
    names = {i: NAMES.get(i, f"Player {i}") for i in ids}
    message = render_hand(
        game, 1, 1, names, "en-US", pictures=True, deadline=deadline, recent=RECENT
    )
    assert message.picture is not None and message.embed is not None
    picture = work / "hand.png"
    picture.write_bytes(message.picture.render())
    top_emoji = next((p for name, p in emojis.items() if f"_{top.code}_" in name), None)
    if top_emoji is not None:
        message.embed.set_thumbnail(url=top_emoji.as_uri())
    return message, picture, emojis


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--cards", type=int, default=7)
    parser.add_argument("--chromium", default="chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        message, picture, emojis = hand_payload(args.players, args.cards, work)
        page_file = work / "hand.html"
        page_file.write_text(page(message, picture, emojis), encoding="utf-8")
        shot = work / "shot.png"
        subprocess.run(
            [
                args.chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--hide-scrollbars",
                f"--user-data-dir={work / 'profile'}",
                "--window-size=380,720",
                f"--screenshot={shot}",
                page_file.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        with Image.open(shot) as image:
            image.save(args.out, optimize=True)
        print(f"{args.out}: {Image.open(io.BytesIO(args.out.read_bytes())).size}")


if __name__ == "__main__":
    main()
