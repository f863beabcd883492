"""Server settings (`/uno-admin settings|set|reset`, and the settings panel's selects) and a
lobby's own rules (`/uno setrule`, and the panel its Rules button gives the host)."""

from __future__ import annotations

import pytest

from testing.fakediscord import MANAGE_GUILD, DriverError, FakeDiscord, Message, User
from testing.players import Table, answer, hand_size, show_hand

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_settings_shown_changed_refused_and_reset(s) -> None:
    emu = s.emu
    channel = s.channel()
    (admin,) = s.users("admin", permissions=MANAGE_GUILD)
    (member,) = s.users("member")
    try:
        shown = await answer(await emu.slash(admin, channel, "uno-admin settings"))
        assert shown.ephemeral
        # Official rules are named, not listed option by option; the menus hold every group.
        assert "Rules: Official" in shown.text and "nothing changed" in shown.text, shown.text
        assert "Stacking draw cards" not in shown.text
        groups = [o["label"] for o in shown.selects[0]["options"]]
        for group in ("Deck & dealing", "Wild Draw Four", "Stacking & deflection", "Table"):
            assert group in groups

        choices = await emu.autocomplete(
            admin, channel, "uno-admin set", focused="option", option="stack"
        )
        assert any(c["value"] == "stacking" for c in choices)

        done = await answer(
            await emu.slash(admin, channel, "uno-admin set", option="stacking", value="same")
        )
        assert "✳️ Stacking draw cards: **same card only** (official: off)" in done.text
        assert "Rules: Official + Stacking draw cards" in done.text, done.text
        assert "Jump-in" not in done.text
        # The changed group is marked; in it the changed option comes first, marked too.
        marked = {o["label"] for o in done.selects[0]["options"] if o.get("emoji")}
        assert marked == {"Stacking & deflection"}, done.selects[0]["options"]
        group_select = done.selects[0]["custom_id"]
        opened = await answer(await emu.select(admin, done, group_select, ["stacking"]))
        first, *rest = opened.selects[1]["options"]
        assert first["value"] == "stacking" and first.get("emoji"), first
        assert not any(o.get("emoji") for o in rest), rest

        refused = await answer(
            await emu.slash(admin, channel, "uno-admin set", option="deflect_d2", value="on")
        )
        assert "deflecting (no adding up) contradicts stacking" in refused.text

        lobby = await answer(await emu.slash(member, channel, "uno new"))
        # The server default applies, and the lobby lists only what differs from official.
        assert "✳️ Stacking draw cards: **same card only**" in lobby.text, lobby.text
        assert "Jump-in" not in lobby.text
        await answer(await emu.click(member, lobby, label="Cancel"))

        with pytest.raises(DriverError):  # Discord hides the command from non-managers
            await emu.slash(member, channel, "uno-admin settings")
        emu.enforce_command_permissions = False
        try:
            refused = await answer(
                await emu.slash(member, channel, "uno-admin set", option="stacking", value="off")
            )
        finally:
            emu.enforce_command_permissions = True
        assert "not allowed" in refused.text
    finally:
        reset = await answer(await emu.slash(admin, channel, "uno-admin reset"))
    assert "back to its default" in reset.text and "✳️" not in reset.text.split("official rules")[1]


async def test_a_turn_timer_that_is_no_number_is_told_so(s) -> None:
    """`/uno-admin set turn_timer "half a minute"` is a value to fix, not a clash of rules: the
    answer says what to give, and the setting stays."""
    emu = s.emu
    channel = s.channel()
    (admin,) = s.users("admin", permissions=MANAGE_GUILD)
    refused = await answer(
        await emu.slash(admin, channel, "uno-admin set", option="turn_timer", value="half a minute")
    )
    assert refused.ephemeral
    assert "not a number of seconds: give e.g. 60, or 0 for off (30 to 600)" in refused.text
    assert "don't work together" not in refused.text, refused.text
    out_of_range = await answer(
        await emu.slash(admin, channel, "uno-admin set", option="turn_timer", value="5")
    )
    assert "off, or 30 to 600 seconds" in out_of_range.text, out_of_range.text
    shown = await answer(await emu.slash(admin, channel, "uno-admin settings"))
    assert "Turn timer" in shown.text and "60" in shown.text, shown.text


async def test_anyone_may_start_when_the_server_says_so(s) -> None:
    emu = s.emu
    channel = s.channel()
    (admin,) = s.users("admin", permissions=MANAGE_GUILD)
    alice, bob = s.users("alice", "bob")
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    lobby = await answer(await emu.click(bob, lobby, label="Join"))
    refused = await answer(await emu.click(bob, lobby, label="Start"))
    assert "Only the host" in refused.text
    try:
        await answer(
            await emu.slash(admin, channel, "uno-admin set", option="start_policy", value="anyone")
        )
        table = await answer(await emu.click(bob, lobby, label="Start"))
        assert "UNO — round 1" in table.text
    finally:
        await answer(await emu.slash(admin, channel, "uno-admin reset"))


async def test_the_host_changes_a_rule_for_this_game(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    rules = await answer(await emu.click(bob, lobby, label="Rules"))
    assert rules.ephemeral and "/uno setrule" in rules.text
    refused = await answer(
        await emu.slash(bob, channel, "uno setrule", option="hand_size", value="5")
    )
    assert "Only the host" in refused.text
    refused = await answer(
        await emu.slash(alice, channel, "uno setrule", option="wd4_rule", value="any")
    )
    assert "every Wild Draw Four is legal: turn it off" in refused.text
    done = await answer(
        await emu.slash(alice, channel, "uno setrule", option="hand_size", value="5")
    )
    assert "Rule changed" in done.text
    await emu.wait_for(
        lambda: "Cards dealt: **5**" in emu.channel_messages(channel)[0].text, 5, what="lobby rules"
    )
    lobby = emu.channel_messages(channel)[0]
    await answer(await emu.click(bob, lobby, label="Join"))
    # A fixed seed whose starter is a number: nobody draws before Alice looks at her hand (the
    # session's seed depends on how many games earlier tests started).
    s.fix_deal(channel, {"seed": 1})
    table = await answer(await emu.click(alice, emu.channel_messages(channel)[0], label="Start"))
    hand = await show_hand(emu, alice, table)
    assert hand_size(hand) == 5


def _options(msg: Message, custom_id: str) -> dict[str, dict[str, object]]:
    """The options of one of the message's selects, by value."""
    select = next(c for c in msg.selects if c["custom_id"] == custom_id)
    return {o["value"]: o for o in select["options"]}


async def _pick(emu: FakeDiscord, user: User, panel: Message, step: str, value: str) -> Message:
    custom_id = next(c["custom_id"] for c in panel.selects if c["custom_id"].endswith(f":{step}"))
    return await answer(await emu.select(user, panel, custom_id, [value]))


async def test_the_settings_panel_changes_a_setting_with_its_selects(s) -> None:
    emu = s.emu
    channel = s.channel()
    (admin,) = s.users("admin", permissions=MANAGE_GUILD)
    try:
        panel = await answer(await emu.slash(admin, channel, "uno-admin settings"))
        assert [c["custom_id"] for c in panel.selects] == ["uno:cfg:g:group"]
        assert "table" in _options(panel, "uno:cfg:g:group")

        panel = await _pick(emu, admin, panel, "group", "wd4")
        options = _options(panel, "uno:cfg:g:opt")
        wd4 = {"wd4_rule", "wd4_challenge", "challenge_guilty", "challenge_fail_draw"}
        assert set(options) == wd4
        assert options["wd4_challenge"]["description"] == "now: on · official: on"
        panel = await _pick(emu, admin, panel, "opt", "wd4_challenge")
        values = _options(panel, "uno:cfg:g:val:wd4_challenge")
        assert set(values) == {"on", "off"} and values["on"].get("default")
        panel = await _pick(emu, admin, panel, "val:wd4_challenge", "off")
        assert panel.ephemeral and "✅ Wild Draw Four challenge changed." in panel.text, panel.text
        assert "✳️ Wild Draw Four challenge: **off** (official: on)" in panel.text
        assert _options(panel, "uno:cfg:g:val:wd4_challenge")["off"].get("default")

        # An invalid combination is refused with the engine's reason; nothing changes.
        panel = await _pick(emu, admin, panel, "group", "special")
        panel = await _pick(emu, admin, panel, "opt", "custom_effect")
        panel = await _pick(emu, admin, panel, "val:custom_effect", "swap_hands")
        assert "the classic108 deck has no Customizable cards" in panel.text, panel.text
        assert "✅" not in panel.text
        shown = await answer(await emu.slash(admin, channel, "uno-admin settings"))
        assert "Customizable card" not in shown.text, shown.text  # still official: not listed

        # The server's own options, with values a select can list.
        panel = await _pick(emu, admin, panel, "group", "table")
        panel = await _pick(emu, admin, panel, "opt", "turn_timer")
        assert {"off", "30", "60", "600"} <= set(_options(panel, "uno:cfg:g:val:turn_timer"))
        panel = await _pick(emu, admin, panel, "val:turn_timer", "off")
        assert "Turn timer: off" in panel.text, panel.text

        # Stored, not only shown: a fresh look at the settings, and a new lobby, see them.
        shown = await answer(await emu.slash(admin, channel, "uno-admin settings"))
        assert "✳️ Wild Draw Four challenge: **off** (official: on)" in shown.text, shown.text
        assert "Turn timer: off" in shown.text, shown.text
        lobby = await answer(await emu.slash(admin, channel, "uno new"))
        assert "Wild Draw Four challenge: **off**" in lobby.text, lobby.text
        await answer(await emu.click(admin, lobby, label="Cancel"))

        # An admin who lost Manage Server while the panel was open changes nothing with it.
        member = s.guild.members[admin.id]
        roles, member.roles = member.roles, []
        try:
            refused = await _pick(emu, admin, panel, "val:turn_timer", "60")
        finally:
            member.roles = roles
        assert refused.ephemeral and "not allowed" in refused.text, refused.text
        shown = await answer(await emu.slash(admin, channel, "uno-admin settings"))
        assert "Turn timer: off" in shown.text, shown.text
        emu.assert_clean()
    finally:
        await answer(await emu.slash(admin, channel, "uno-admin reset"))


async def test_the_host_changes_this_games_rules_with_the_lobby_panel(s) -> None:
    emu = s.emu
    channel = s.channel()
    alice, bob = s.users("alice", "bob")
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    seen = await answer(await emu.click(bob, lobby, label="Rules"))
    assert seen.ephemeral and not seen.selects, "only the host gets the selects"

    panel = await answer(await emu.click(alice, lobby, label="Rules"))
    game = Table(emu, channel).game_id
    assert "table" not in _options(panel, f"uno:cfg:{game}:group"), "server options stay out"
    panel = await _pick(emu, alice, panel, "group", "deck")
    panel = await _pick(emu, alice, panel, "opt", "hand_size")
    assert set(_options(panel, f"uno:cfg:{game}:val:hand_size")) == {str(n) for n in range(1, 21)}
    panel = await _pick(emu, alice, panel, "val:hand_size", "5")
    assert "✅ Cards dealt changed." in panel.text, panel.text
    assert "Cards dealt: **5**" in panel.text, panel.text
    await emu.wait_for(
        lambda: "Cards dealt: **5**" in emu.channel_messages(channel)[0].text, 5, what="lobby rules"
    )

    panel = await _pick(emu, alice, panel, "group", "wd4")
    panel = await _pick(emu, alice, panel, "opt", "wd4_rule")
    panel = await _pick(emu, alice, panel, "val:wd4_rule", "any")
    assert "every Wild Draw Four is legal: turn it off" in panel.text, panel.text

    lobby = emu.channel_messages(channel)[0]
    await answer(await emu.click(bob, lobby, label="Join"))
    table = await answer(await emu.click(alice, emu.channel_messages(channel)[0], label="Start"))
    late = await answer(await _late_pick(emu, alice, panel, game))
    assert "already started" in late.text, late.text
    # Five cards each were dealt; a Draw Two turned up as the starter makes the first player
    # draw two more (the deal comes from the game's number: either may be first).
    sizes = sorted([hand_size(await show_hand(emu, user, table)) for user in (alice, bob)])
    assert sizes in ([5, 5], [5, 7]), sizes
    emu.assert_clean()


async def _late_pick(emu: FakeDiscord, user: User, panel: Message, game: int) -> object:
    return await emu.select(user, panel, f"uno:cfg:{game}:val:wd4_rule", ["color"])


#: Independent options and values: every pair of them is a valid rule set.
CONCURRENT = {
    "stacking": "same",
    "jump_in": "on",
    "seven_o": "on",
    "hand_size": "8",
    "uno_penalty": "4",
    "target": "300",
    "draw_until_playable": "on",
    "challenge_fail_draw": "5",
}


async def test_concurrent_setting_changes_are_all_stored(s) -> None:
    from bot.ui.rule_options import option_label

    emu = s.emu
    channel = s.channel()
    (admin,) = s.users("admin", permissions=MANAGE_GUILD)
    try:
        sent = [
            await emu.slash(admin, channel, "uno-admin set", option=option, value=value)
            for option, value in CONCURRENT.items()
        ]  # all in flight before the first answer is read
        for option, res in zip(CONCURRENT, sent, strict=True):
            done = await answer(res)
            assert f"✅ {option_label(option, None)} changed." in done.text, done.text
        shown = await answer(await emu.slash(admin, channel, "uno-admin settings"))
        for option in CONCURRENT:
            assert f"✳️ {option_label(option, None)}:" in shown.text, (option, shown.text)
    finally:
        await answer(await emu.slash(admin, channel, "uno-admin reset"))


async def test_concurrent_lobby_rule_changes_are_all_stored(s) -> None:
    from bot.ui.rule_options import option_label

    emu = s.emu
    channel = s.channel()
    (host,) = s.users("host")
    await answer(await emu.slash(host, channel, "uno new"))
    sent = [
        await emu.slash(host, channel, "uno setrule", option=option, value=value)
        for option, value in CONCURRENT.items()
    ]
    for res in sent:
        assert "Rule changed" in (await answer(res)).text
    rules = await answer(await emu.slash(host, channel, "uno rules"))
    for option in CONCURRENT:
        assert f"✳️ {option_label(option, None)}" in rules.text, (option, rules.text)
    await answer(await emu.slash(host, channel, "uno end"))
