"""Server settings (`/uno-admin settings|set|reset`) and a lobby's own rules (`/uno setrule`)."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import answer, hand_size, show_hand
from tests.fakediscord import MANAGE_GUILD, DriverError

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_settings_shown_changed_refused_and_reset(s) -> None:
    emu = s.emu
    channel = s.channel()
    (admin,) = s.users("admin", permissions=MANAGE_GUILD)
    (member,) = s.users("member")
    try:
        shown = await answer(await emu.slash(admin, channel, "uno-admin settings"))
        assert shown.ephemeral
        for group in ("Deck & dealing", "Wild Draw Four", "Stacking & deflection", "Table"):
            assert group in shown.text
        assert "Stacking draw cards: off (official)" in shown.text

        choices = await emu.autocomplete(
            admin, channel, "uno-admin set", focused="option", option="stack"
        )
        assert any(c["value"] == "stacking" for c in choices)

        done = await answer(
            await emu.slash(admin, channel, "uno-admin set", option="stacking", value="same")
        )
        assert "✳️ Stacking draw cards: **same card only** (official: off)" in done.text

        refused = await answer(
            await emu.slash(admin, channel, "uno-admin set", option="deflect_d2", value="on")
        )
        assert "deflecting (no adding up) contradicts stacking" in refused.text

        lobby = await answer(await emu.slash(member, channel, "uno new"))
        assert "Stacking draw cards: same card only" in lobby.text  # the server default applies
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
        lambda: "Cards dealt: 5" in emu.channel_messages(channel)[0].text, 5, what="lobby rules"
    )
    lobby = emu.channel_messages(channel)[0]
    await answer(await emu.click(bob, lobby, label="Join"))
    table = await answer(await emu.click(alice, emu.channel_messages(channel)[0], label="Start"))
    hand = await show_hand(emu, alice, table)
    assert hand_size(hand) == 5
