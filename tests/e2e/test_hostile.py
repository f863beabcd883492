"""A modified client can send any custom_id and any option value: the bot re-checks them all.

Every forged click or raw value gets a clear ephemeral refusal, changes nothing (no seat, no
move, no edited table) and leaves no traceback in the bot's log.
"""

from __future__ import annotations

import pytest

from testing.fakediscord import MANAGE_GUILD
from testing.players import Table, answer, open_game, version_of

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _tracebacks(s) -> int:
    return s.bot.output.count("Traceback")


async def _refused(res, *words: str) -> str:
    msg = await answer(res)
    assert msg.ephemeral, msg.text
    assert "something went wrong" not in msg.text, msg.text
    for word in words:
        assert word in msg.text, msg.text
    return msg.text


async def test_lobby_buttons_of_another_channel_or_server_are_refused(s) -> None:
    emu = s.emu
    channel, elsewhere = s.channel(), s.channel()
    host, ann = s.users("host", "ann")
    await answer(await emu.slash(host, channel, "uno new"))
    game = Table(emu, channel).game_id
    note = emu.add_message(emu.new_message(elsewhere, {"content": "hi"}, author=ann))
    await _refused(await emu.forge_click(ann, note, f"uno:{game}:lobby:join"), "another channel")

    other_server = emu.add_guild("Elsewhere")
    boss = emu.add_user("boss", other_server, permissions=MANAGE_GUILD)
    there = emu.add_message(
        emu.new_message(other_server.default_channel, {"content": "hi"}, author=boss)
    )
    for verb in ("cancel", "start", "join"):
        await _refused(await emu.forge_click(boss, there, f"uno:{game}:lobby:{verb}"))
    await _refused(await emu.forge_click(boss, there, f"uno:cfg:{game}:group", values=["deck"]))

    lobby = Table(emu, channel).message()
    assert "lobby" in lobby.text and ann.global_name not in lobby.text
    assert boss.global_name not in lobby.text
    await answer(await emu.click(host, lobby, label="Cancel"))


async def test_forged_game_clicks_change_nothing(s) -> None:
    emu = s.emu
    channel, elsewhere = s.channel(), s.channel()
    host, ann, stranger = s.users("host", "ann", "stranger")
    table = await open_game(emu, channel, host, [ann])
    game, version = Table(emu, channel).game_id, version_of(table)
    traces = _tracebacks(s)
    before = Table(emu, channel).message()

    # The public table never turns into somebody's hand.
    for action in ("refresh", "page:1", "page:999"):
        await _refused(
            await emu.forge_click(ann, before, f"uno:{game}:{version}:{action}"), "own hand"
        )
    # A player's own game, clicked from another channel; a game that does not exist; a card
    # that is no card; the server's settings without Manage Server; no template at all.
    note = emu.add_message(emu.new_message(elsewhere, {"content": "hi"}, author=ann))
    await _refused(await emu.forge_click(ann, note, f"uno:{game}:{version}:draw"), "another")
    await _refused(await emu.forge_click(ann, note, f"uno:{game}:hand"), "another channel")
    for custom_id in (
        f"uno:99999999999:{version}:draw",
        f"uno:{game}:{version}:play:ZZZ",
        f"uno:{game}:{version}:catch:1",
        f"uno:{game}:{version}:target:42",
        f"uno:{game}:{version + 5}:draw",
        f"uno:{game}:hand",
        "uno:cfg:g:val:stacking",
        "uno:0:lobby:join",
        "no-such-button",
        "uno:" + "9" * 95,
    ):
        await _refused(await emu.forge_click(stranger, before, custom_id))
    await _refused(
        await emu.forge_click(stranger, before, "uno:cfg:g:val:stacking", values=["same"]),
        "not allowed",
    )

    after = Table(emu, channel).message()
    assert after.id == before.id and after.text == before.text and after.embeds == before.embeds
    assert version_of(after) == version
    assert _tracebacks(s) == traces
    await answer(await emu.slash(host, channel, "uno end"))


async def test_raw_option_values_are_refused_clearly(s) -> None:
    emu = s.emu
    channel = s.channel()
    host, ann = s.users("host", "ann")
    traces = _tracebacks(s)
    emu.validate_options = False
    try:
        for options in ({"rules": "chaos"}, {"scoring": "golf"}, {"target": 0}, {"target": 10**12}):
            await _refused(await emu.slash(host, channel, "uno new", **options))
        assert Table(emu, channel).message() is None
        await answer(await emu.slash(host, channel, "uno new"))
        await _refused(await emu.slash(host, channel, "uno addbot", level="godlike"), "level")
        assert "🤖" not in Table(emu, channel).message().text
        await _refused(await emu.slash(host, channel, "uno setrule", option="chaos", value="1"))
        await _refused(await emu.slash(host, channel, "uno setrule", option="target", value="-3"))
        for options in ({"sort": "luck"}, {"page": 0}, {"page": 10**9}):
            await _refused(await emu.slash(ann, channel, "uno leaderboard", **options))
        await answer(await emu.click(ann, Table(emu, channel).message(), label="Join"))
        await answer(await emu.click(host, Table(emu, channel).message(), label="Start"))
        for options in ({"card": "R7", "color": "purple"}, {"card": "x" * 300}):
            await _refused(await emu.slash(ann, channel, "uno play", **options))
    finally:
        emu.validate_options = True
    assert _tracebacks(s) == traces
    await answer(await emu.slash(host, channel, "uno end"))


#: Game ids no database row can have: past a 32-bit INTEGER (a game's id), past a signed 64-bit
#: BIGINT (a snowflake), and the 20 digits a custom_id allows.
IDS_PAST_THE_DATABASE = (2**31, 2**63, int("9" * 20))


async def test_ids_past_the_databases_integers_are_not_found(s) -> None:
    """A forged id the database's integers cannot hold is a game that does not exist: the
    clicker is told so, and the bot logs no ERROR and no traceback (the driver would raise
    OverflowError, or PostgreSQL an out-of-range error, if one reached a query)."""
    emu = s.emu
    channel = s.channel()
    host, ann = s.users("host", "ann")
    table = await open_game(emu, channel, host, [ann])
    game, version = Table(emu, channel).game_id, version_of(table)
    before = Table(emu, channel).message()
    log_size = len(s.bot.output)
    suffixes = ("1:draw", "1:target", "hand", "log", "rematch", "record", "replay", "lobby:join")
    for big in IDS_PAST_THE_DATABASE:
        for suffix in suffixes:
            text = await _refused(await emu.forge_click(ann, before, f"uno:{big}:{suffix}"))
            assert "no longer exists" in text or "no such game" in text, (big, suffix, text)
        for command in ("uno export", "uno verify", "uno replay"):
            text = await _refused(await emu.slash(ann, channel, command, game=big))
            assert "no such game" in text, (big, command, text)
    for forged in (f"catch:{'9' * 20}", f"target:{'9' * 20}"):  # a user id past BIGINT
        await _refused(await emu.forge_click(ann, before, f"uno:{game}:{version}:{forged}"))
    logged = s.bot.output[log_size:]
    assert "Traceback" not in logged and "ERROR" not in logged, logged
    after = Table(emu, channel).message()
    assert version_of(after) == version and after.text == before.text
    await answer(await emu.slash(host, channel, "uno end"))
