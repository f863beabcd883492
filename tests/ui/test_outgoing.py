"""`Outgoing`, the message every renderer returns: a picture is pointed at on a copy of the
first embed, and a message sent without its (late) picture points at none."""

from __future__ import annotations

import discord
import pytest

from bot.engine import Game, RuleSet
from bot.ui.outgoing import Outgoing
from bot.ui.pictures import TABLE_FILE, Picture, table_picture


def _picture() -> Picture:
    game = Game.new([1, 2], RuleSet(), seed=3)
    picture = table_picture(game, {1: "Ann", 2: "Bob"}, None)
    assert picture is not None
    return picture


def test_of_holds_one_embed_or_none() -> None:
    embed = discord.Embed(description="x")
    assert Outgoing.of(embed).embeds == (embed,) and Outgoing.of(embed).embed is embed
    assert Outgoing.of(None).embeds == () and Outgoing.of(None).embed is None
    assert Outgoing.of(content="hi").content == "hi"


def test_showing_points_a_copy_of_the_first_embed_at_the_picture() -> None:
    picture = _picture()
    first, second = discord.Embed(description="a"), discord.Embed(description="b")
    message = Outgoing(embeds=(first, second))
    shown = message.showing(picture)
    assert shown.picture is picture
    assert shown.embeds[0].image.url == f"attachment://{TABLE_FILE}"
    assert shown.embeds[1] is second
    assert first.image.url is None  # the renderer's embed untouched
    assert message.showing(None) is message
    assert Outgoing(content="x").showing(picture).picture is None  # no embed to show it in


def test_without_picture_unpoints_copies_and_drops_the_picture() -> None:
    picture = _picture()
    shown = Outgoing.of(discord.Embed(description="x")).showing(picture)
    bare = shown.without_picture()
    assert bare.picture is None and bare.embeds[0].image.url is None
    assert bare.embeds[0].description == "x"
    assert shown.embeds[0].image.url == f"attachment://{TABLE_FILE}"  # the original kept
    other = discord.Embed().set_image(url="https://example.com/x.png")
    kept = Outgoing(embeds=(other,), picture=picture).without_picture()
    assert kept.embeds[0] is other  # an image that is not the picture stays


def test_an_outgoing_is_frozen() -> None:
    message = Outgoing(content="x")
    with pytest.raises(AttributeError):
        message.content = "y"
