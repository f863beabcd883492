"""The lobby's match target: the host picks it before Start, nobody else; one round is one."""

from __future__ import annotations

import pytest

from testing.players import Table, answer, play_match

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _target_select(lobby) -> dict:
    return next(c for c in lobby.selects if c["custom_id"].endswith(":lobby:target"))


async def test_the_host_picks_one_round_and_the_match_ends_after_it(s) -> None:
    emu = s.emu
    channel = s.channel()
    host, ann = s.users("host", "ann")
    lobby = await answer(await emu.slash(host, channel, "uno new"))
    select = _target_select(lobby)
    assert [o["value"] for o in select["options"]] == ["round", "100", "200", "500"]
    assert [o["value"] for o in select["options"] if o.get("default")] == ["500"]
    assert "Match length: **500 points**" in lobby.text
    lobby = await answer(await emu.click(ann, lobby, label="Join"))

    refused = await answer(await emu.select(ann, lobby, select["custom_id"], ["round"]))
    assert refused.ephemeral and "Only the host" in refused.text
    assert "500 points" in Table(emu, channel).message().text

    lobby = await answer(await emu.select(host, lobby, select["custom_id"], ["round"]))
    assert not lobby.ephemeral and "Match length: **one round**" in lobby.text
    assert [o["value"] for o in _target_select(lobby)["options"] if o.get("default")] == ["round"]

    table = await answer(await emu.click(host, lobby, label="Start"))
    assert "UNO — round 1" in table.text
    # The lobby became the table; a client that still sends the select is refused.
    late = await answer(await emu.forge_click(host, table, select["custom_id"], values=["100"]))
    assert late.ephemeral and "already started" in late.text
    assert await play_match(emu, channel, host, [host, ann]) == 1


async def test_a_forged_target_is_refused(s) -> None:
    emu = s.emu
    channel = s.channel()
    (host,) = s.users("host")
    lobby = await answer(await emu.slash(host, channel, "uno new"))
    custom_id = _target_select(lobby)["custom_id"]
    forged = await answer(await emu.forge_click(host, lobby, custom_id, values=["7"]))
    assert forged.ephemeral and "not a valid" in forged.text
    assert "500 points" in Table(emu, channel).message().text
