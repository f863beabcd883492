"""Three players, three languages, on a Norwegian server: each reads their own hand, refusals and
panels in their own Discord language; the table and the results are in the server's (Norwegian,
its own Discord locale, since nobody chose another); and the synced commands carry German and
Norwegian names and descriptions."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from testing.bot_env import bot_env
from testing.fakediscord import FakeDiscord, Guild, Message
from testing.players import HAND_ID, actions, answer, deal, table_text
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def norwegian(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, Guild, Path]]:
    """An emulator with one Norwegian server, and a bot process of our own serving it."""
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("UNO-klubben", locale="no")
    bot = emu.bot_process(env=bot_env(emu, tmp_path, DEV_GUILD_ID=str(guild.id)), cwd=str(ROOT))
    await bot.start()
    try:
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        yield emu, guild, tmp_path / "decks.json"
        emu.assert_clean()
    finally:
        await bot.stop()
        await emu.stop()


def _embed_text(msg: Message) -> str:
    return "\n".join(
        [e.get("title") or "" for e in msg.embeds]
        + [e.get("description") or "" for e in msg.embeds]
    )


async def test_synced_commands_carry_german_and_norwegian(norwegian: Any) -> None:
    emu, guild, _ = norwegian
    uno = emu.find_command(guild.id, "uno")
    assert uno is not None
    sub = {o["name"]: o for o in uno["options"]}
    assert sub["new"]["name_localizations"]["de"] == "neu"
    assert sub["new"]["name_localizations"]["no"] == "ny"
    assert sub["draw"]["description_localizations"]["de"] == "Eine Karte ziehen"
    assert sub["draw"]["description_localizations"]["no"] == "Trekk et kort"
    color = next(o for o in sub["play"]["options"] if o["name"] == "color")
    red = next(c for c in color["choices"] if c["value"] == "R")
    assert (red["name_localizations"]["de"], red["name_localizations"]["no"]) == ("Rot", "Rød")
    admin = emu.find_command(guild.id, "uno-admin")
    assert admin is not None and admin["name_localizations"]["de"] == "uno-verwaltung"


async def test_each_player_reads_their_own_language(norwegian: Any) -> None:
    emu, guild, decks = norwegian
    channel = emu.add_channel(guild, "uno")
    emma = emu.add_user("emma", guild, locale="en-US")
    greta = emu.add_user("greta", guild, locale="de")
    nils = emu.add_user("nils", guild, locale="no")
    # One card each (Norwegian rules: one round decides): Emma starts and goes out at once.
    spec = {"deck": deal(["R7", "G3", "B4"], "R5"), "dealer_seat": 2, "rules": {"hand_size": 1}}
    decks.write_text(json.dumps({str(channel): spec}))

    lobby = await answer(await emu.slash(emma, channel, "uno new", rules="norway"))
    assert "Klikk **Bli med**" in lobby.text  # the public lobby speaks the server's language
    joined = await answer(await emu.slash(greta, channel, "uno join"))
    assert joined.ephemeral and joined.content == "Du spielst mit."
    lobby = await answer(await emu.click(nils, emu.message_of(lobby.id), label="Bli med"))
    assert not lobby.ephemeral and "**Spillere (3/10)**" in lobby.text

    # The host's own rules panel is private: in English for Emma, whatever the server speaks.
    panel = await answer(await emu.click(emma, emu.message_of(lobby.id), label="Regler"))
    assert panel.ephemeral and "You host this game" in panel.text
    assert "Rules: Norway" in _embed_text(panel)

    table = await answer(await emu.click(emma, emu.message_of(lobby.id), label="Start"))
    shown = _embed_text(table)
    # the draw pile: in the picture's alt text (card pictures on), or the text (off)
    assert "🃏 UNO — runde 1" in shown and "Trekkbunken:" in table_text(table)
    assert {b.label for b in table.buttons} >= {"Vis hånden min", "Trekk"}

    hand_id = next(c for c in table.custom_ids if HAND_ID.match(c))
    hands = {
        u.username: await answer(await emu.click(u, table, hand_id)) for u in (emma, greta, nils)
    }
    assert all(h.ephemeral for h in hands.values())
    assert "Your hand — 1 card" in _embed_text(hands["emma"])
    assert "Deine Hand — 1 Karte" in _embed_text(hands["greta"])
    assert "Hånden din — 1 kort" in _embed_text(hands["nils"])
    assert "Wir warten auf" in hands["greta"].text and "Venter på" in hands["nils"].text

    # Refusals: Greta and Nils try to draw out of turn; each is told in their own language.
    refused = await answer(await emu.slash(greta, channel, "uno draw"))
    assert refused.ephemeral and refused.content.startswith("Du bist nicht dran")
    refused = await answer(await emu.slash(nils, channel, "uno draw"))
    assert refused.ephemeral and refused.content.startswith("Det er ikke din tur")
    rules = await answer(await emu.slash(greta, channel, "uno rules"))
    assert rules.ephemeral and "Regeln: Norwegen" in _embed_text(rules)
    rules = await answer(await emu.slash(nils, channel, "uno rules"))
    assert rules.ephemeral and "Regler: Norge" in _embed_text(rules)

    # Emma plays her last card: her answer is English, the results on the table Norwegian.
    play = actions(hands["emma"])["play:R7"]
    answer_msg = await answer(await emu.click(emma, hands["emma"], play))
    assert answer_msg.ephemeral and "You played 🟥 Red 7" in answer_msg.text
    assert "Your hand — 0 cards" in answer_msg.text and "You won the match!" in answer_msg.text
    assert not answer_msg.buttons  # a finished hand: nothing left to click, not even Refresh
    # The others' open hands follow the game, each in its reader's language.
    for user, words in ((greta, "Die Partie ist vorbei."), (nils, "Kampen er over.")):
        hand = hands[user.username]
        shown = await emu.wait_for(
            lambda h=hand, w=words: w in (m := emu.message_of(h.id)).text and m,
            5,
            what=f"{user.username}'s hand at the end",
        )
        assert "Emma" in shown.text, shown.text
    final = await emu.wait_for_message(
        channel, lambda m: "vant runde 1" in _embed_text(m) + m.text, timeout=5
    )
    assert not final.ephemeral
    assert "**Emma**: +0 (hadde 0 kort)" in final.text and "Vinner av kampen: Emma" in final.text
    over = await emu.wait_for_message(channel, lambda m: "Kampen er over" in m.text, timeout=5)
    assert not over.ephemeral and "🃏 UNO — runde 1" in _embed_text(over)


async def test_an_admin_picks_the_servers_language(norwegian: Any) -> None:
    emu, guild, _ = norwegian
    channel = emu.add_channel(guild, "uno")
    owner = emu.user_of(guild.owner_id)  # Manage Server; their own client speaks English
    offered = await emu.autocomplete(
        owner, channel, "uno-admin set", focused="value", option="language", value=""
    )
    labels = {c["value"]: c["name"] for c in offered}
    assert labels["auto"].startswith("the server's Discord language")
    assert labels["de"].startswith("Deutsch") and labels["no"].startswith("norsk bokmål")
    done = await answer(
        await emu.slash(owner, channel, "uno-admin set", option="language", value="de")
    )
    assert done.ephemeral and "Language changed" in done.text
    lobby = await answer(await emu.slash(owner, channel, "uno new"))
    assert "Klick auf **Beitreten**" in lobby.text  # German now, on a Norwegian server
    refused = await answer(
        await emu.slash(owner, channel, "uno-admin set", option="language", value="xx")
    )
    assert refused.ephemeral and "That value doesn't fit Language:" in refused.text
