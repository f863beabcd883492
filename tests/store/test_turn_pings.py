"""The turn ping shown in a game's channel is remembered, so a restart can delete it."""

from __future__ import annotations

from bot.store import Database
from tests.store.conftest import CHANNEL, GUILD, new_running_game


async def test_a_ping_is_remembered_until_it_is_cleared(db: Database) -> None:
    game = await new_running_game(db, {11: "Alice", 12: "Bob"})
    async with db.write() as unit:
        await unit.games.set_ping_message(game.id, 501)
    async with db.read() as unit:
        assert await unit.games.ping_messages() == [(game.id, CHANNEL, 501)]
    # A newer ping replaced it: clearing the older one leaves the newer one remembered.
    async with db.write() as unit:
        await unit.games.set_ping_message(game.id, 502)
        await unit.games.clear_ping_messages([(game.id, 501)])
    async with db.read() as unit:
        assert await unit.games.ping_messages() == [(game.id, CHANNEL, 502)]
    async with db.write() as unit:
        await unit.games.clear_ping_messages([(game.id, 502)])
    async with db.read() as unit:
        assert await unit.games.ping_messages() == []


async def test_only_the_pings_of_the_given_shards(db: Database) -> None:
    game = await new_running_game(db, {11: "Alice", 12: "Bob"})
    async with db.write() as unit:
        await unit.games.set_ping_message(game.id, 601)
    shard = (GUILD >> 22) % 4
    async with db.read() as unit:
        mine = await unit.games.ping_messages(shard_ids=[shard], shard_count=4)
        others = await unit.games.ping_messages(shard_ids=[(shard + 1) % 4], shard_count=4)
    assert (mine, others) == ([(game.id, CHANNEL, 601)], [])
