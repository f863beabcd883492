"""Display names that are markdown or mentions show exactly, and as text only, in every public
message: the lobby, each version of the table, the results and the leaderboard. A name that
ends in an unterminated right-to-left override is bidi-isolated there: the rest of its line
reads as it should."""

from __future__ import annotations

import re

import pytest

from testing.fakediscord.markdown import markup, plain, shown, unescaped
from testing.players import answer, deal, open_game, play_round

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: U+202E RIGHT-TO-LEFT OVERRIDE: unterminated in a name, it would reverse the rest of its line.
RLO = "\u202e"
#: Seat order: the host first. The last one is a server nickname, the others global names.
NAMES = ["[Nitro](https://evil.example/x)", "@everyone", "<@123>", "**x**", f"`x`{RLO}"]
#: What would be live markup if a name were not escaped.
RAW = ["](https://evil.example", "@everyone", "<@123>", "**x**", "`x`"]


async def test_hostile_names_are_shown_as_text_in_every_public_message(s) -> None:
    emu = s.emu
    channel = s.channel()
    users = [
        emu.add_user(f"hostile{i}c{channel}", s.guild, global_name=name)
        for i, name in enumerate(NAMES[:-1])
    ]
    users.append(emu.add_user(f"hostile4c{channel}", s.guild, global_name="Plain"))
    s.guild.members[users[-1].id].nick = NAMES[-1]
    # Two cards each: every seat plays once, then the host goes out; one round decides.
    hands = ["R1 R2", "R3 B9", "R4 G9", "R6 Y9", "R7 B8"]
    s.fix_deal(
        channel,
        {"deck": deal(hands, "R5"), "dealer_seat": 4, "rules": {"hand_size": 2, "scoring": "none"}},
    )
    await open_game(emu, channel, users[0], users[1:])
    final = await play_round(emu, channel, {u.id: u for u in users})
    assert "match is over" in final.text
    await emu.wait_for_message(channel, lambda m: "Match winner" in m.text)
    for page in range(1, 100):  # other tests share the server's leaderboard: read it all
        board = await answer(await emu.slash(users[1], channel, "uno leaderboard", page=page))
        assert not board.ephemeral
        if f"Page {page} of {page}" in board.text:
            break

    public = [
        m for m in emu.messages.values() if m.channel_id == channel and m.ephemeral_for is None
    ]
    texts = [text for m in public for version in m.markdown_versions for text in version]
    assert len(texts) > 20, "the lobby, the table's edits, the results and the leaderboard"
    for text in texts:
        live = unescaped(text)
        for raw in RAW:
            assert raw not in live, f"{raw!r} is live in:\n{text}"
        assert not [k for k, _ in markup(text) if k in ("masked link", "link")], text
        assert "\\\\" not in text, f"a name escaped twice:\n{text}"
    seen = "\n".join(shown(text) for text in texts)
    # Each name shown exactly (escaped once) in the lobby, the seats, the log, the results.
    assert f"1. {NAMES[0]}" in seen and f"5. {NAMES[4]}" in seen
    assert f"**{NAMES[0]}** won round 1" in seen
    # The table's log is in its footer, which Discord reads as plain text: names exact, raw.
    footers = [
        (e.get("footer") or {}).get("text") or ""
        for m in public
        for version in [*m.history, m.snapshot()]
        for e in version.get("embeds") or []
    ]
    assert any(f"Round 1 won by {NAMES[0]}" in plain(f) for f in footers), [f for f in footers if f]
    # The seats: in the table picture's alt text (plain text: exact), or in its text (no picture).
    alts = "\n".join(
        a.get("description") or ""
        for m in public
        for version in [*m.history, m.snapshot()]
        for a in version.get("attachments") or []
    )
    for name in NAMES:
        assert f"**{name}** — " in seen or f"{name} " in alts, name
        assert f"**{name}**: +" in seen, name
    boards = [m for m in public if "Page " in m.text and "Leaderboard" in m.text]
    assert boards
    board_text = "\n".join(shown(t) for m in boards for t in m.markdown_versions[-1])
    for name in NAMES:
        assert f" {name} — " in board_text, name
    # The override ends with the name: each line that has it has it inside the name's isolate
    # (U+2068 ... U+2069), in the results, the leaderboard, the table and its log.
    overridden = [line for text in texts + footers for line in text.splitlines() if RLO in line]
    assert any("held" in line and "total" in line for line in overridden)  # the results
    assert any(" — " in line and "**" in line for line in overridden)  # a leaderboard row
    for line in overridden:
        assert RLO not in re.sub("\u2068[^\u2068\u2069]*\u2069", "", line), line
