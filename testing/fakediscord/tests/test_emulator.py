"""End-to-end checks of the Discord emulator with a real, in-process discord.py bot.

Why: the emulator is only useful if a genuine discord.py client logs in, syncs commands and
answers interactions against it exactly as against Discord, and if it refuses what Discord
refuses. Each test starts the emulator and a tiny bot, then drives it as users would.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
import sys
from collections.abc import AsyncIterator
from typing import Any, TypeVar, cast

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from testing.fakediscord import (
    MANAGE_GUILD,
    DriverError,
    FakeDiscord,
    Guild,
    Interaction,
    InteractionFailed,
    limits,
)

# -- the test bot ---------------------------------------------------------------------------


class HandCard(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"hand:(?P<n>\d+)"):
    """A card of a private hand; clicking it edits the hand (type 7)."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Card {n}", custom_id=f"hand:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HandCard:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(HandCard(self.n + 1))
        await interaction.response.edit_message(content=f"played {self.n}", view=view)


class DupA(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dup:(?P<x>\w+)"):
    """Two overlapping templates: both fire, the second answer is refused (40060)."""

    def __init__(self, x: str) -> None:
        super().__init__(discord.ui.Button(label="dup", custom_id=f"dup:{x}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DupA:
        return cls(match["x"])

    async def callback(self, interaction: discord.Interaction) -> None:
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message("A", ephemeral=True)


class DupB(DupA, template=r"dup:.+"):
    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DupB:
        return cls("b")


class Peek(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"peek"):
    """A public button answered by a deferred update, then a private follow-up; then the bot
    edits through the token: `@original` (the clicked, public message) and the follow-up."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Peek", custom_id="peek"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Peek:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # a deferred update of the public message
        secret = await interaction.followup.send("secret", ephemeral=True, wait=True)
        await interaction.followup.edit_message(secret.id, content="secret, edited")
        await interaction.edit_original_response(content="public, edited")


class TableCard(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"table:(?P<n>\d+)"):
    """A button in a Components V2 layout; clicking redraws the layout."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Top {n}", custom_id=f"table:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableCard:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=table_view(self.n + 1))


def table_view(n: int) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay(f"# Table {n}"),
            discord.ui.Section(discord.ui.TextDisplay("top card"), accessory=TableCard(n)),
        )
    )
    return view


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}", ephemeral=True)


class Picker(discord.ui.View):
    @discord.ui.select(
        custom_id="pick",
        options=[
            discord.SelectOption(label="Red", value="r"),
            discord.SelectOption(label="Blue", value="b"),
        ],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class Uno(app_commands.Group, name="uno", description="Play UNO"):
    def __init__(self, bot: Any) -> None:
        super().__init__()
        self.bot = bot

    @app_commands.command(description="Show your hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(HandCard(1))
        await interaction.response.send_message("your hand", view=view, ephemeral=True)

    @app_commands.command(description="Defer, then follow up")
    @app_commands.describe(text="What to say")
    async def slow(self, interaction: discord.Interaction, text: str, times: int = 1) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.05)
        await interaction.followup.send(f"done {text} x{times}")

    @app_commands.command(description="Defer, delete the thinking message, then follow up")
    async def vanish(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.delete_original_response()
        try:
            await interaction.followup.send("nobody sees this")
        except discord.NotFound as exc:
            self.bot.errors.append(exc)

    @app_commands.command(description="Answer too late")
    async def late(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(self.bot.late_delay)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            self.bot.errors.append(exc)

    @app_commands.command(description="Post a public button answered privately")
    async def peek(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Peek())
        await interaction.response.send_message("public", view=view)

    @app_commands.command(description="Post overlapping buttons")
    async def dup(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(DupA("x"))
        await interaction.response.send_message("dup", view=view)

    @app_commands.command(description="Autocomplete a card")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        await interaction.response.send_message(f"played {card}", ephemeral=True)

    @play.autocomplete("card")
    async def play_card(self, interaction: discord.Interaction, current: str) -> list[Any]:
        cards = ["red 1", "red 2", "blue 5"]
        return [app_commands.Choice(name=c, value=c) for c in cards if current in c]

    @app_commands.command(description="A Components V2 table")
    async def table(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=table_view(1))

    @app_commands.command(description="Ask a name")
    async def greet(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @app_commands.command(description="Pick a colour")
    async def colour(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick", view=Picker(timeout=None), ephemeral=True)

    @app_commands.command(description="Send a file")
    async def file(self, interaction: discord.Interaction) -> None:
        png = discord.File(io.BytesIO(b"PNG"), "table.png")
        await interaction.response.send_message("table", file=png)

    @app_commands.command(description="Who is it")
    async def who(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await interaction.response.send_message(f"{player.name} {interaction.locale.value}")


class UnoBot(commands.Bot):
    def __init__(self, guild_id: int | None = None, **kwargs: Any) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), **kwargs)
        self.sync_guild_id = guild_id
        self.late_delay = 0.5
        self.errors: list[Exception] = []

    async def setup_hook(self) -> None:
        await setup_uno(self)


class ShardedUnoBot(commands.AutoShardedBot):
    def __init__(self, guild_id: int | None = None, **kwargs: Any) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), **kwargs)
        self.sync_guild_id = guild_id
        self.late_delay = 0.5
        self.errors: list[Exception] = []

    async def setup_hook(self) -> None:
        await setup_uno(self)


async def setup_uno(bot: UnoBot | ShardedUnoBot) -> None:
    bot.add_dynamic_items(HandCard, DupA, DupB, TableCard, Peek)
    bot.tree.add_command(Uno(bot))
    if bot.sync_guild_id is not None:
        guild = discord.Object(bot.sync_guild_id)
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)


BotT = TypeVar("BotT", bound=discord.Client)


@contextlib.asynccontextmanager
async def running(emu: FakeDiscord, bot: BotT) -> AsyncIterator[BotT]:
    """Run ``bot`` against ``emu`` in this event loop; restore discord.py's endpoints after."""
    with emu.patch_discord():
        task = asyncio.create_task(bot.start(emu.token))
        # Surface start-up errors instead of a wait_for_bot timeout.
        await emu.wait_for(lambda: task.done() or emu.gateway.live, 5)
        if task.done():
            task.result()
        try:
            yield bot
        finally:
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 5)


World = tuple[FakeDiscord, Guild, UnoBot]


@pytest.fixture
async def emu() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as e:
        yield e


@pytest.fixture
async def world(emu: FakeDiscord) -> AsyncIterator[World]:
    guild = emu.add_guild("Test Guild")
    bot = UnoBot(guild.id)
    async with running(emu, bot):
        await emu.wait_for_bot(5)
        await emu.wait_for_commands(guild, 5)
        yield emu, guild, bot


# -- tests ----------------------------------------------------------------------------------


async def test_replies_are_plain_application_json(emu: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        auth = {"Authorization": f"Bot {emu.token}"}
        async with http.get(f"{emu.api_base}/users/@me", headers=auth) as r:
            assert r.headers["Content-Type"] == "application/json"
            assert (await r.json())["bot"] is True
        async with http.get(f"{emu.api_base}/nope/nothing", headers=auth) as r:
            assert r.status == 404
            assert r.headers["Content-Type"] == "application/json"
            assert "message" in await r.json()
        async with http.get(f"{emu.api_base}/users/@me") as r:
            assert r.status == 401
    assert [r.path for r in emu.unknown_routes] == ["/nope/nothing"]


async def test_login_ready_and_guild_sync(world: World) -> None:
    emu, guild, bot = world
    await emu.wait_for(lambda: bot.get_guild(guild.id) is not None, 3)
    assert bot.user is not None and bot.user.id == emu.bot_user.id
    assert bot.application_id == emu.application_id
    names = [c["name"] for c in emu.commands[guild.id]]
    assert names == ["uno"]
    assert emu.command_syncs[guild.id] == 1 and emu.command_syncs[None] == 0
    subs = {o["name"] for o in emu.commands[guild.id][0]["options"]}
    assert {"hand", "slow", "late", "dup", "play", "who"} <= subs
    seen = bot.get_guild(guild.id)
    assert seen is not None and seen.get_channel(guild.default_channel) is not None


async def test_ephemeral_hand_and_type7_click(world: World) -> None:
    emu, guild, _ = world
    alice = emu.add_user("alice", guild)
    bob = emu.add_user("bob", guild)
    channel = guild.default_channel
    res = await emu.slash(alice, channel, "uno hand")
    hand = await res.response()
    assert hand is not None and hand.ephemeral and hand.content == "your hand"
    assert hand.buttons == [("hand:1", "Card 1", False, 2)]
    assert res.ack_type == 4 and res.latency is not None and res.latency < 1
    # Only alice sees it.
    assert hand in emu.visible_messages(alice, channel)
    assert hand not in emu.visible_messages(bob, channel)
    assert emu.channel_messages(channel) == [] and emu.ephemerals(alice) == [hand]
    with pytest.raises(DriverError):
        await emu.click(bob, hand, "hand:1")
    with pytest.raises(DriverError):
        await emu.click(alice, hand, "hand:9")
    click = await emu.click(alice, hand, "hand:1")
    edited = await click.response()
    assert click.ack_type == 7 and edited is hand
    assert hand.content == "played 1" and hand.custom_ids == ["hand:2"] and hand.edit_count == 1
    again = await emu.click(alice, hand, label="Card 2")
    await again.response()
    assert hand.content == "played 2"
    emu.assert_clean()


async def test_a_deferred_update_s_original_is_the_clicked_message(world: World) -> None:
    """After a deferred update `@original` is the clicked (here public) message; a follow-up is
    a message of its own, reached through the token by its id only."""
    emu, guild, _ = world
    alice = emu.add_user("alice", guild)
    channel = guild.default_channel
    public = await (await emu.slash(alice, channel, "uno peek")).response()
    assert public is not None
    click = await emu.click(alice, public, "peek")
    assert await click.wait() == 6
    secret = await click.followup()
    await emu.wait_for(lambda: public.content == "public, edited", 5, what="@original edited")
    assert click.message is public and not public.ephemeral
    assert secret.ephemeral_for == alice.id and secret.content == "secret, edited"
    assert [h["content"] for h in public.history] == ["public"]  # its versions, in order
    emu.assert_clean()


async def test_a_token_reaches_its_own_messages_for_its_lifetime_only(world: World) -> None:
    """A follow-up is public unless flagged, whatever the click's own answer was; it is edited
    through its own interaction's token only, until that token expires (then 401), and like
    any message older than an hour only a few times (30046)."""
    emu, guild, _ = world
    alice = emu.add_user("alice", guild)
    channel = guild.default_channel
    private = await emu.slash(alice, channel, "uno hand")
    other = await emu.slash(alice, channel, "uno hand")
    assert (await private.response()) is not None and (await other.response()) is not None
    hook = f"{emu.api_base}/webhooks/{emu.application_id}"
    mine, theirs = private.interaction, other.interaction
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{hook}/{mine.token}?wait=true", json={"content": "table"}) as r:
            assert r.status == 200
            posted = emu.messages[int((await r.json())["id"])]
        assert not posted.ephemeral and posted in emu.channel_messages(channel)
        edit = {"content": "table, edited"}
        path = f"/messages/{posted.id}"
        async with http.patch(f"{hook}/{theirs.token}{path}", json=edit) as r:
            assert r.status == 404 and (await r.json())["code"] == 10008
        emu.old_message_age, emu.old_message_edit_limit = 0.0, 0
        try:
            async with http.patch(f"{hook}/{mine.token}{path}", json=edit) as r:
                assert r.status == 400 and (await r.json())["code"] == 30046
        finally:
            emu.old_message_age, emu.old_message_edit_limit = 3600.0, None
        async with http.patch(f"{hook}/{mine.token}{path}", json=edit) as r:
            assert r.status == 200 and posted.content == "table, edited"
        mine.expires_at = emu.now() - 1  # its 15 minutes are over
        async with http.patch(f"{hook}/{mine.token}{path}", json=edit) as r:
            assert r.status == 401 and (await r.json())["code"] == 50027
        async with http.post(f"{hook}/{mine.token}", json={"content": "late"}) as r:
            assert r.status == 401
    kinds = [v.kind for v in emu.violations]
    assert kinds == ["unknown_message", "expired_token", "expired_token"], kinds


async def test_defer_then_followup_fills_the_deferral(world: World) -> None:
    emu, guild, _ = world
    alice = emu.add_user("alice", guild)
    res = await emu.slash(alice, guild.default_channel, "uno slow", text="hi", times=3)
    first = await res.response()
    assert res.ack_type == 5
    msg = await res.settled()
    assert msg is first and msg.content == "done hi x3" and not msg.loading
    assert emu.last_message(guild.default_channel) is msg
    found = await emu.wait_for_message(guild.default_channel, lambda m: "done" in m.content)
    assert found is msg
    emu.assert_clean()


async def test_a_followup_cannot_fill_a_deleted_thinking_message(world: World) -> None:
    """As on Discord: once the "thinking" message is deleted, the first follow-up has nothing
    to complete and is refused with 10008 Unknown Message (it does not become a new message)."""
    emu, guild, bot = world
    alice = emu.add_user("alice", guild)
    before = len(bot.errors)
    await emu.slash(alice, guild.default_channel, "uno vanish")
    await emu.wait_for(lambda: len(bot.errors) > before, 5, what="the refused follow-up")
    error = bot.errors[-1]
    assert isinstance(error, discord.HTTPException) and error.code == 10008
    assert not [m for m in emu.channel_messages(guild.default_channel) if "nobody" in m.text]


async def test_options_autocomplete_and_locale(world: World) -> None:
    emu, guild, _ = world
    alice = emu.add_user("alice", guild, locale="fr")
    bob = emu.add_user("bob", guild)
    channel = guild.default_channel
    choices = await emu.autocomplete(alice, channel, "uno play", focused="card", card="red")
    assert [c["value"] for c in choices] == ["red 1", "red 2"]
    res = await emu.slash(alice, guild.default_channel, "uno who", player=bob)
    msg = await res.response()
    assert msg is not None and msg.content == "bob fr"
    with pytest.raises(DriverError):
        await emu.slash(alice, guild.default_channel, "uno who")  # required option missing
    with pytest.raises(DriverError):
        await emu.slash(alice, guild.default_channel, "uno slow", text="x", times="3")
    emu.assert_clean()


async def test_double_acknowledgement_is_refused(world: World) -> None:
    emu, guild, _ = world
    alice = emu.add_user("alice", guild)
    posted = await (await emu.slash(alice, guild.default_channel, "uno dup"))
    assert posted is not None
    click = await emu.click(alice, posted, "dup:x")
    await click.response()
    await emu.wait_for(lambda: emu.violations, 3)
    assert [(v.code, v.kind) for v in emu.violations] == [(40060, "already_acknowledged")]
    assert click.errors and click.errors[0].code == 40060


async def test_late_answer_fails_the_interaction(world: World) -> None:
    emu, guild, bot = world
    emu.callback_deadline = 0.3
    alice = emu.add_user("alice", guild)
    res = await emu.slash(alice, guild.default_channel, "uno late")
    with pytest.raises(InteractionFailed):
        await res.response()
    assert res.failed and emu.failed_interactions == [res.interaction]
    await emu.wait_for(lambda: bot.errors, 3)
    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10062
    assert emu.violations[0].kind == "late_callback"


async def test_message_limits_are_enforced(world: World) -> None:
    emu, guild, bot = world
    channel = bot.get_partial_messageable(guild.default_channel)
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert too_long.value.status == 400 and too_long.value.code == 50035
    ok = await channel.send("x" * 2000)
    last = emu.last_message(guild.default_channel)
    assert last is not None and last.id == ok.id
    rows = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": f"b{r}"}]}
        for r in range(6)
    ]
    with pytest.raises(discord.HTTPException) as too_many:
        route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
        await bot.http.request(route, json={"content": "26", "components": rows})
    assert too_many.value.status == 400
    buttons = [{"type": 2, "style": 1, "label": "b", "custom_id": f"c{i}"} for i in range(6)]
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"components": [{"type": 1, "components": buttons}]})
    kinds = [v.kind for v in emu.violations]
    assert kinds == ["invalid_form_body"] * 3
    assert "content" in (emu.violations[0].errors or {})
    mark = emu.mark()
    emu.assert_clean(since=mark)
    # Ephemeral messages cannot be reached through the channel endpoints.
    alice = emu.add_user("alice", guild)
    hand = await (await emu.slash(alice, guild.default_channel, "uno hand"))
    assert hand is not None
    with pytest.raises(discord.NotFound):
        await channel.get_partial_message(hand.id).edit(content="hack")
    assert [v.kind for v in emu.violations[mark[0] :]] == ["ephemeral_via_channel"]
    with pytest.raises(AssertionError, match="ephemeral_via_channel"):
        emu.assert_clean(since=mark)


async def test_permissions_and_admin_commands(emu: FakeDiscord) -> None:
    guild = emu.add_guild("Perms")
    admin = emu.add_user("admin", guild, permissions=MANAGE_GUILD)
    pleb = emu.add_user("pleb", guild)
    assert guild.permissions(admin.id) & MANAGE_GUILD
    assert not guild.permissions(pleb.id) & MANAGE_GUILD
    assert guild.permissions(guild.owner_id) & MANAGE_GUILD
    no_send = discord.Permissions(send_messages=True).value
    locked = emu.add_channel(guild, "locked", bot_deny=no_send)
    bot = UnoBot(guild.id)
    async with running(emu, bot):
        await emu.wait_for_bot(5)
        await emu.wait_for_commands(guild, 5)
        with pytest.raises(discord.Forbidden):
            await bot.get_partial_messageable(locked).send("hi")
    assert [v.kind for v in emu.violations] == ["missing_permissions"]


async def test_sharded_bots_only_get_their_guilds(emu: FakeDiscord) -> None:
    g0 = emu.add_guild("Shard zero", shard=(0, 2))
    g1 = emu.add_guild("Shard one", shard=(1, 2))
    assert (g0.id >> 22) % 2 == 0 and (g1.id >> 22) % 2 == 1
    bot0 = ShardedUnoBot(g0.id, shard_count=2, shard_ids=[0])
    async with running(emu, bot0):
        await emu.wait_for_bot(5)
        await emu.wait_for_commands(g0, 5)
        await emu.wait_for(lambda: bot0.get_guild(g0.id) is not None, 3)
        assert [g.id for g in bot0.guilds] == [g0.id]
        assert emu.gateway.live[0].shard == (0, 2)
        # A second process runs shard 1 (it does not sync: the commands already exist).
        emu.commands[g1.id] = [dict(c, guild_id=str(g1.id)) for c in emu.commands[g0.id]]
        bot1 = ShardedUnoBot(None, shard_count=2, shard_ids=[1])
        async with running(emu, bot1):
            await emu.wait_for_bot(5, count=2)
            await emu.wait_for(lambda: bot1.get_guild(g1.id) is not None, 3)
            assert [g.id for g in bot1.guilds] == [g1.id]
            alice = emu.add_user("alice", g1)
            res = await emu.slash(alice, g1.default_channel, "uno hand")
            assert (await res.response()) is not None
            conn = next(c for c in emu.gateway.live if c.shard == (1, 2))
            assert res.interaction.delivered_to == conn.session_id
            # A guild added later reaches only its shard.
            g2 = emu.add_guild("Late", shard=(1, 2))
            await emu.wait_for(lambda: bot1.get_guild(g2.id) is not None, 3)
            assert bot0.get_guild(g2.id) is None
    assert emu.command_syncs[g1.id] == 0
    emu.assert_clean()


async def test_undelivered_interaction_fails(emu: FakeDiscord) -> None:
    emu.callback_deadline = 0.1
    guild = emu.add_guild()
    alice = emu.add_user("alice", guild)
    emu.commands[None] = [{"id": "1", "name": "ping", "description": "p", "type": 1, "options": []}]
    res = await emu.slash(alice, guild.default_channel, "ping")
    assert not res.delivered
    assert await res.wait() is None and res.failed


async def test_v2_modal_select_file_and_reconnect(world: World) -> None:
    emu, guild, _ = world
    alice = emu.add_user("alice", guild)
    channel = guild.default_channel
    table = await (await emu.slash(alice, channel, "uno table"))
    assert table is not None and table.components_v2 and table.content == ""
    assert table.buttons == [("table:1", "Top 1", False, 2)] and "# Table 1" in table.text
    await (await emu.click(alice, table, "table:1"))
    assert "# Table 2" in table.text and table.custom_ids == ["table:2"]
    opened = await emu.slash(alice, channel, "uno greet")
    assert await opened.response() is None and opened.ack_type == 9
    assert opened.modal is not None and opened.modal["title"] == "Your name"
    hello = await (await emu.submit_modal(alice, opened, {"Name": "Ann"}))
    assert hello is not None and hello.content == "hello Ann" and hello.ephemeral
    menu = await (await emu.slash(alice, channel, "uno colour"))
    assert menu is not None
    with pytest.raises(DriverError):
        await emu.select(alice, menu, "pick", ["green"])
    await (await emu.select(alice, menu, "pick", ["b"]))
    assert menu.content == "picked b" and menu.components == []
    sent = await (await emu.slash(alice, channel, "uno file"))
    assert sent is not None and [a["filename"] for a in sent.attachments] == ["table.png"]
    # Op 7 RECONNECT: discord.py resumes, and the table still works.
    await emu.reconnect_bots()
    await emu.wait_for_bot(3, new=True)
    assert emu.gateway.resumes == 1
    await (await emu.click(alice, table, "table:2"))
    assert "# Table 3" in table.text
    emu.assert_clean()


def test_limits_catch_what_discord_refuses() -> None:
    def button(i: int, **kw: Any) -> dict[str, Any]:
        return {"type": 2, "style": 1, "label": "b", "custom_id": f"c{i}"} | kw

    def codes(msg: dict[str, Any]) -> set[str]:
        return {i.code for i in limits.check_message(msg, creating=True)}

    assert codes({"content": "x" * 2000}) == set()
    rows = [{"type": 1, "components": [button(r * 5 + i) for i in range(5)]} for r in range(5)]
    assert codes({"components": rows}) == set()
    dup = [{"type": 1, "components": [button(1), button(1)]}]
    assert "COMPONENT_CUSTOM_ID_DUPLICATED" in codes({"components": dup})
    assert "BASE_TYPE_MAX_LENGTH" in codes(
        {"components": [{"type": 1, "components": [button(1, label="x" * 81)]}]}
    )
    assert "BASE_TYPE_MAX_LENGTH" in codes(
        {"components": [{"type": 1, "components": [button(1, custom_id="x" * 101)]}]}
    )
    options = [{"label": str(i), "value": str(i)} for i in range(26)]
    select = {"type": 3, "custom_id": "s", "options": options}
    assert "BASE_TYPE_MAX_LENGTH" in codes({"components": [{"type": 1, "components": [select]}]})
    same = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "v"}] * 2}
    assert "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED" in codes(
        {"components": [{"type": 1, "components": [same]}]}
    )
    embed = {
        "title": "t",
        "description": "d" * 4000,
        "fields": [{"name": "n", "value": "v" * 1024}] * 2,
    }
    assert "MESSAGE_EMBEDS_TOTAL_LENGTH" in codes({"embeds": [embed]})
    assert "BASE_TYPE_MAX_LENGTH" in codes({"embeds": [{"title": "t" * 257}]})
    texts = [{"type": 10, "content": "t"} for _ in range(41)]
    v2 = {"flags": 1 << 15, "components": texts}
    assert "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED" in codes(v2)
    assert "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in codes(
        {"flags": 1 << 15, "content": "x", "components": texts[:1]}
    )
    assert "COMPONENT_TYPE_REQUIRES_COMPONENTS_V2" in codes({"components": texts[:1]})
    both = {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    assert "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE" in codes(both)
    assert codes({"content": "x", "allowed_mentions": {"parse": [], "users": ["1"]}}) == set()


def test_command_localisations_are_checked_like_discord() -> None:
    def codes(**localised: Any) -> set[str]:
        choice = {"name": "Red", "value": "R", **localised.pop("choice", {})}
        option = {"type": 3, "name": "color", "description": "d", "choices": [choice]}
        command = {"name": "play", "description": "d", "options": [option], **localised}
        return {i.code for i in limits.check_commands([command])}

    assert codes(name_localizations={"de": "spielen", "no": "spill"}) == set()
    assert codes(description_localizations={"de": "x" * 100}) == set()
    assert codes(choice={"name_localizations": {"de": "Rot mit Leerzeichen"}}) == set()
    assert codes(name_localizations={"de": "Spielen"}) == {"APPLICATION_COMMAND_INVALID_NAME"}
    assert codes(name_localizations={"de": "zwei wörter"}) == {"APPLICATION_COMMAND_INVALID_NAME"}
    assert codes(name_localizations={"xx": "play"}) == {"BASE_TYPE_CHOICES"}
    assert codes(description_localizations={"de": "x" * 101}) == {"BASE_TYPE_BAD_LENGTH"}
    assert codes(choice={"name_localizations": {"no": ""}}) == {"BASE_TYPE_BAD_LENGTH"}


async def test_messages_keep_their_allowed_mentions(world: World) -> None:
    """Only a new message notifies, and only the users its allowed_mentions let through."""
    emu, guild, bot = world
    channel = bot.get_partial_messageable(guild.default_channel)
    alice, bob = emu.add_user("alice", guild), emu.add_user("bob", guild)
    text = f"<@{alice.id}> and <@!{bob.id}>"
    only_alice = discord.AllowedMentions(users=[discord.Object(id=alice.id)], everyone=False)
    sent = await channel.send(text, allowed_mentions=only_alice)
    msg = emu.message_of(sent.id)
    assert msg.allowed_mentions is not None
    assert [int(u) for u in msg.allowed_mentions["users"]] == [alice.id]
    assert msg.notified == {alice.id}
    nobody = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
    assert emu.message_of(nobody.id).notified == set()
    edited = await channel.send("no mention yet", allowed_mentions=discord.AllowedMentions.all())
    await edited.edit(content=text)
    assert emu.message_of(edited.id).notified == set()  # an edit never notifies


async def test_a_repeated_nonce_returns_the_first_message(world: World) -> None:
    """`enforce_nonce`: a create with a nonce the same author used in the same channel within
    minutes returns that message, even when its first answer was lost (Discord's 500 after it
    created the message); without `enforce_nonce`, or elsewhere, a new one is created."""
    emu, guild, bot = world
    channel = bot.get_partial_messageable(guild.default_channel)
    first = await channel.send("results", nonce="n-1")  # discord.py sets enforce_nonce
    again = await channel.send("results", nonce="n-1")
    assert again.id == first.id and again.nonce == "n-1"
    other = await channel.send("results", nonce="n-2")
    assert other.id != first.id
    elsewhere = emu.add_channel(guild, "elsewhere")
    there = await bot.get_partial_messageable(elsewhere).send("results", nonce="n-1")
    assert there.id != first.id
    # The answer is lost after Discord created the message; discord.py retries the 500.
    fault = emu.fail_route("POST", "/channels/{id}/messages", status=500, count=1, applied=True)
    lost = await channel.send("lost answer", nonce="n-3")
    assert len(fault.hits) == 1
    shown = [m.id for m in emu.channel_messages(guild.default_channel) if m.text == "lost answer"]
    assert shown == [lost.id]
    emu.nonce_window = 0.0  # past Discord's few minutes: a new message
    late = await channel.send("results", nonce="n-1")
    assert late.id != first.id


SUBPROCESS_BOT = """
import asyncio, os, sys
import discord, yarl
discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])
client = discord.Client(intents=discord.Intents.default())
print("starting", flush=True)
client.run(os.environ["DISCORD_TOKEN"], log_handler=None)
"""


async def test_bot_subprocess_crash_and_restart(emu: FakeDiscord, tmp_path: Any) -> None:
    script = tmp_path / "tiny_bot.py"
    script.write_text(SUBPROCESS_BOT)
    emu.add_guild("Proc")
    proc = await emu.bot_process([sys.executable, str(script)]).start()
    try:
        await emu.wait_for_bot(10)
        assert await proc.kill() == -9
        await emu.wait_for(lambda: not emu.gateway.live, 3)
        again = await emu.bot_process([sys.executable, str(script)]).start()
        await emu.wait_for_bot(10, new=True)
        await again.stop()
        assert "starting" in again.output
    finally:
        await proc.stop()
    emu.assert_clean()


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_the_global_limit_answers_like_discord(emu: FakeDiscord) -> None:
    clock = FakeClock()
    emu.global_limit.clock = clock
    # The limit asks only whether a token is live: a stand-in interaction does.
    emu.tokens["itok_live"] = cast(Interaction, object())
    auth = {"Authorization": f"Bot {emu.token}"}
    async with aiohttp.ClientSession() as http:
        for _ in range(50):
            async with http.get(f"{emu.api_base}/users/@me", headers=auth) as r:
                assert r.status == 200
        async with http.get(f"{emu.api_base}/users/@me", headers=auth) as r:
            assert r.status == 429
            assert r.headers["X-RateLimit-Global"] == "true"
            assert r.headers["X-RateLimit-Scope"] == "global"
            assert r.headers["Retry-After"] == "1"
            body = await r.json()
            assert body["global"] is True and 0 < body["retry_after"] <= 1
        # Interaction routes are exempt: answered (here refused as malformed), never 429.
        for path in ("/interactions/1/itok_live/callback", "/webhooks/1/itok_live"):
            async with http.post(f"{emu.api_base}{path}", json={}) as r:
                assert r.status != 429
        # A webhook route without a live interaction token counts.
        async with http.post(f"{emu.api_base}/webhooks/1/other", json={}, headers=auth) as r:
            assert r.status == 429
        clock.now += 1.0
        async with http.get(f"{emu.api_base}/users/@me", headers=auth) as r:
            assert r.status == 200
    limit = emu.global_limit
    assert (limit.limited, limit.exempt, limit.global_429s) == (53, 2, 2)
    assert limit.invalid == 2


async def test_invalid_requests_get_the_address_banned(emu: FakeDiscord) -> None:
    clock = FakeClock()
    emu.global_limit.clock = clock
    emu.global_limit.invalid_max = 3
    emu.global_limit.invalid_window = 10.0
    async with aiohttp.ClientSession() as http:
        for _ in range(2):
            async with http.get(f"{emu.api_base}/users/@me") as r:
                assert r.status == 401
        clock.now += 10.0  # the first two leave the window
        for _ in range(3):
            async with http.get(f"{emu.api_base}/users/@me") as r:
                assert r.status == 401
        async with http.get(f"{emu.api_base}/users/@me", headers={"Authorization": "Bot x"}) as r:
            assert r.status == 429 and "Via" not in r.headers  # Cloudflare's, not Discord's
    assert emu.global_limit.invalid == 5 and emu.global_limit.invalid_peak == 3
    assert [v.kind for v in emu.violations] == ["cloudflare_ban"]


async def test_an_emulator_takes_only_its_own_bot_token(emu: FakeDiscord) -> None:
    """A bot left over from another run, reconnecting to a port this emulator now uses, is
    refused: each emulator has a token of its own unless one is given."""
    assert FakeDiscord().token != emu.token
    async with aiohttp.ClientSession() as http:
        for token, status in ((emu.token, 200), ("fake-discord-token", 401)):
            auth = {"Authorization": f"Bot {token}"}
            async with http.get(f"{emu.api_base}/users/@me", headers=auth) as r:
                assert r.status == status
