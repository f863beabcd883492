"""A game's table goes through its clicks' tokens, on routes exempt from Discord's global limit.

The bot keeps a token for the table TABLE_TOKEN_TTL = 6 s here (Discord: 15 minutes, the bot
14), so the tests can outlive one: after the Start click the table is edited through the Start's
token (`@original`: the lobby it became), moved to a newer click's token before that expires,
and put on the channel routes when no click is fresh (the turn timer moved the game) or when
Discord refused the token (401 past Discord's own count, a 5xx), never left frozen. Tokens live
in memory only: after a restart the table goes through the channel until the next click. And
nothing private goes public: the table is never ephemeral, a hand never a public follow-up.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from testing.bot_env import bot_env
from testing.fakediscord import MANAGE_GUILD, FakeDiscord, Message, RequestRecord, User
from testing.fakediscord.process import BotProcess
from testing.paced_bot import SCALE_VARIABLE, paced_bot_args
from testing.players import HAND_ID, Table, actions, answer, deal, open_game, version_of
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Seconds after its click that the bot edits a table through a token (Discord: 900).
BOT_TTL = 6.0
#: Turn timers run a tenth of their length: the server's 90 s is 9 s, past BOT_TTL.
TIMER_SCALE = 0.1
#: Round 1: alice (first to play) and bob only hold number cards that follow the red starter.
HANDS = ["R1 R2 R3 R4 G6 G7 G8", "R6 R7 R8 R9 Y6 Y7 Y8"]


@dataclass
class Tokens:
    emu: FakeDiscord
    bot: BotProcess
    guild: Any
    decks: Path
    n: int = 0


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Tokens]:
    tmp = tmp_path_factory.mktemp("table-tokens")
    emu = FakeDiscord()
    await emu.start()
    guild = emu.add_guild("Tokens")
    env = bot_env(
        emu,
        tmp,
        DEV_GUILD_ID=str(guild.id),
        TABLE_TOKEN_TTL=str(BOT_TTL),
        HAND_TOKEN_TTL=str(BOT_TTL),
        UNO_TEST_TIMER_SCALE=str(TIMER_SCALE),
        **{SCALE_VARIABLE: "0.05"},  # discord.py gives up on a 5xx within a second
    )
    bot = emu.bot_process(paced_bot_args(), env=env, cwd=str(ROOT))
    try:
        await bot.start()
        await emu.wait_for_bot(timeout=30)
        await emu.wait_for_commands(guild, timeout=30)
        await emu.wait_for(lambda: "ready as" in bot.output, 30, what="the bot's on_ready")
        yield Tokens(emu, bot, guild, tmp / "decks.json")
    finally:
        await bot.stop()
        await emu.stop()


@dataclass
class Game:
    channel: int
    game_id: int
    table: Message
    alice: User
    bob: User


async def _game(w: Tokens, *, turn_timer: str = "0") -> Game:
    """A game between alice and bob with a fixed deal, alice to play."""
    emu = w.emu
    w.n += 1
    channel = emu.add_channel(w.guild, f"tokens-{w.n}")
    admin = emu.add_user(f"admin{w.n}", w.guild, permissions=MANAGE_GUILD)
    timer = await answer(
        await emu.slash(admin, channel, "uno-admin set", option="turn_timer", value=turn_timer)
    )
    assert "changed" in timer.text, timer.text
    alice, bob = emu.add_user(f"alice{w.n}", w.guild), emu.add_user(f"bob{w.n}", w.guild)
    w.decks.write_text(json.dumps({str(channel): {"deck": deal(HANDS, "R5"), "dealer_seat": 1}}))
    table = await open_game(emu, channel, alice, [bob])
    return Game(channel, Table(emu, channel).game_id, table, alice, bob)


async def _play(emu: FakeDiscord, user: User, table: Message, card: str) -> int:
    """`user` opens their hand on the channel's table and plays `card`: the game's version."""
    hand_button = next(c for c in table.custom_ids if HAND_ID.match(c))
    hand = await answer(await emu.click(user, table, hand_button))
    played = await answer(await emu.click(user, hand, actions(hand)[f"play:{card}"]))
    version = version_of(played)
    assert version is not None, played.text
    return version


def _carries_table(record: RequestRecord, game_id: int) -> bool:
    """Whether a request's body is the game's table (its Show my hand button)."""
    return f'"uno:{game_id}:hand"' in json.dumps(record.json)


def _table_requests(emu: FakeDiscord, g: Game, since: int) -> list[RequestRecord]:
    """The requests since `since` that posted or edited the game's table."""
    return [r for r in emu.requests[since:] if _carries_table(r, g.game_id)]


def _version(record: RequestRecord, g: Game) -> int:
    """The game's version a table request shows (0: none)."""
    found = re.findall(rf"uno:{g.game_id}:(\d+):", json.dumps(record.json))
    return max(map(int, found), default=0)


def _on_channel(record: RequestRecord) -> bool:
    return record.path.startswith("/channels/")


def _tables(emu: FakeDiscord, g: Game) -> list[Message]:
    return [m for m in emu.channel_messages(g.channel) if f"uno:{g.game_id}:hand" in m.custom_ids]


async def _one_table(emu: FakeDiscord, g: Game, table: Message) -> None:
    """Wait until `table` is the channel's one table of the game (an old one deleted)."""
    await emu.wait_for(
        lambda: [m.id for m in _tables(emu, g)] == [table.id], 5, what="one table in the channel"
    )


def _nothing_private_public(emu: FakeDiscord, g: Game) -> None:
    """Every table of the game (deleted ones too) was public; every hand private."""
    mine = [m for m in emu.messages.values() if m.channel_id == g.channel]
    tables = [m for m in mine if f"uno:{g.game_id}:hand" in m.custom_ids]
    hands = [m for m in mine if any(":play:" in c for c in m.custom_ids)]
    assert tables and hands
    assert not [m.id for m in tables if m.ephemeral], "a table was private"
    assert not [m.id for m in hands if not m.ephemeral], "a hand went public"


async def test_table_edits_after_the_start_go_through_its_token(world: Tokens) -> None:
    emu = world.emu
    since = len(emu.requests)
    g = await _game(world)
    await _play(emu, g.alice, g.table, "R1")
    await _play(emu, g.bob, g.table, "R6")
    final = await _play(emu, g.alice, g.table, "R2")
    shown = await Table(emu, g.channel).at_version(final)

    carried = _table_requests(emu, g, since)
    start = next(i for i, r in enumerate(carried) if r.path.startswith("/interactions/"))
    after = carried[start + 1 :]  # the Start click's answer made the lobby the table
    assert after, "the table was never edited after the start"
    assert not [r.path for r in after if _on_channel(r)], "a table edit used a channel route"
    assert all(r.path.startswith("/webhooks/") and r.status == 200 for r in after), after
    assert emu.global_limit.exempt > 0
    assert shown.id == g.table.id, "edited in place through the Start's @original"
    _nothing_private_public(emu, g)
    assert emu.violations == []


async def test_a_spent_token_gives_way_to_the_channel_then_to_a_newer_click(
    world: Tokens,
) -> None:
    emu = world.emu
    g = await _game(world, turn_timer="90")  # 9 s here: every token is spent by then
    moved = await _play(emu, g.alice, g.table, "R1")
    since = len(emu.requests)
    # Nobody clicks: bob's time runs out, and the timer's move is shown through the channel
    # (the bot's own count says every click's token is spent; Discord would still take them).
    timed = await Table(emu, g.channel).at_version(moved + 1, timeout=30)
    carried = [r for r in _table_requests(emu, g, since) if _version(r, g) > moved]
    assert carried and all(_on_channel(r) for r in carried), [r.path for r in carried]
    assert [r.status for r in carried] == [200] * len(carried)
    assert timed.id == g.table.id

    # Alice's next click is fresh: the table moves to it, posted as its public follow-up.
    since = len(emu.requests)
    final = await _play(emu, g.alice, timed, "R2")
    new = await Table(emu, g.channel).at_version(final)
    assert new.id != g.table.id and not new.ephemeral
    await emu.wait_for(lambda: g.table.deleted, 5, what="the old table deleted")
    assert [m.id for m in _tables(emu, g)] == [new.id], "one table in the channel"
    posts = [r for r in _table_requests(emu, g, since) if r.method == "POST"]
    assert posts and posts[-1].path.startswith("/webhooks/"), [r.path for r in posts]
    assert not [r for r in emu.requests[since:] if r.status == 401]
    _nothing_private_public(emu, g)
    assert emu.violations == []


async def test_the_table_moves_to_a_newer_click_before_its_token_expires(world: Tokens) -> None:
    emu = world.emu
    g = await _game(world)
    await asyncio.sleep(BOT_TTL * 0.8)  # the Start's token has lived most of its time
    since = len(emu.requests)
    version = await _play(emu, g.alice, g.table, "R1")
    new = await Table(emu, g.channel).at_version(version)
    assert new.id != g.table.id, "the table stayed on the old token"
    await emu.wait_for(lambda: g.table.deleted, 5, what="the old table deleted")
    carried = _table_requests(emu, g, since)
    assert not [r.path for r in carried if _on_channel(r)], "a channel route was used"
    deletes = [r for r in emu.requests[since:] if r.method == "DELETE" and "@original" in r.path]
    assert deletes, "the old table deleted through its own token"
    # The next move edits the new table through the click that posted it.
    since = len(emu.requests)
    final = await _play(emu, g.bob, new, "R6")
    assert (await Table(emu, g.channel).at_version(final)).id == new.id
    assert not [r.path for r in _table_requests(emu, g, since) if _on_channel(r)]
    _nothing_private_public(emu, g)
    assert emu.violations == []


async def test_uno_table_answered_privately_posts_a_public_table(world: Tokens) -> None:
    """`/uno table` is answered privately; the table it asks for comes as a public follow-up of
    that very command, through its token, and the old table goes."""
    emu = world.emu
    g = await _game(world)
    since = len(emu.requests)
    asked = await emu.slash(g.bob, g.channel, "uno table")
    told = await answer(asked)
    assert told.ephemeral
    new = await emu.wait_for(
        lambda: (m := Table(emu, g.channel).message()) is not None and m.id != g.table.id and m,
        10,
        what="the table anew",
    )
    assert not new.ephemeral and new.message_id != told.message_id
    await _one_table(emu, g, new)
    token = asked.interaction.token
    posts = [r for r in _table_requests(emu, g, since) if r.method == "POST"]
    assert [r.path.endswith(token) for r in posts] == [True], [r.path for r in posts]
    _nothing_private_public(emu, g)
    assert emu.violations == []


@pytest.mark.parametrize("status", [500, 503])
async def test_a_failing_token_edit_falls_back_to_the_channel(world: Tokens, status: int) -> None:
    emu = world.emu
    g = await _game(world)
    fault = emu.fail_route(
        "PATCH",
        "/webhooks/{id}/{token}/messages/{id}",
        status=status,
        containing=f'"uno:{g.game_id}:hand"',
    )
    try:
        since = len(emu.requests)
        version = await _play(emu, g.alice, g.table, "R1")
        shown = await Table(emu, g.channel).at_version(version, timeout=15)
    finally:
        fault.clear()
    assert fault.hits, "the table's edit through the token was not tried"
    carried = _table_requests(emu, g, since)
    assert any(_on_channel(r) and r.status == 200 for r in carried), [r.path for r in carried]
    assert shown.id == g.table.id
    # The refused token is not tried again; bob's fresh click carries the table from now on.
    since = len(emu.requests)
    final = await _play(emu, g.bob, shown, "R6")
    new = await Table(emu, g.channel).at_version(final)
    await _one_table(emu, g, new)
    assert not [r.path for r in _table_requests(emu, g, since) if _on_channel(r)]
    assert emu.violations == []


async def test_a_token_discord_refuses_falls_back_to_the_channel(world: Tokens) -> None:
    emu = world.emu
    w = world
    w.n += 1
    channel = emu.add_channel(w.guild, f"tokens-{w.n}")
    alice, bob = emu.add_user(f"alice{w.n}", w.guild), emu.add_user(f"bob{w.n}", w.guild)
    w.decks.write_text(json.dumps({str(channel): {"deck": deal(HANDS, "R5"), "dealer_seat": 1}}))
    lobby = await answer(await emu.slash(alice, channel, "uno new"))
    lobby = await answer(await emu.click(bob, lobby, label="Join"))
    emu.token_ttl = 1.0  # Discord gives up on the Start's token before the bot would
    try:
        table = await answer(await emu.click(alice, lobby, label="Start"))
    finally:
        emu.token_ttl = 900.0
    g = Game(channel, Table(emu, channel).game_id, table, alice, bob)
    await asyncio.sleep(1.2)  # spent at Discord's end, not yet by the bot's count
    refused, since = len(emu.violations), len(emu.requests)
    version = await _play(emu, alice, table, "R1")
    shown = await Table(emu, channel).at_version(version, timeout=15)
    carried = _table_requests(emu, g, since)
    assert [r.path for r in carried if r.status == 401] == [
        r.path for r in carried if "@original" in r.path
    ], "one edit through the Start's token, refused"
    assert any(_on_channel(r) and r.status == 200 for r in carried), [r.path for r in carried]
    assert shown.id == table.id, "edited in place through the channel"
    # (Alice's dealt hand went through the Start's token too: its delete is refused as well.)
    table_refusals = [v for v in emu.violations[refused:] if v.method == "PATCH"]
    assert [(v.kind, v.path.rsplit("/", 1)[1]) for v in table_refusals] == [
        ("expired_token", "@original")
    ]
    # Never through the refused token again: bob's fresh click carries the table from now on.
    since = len(emu.requests)
    final = await _play(emu, bob, shown, "R6")
    new = await Table(emu, channel).at_version(final)
    await _one_table(emu, g, new)
    assert [r.status for r in emu.requests[since:] if r.status >= 400] == []
    _nothing_private_public(emu, g)


async def test_a_restart_resumes_on_the_channel_until_the_next_click(world: Tokens) -> None:
    emu = world.emu
    refused = len(emu.violations)
    g = await _game(world)
    version = await _play(emu, g.alice, g.table, "R1")
    await Table(emu, g.channel).at_version(version)
    await world.bot.kill()
    await world.bot.start()
    await emu.wait_for_bot(timeout=30, new=True)
    since = len(emu.requests)
    # Resumed: the table says so, through the channel (the tokens died with the process).
    resumed = await emu.wait_for(
        lambda: [r for r in _table_requests(emu, g, since) if r.status == 200],
        30,
        what="the resumed table",
    )
    assert all(_on_channel(r) for r in resumed), [r.path for r in resumed]
    # The next click carries the table again, off the channel routes.
    since = len(emu.requests)
    table = Table(emu, g.channel).message()
    assert table is not None
    final = await _play(emu, g.bob, table, "R6")
    new = await Table(emu, g.channel).at_version(final)
    assert not new.ephemeral
    await _one_table(emu, g, new)
    posts = [r for r in _table_requests(emu, g, since) if r.method == "POST"]
    assert posts and all(r.path.startswith("/webhooks/") for r in posts)
    _nothing_private_public(emu, g)
    assert emu.violations[refused:] == []
