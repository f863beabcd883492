"""The public posts outbox: a message is saved with its change or not at all, is listed until it
is marked done, and is marked done once (cogs/uno/outbox.py posts it)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.store import Database
from tests.store.conftest import CHANNEL, GUILD, new_running_game

PAYLOAD = {
    "embeds": [{"title": "Round 1 — results", "description": "**Alice** won round 1 ✨"}],
    "locale": "de",
    "rematch_of": 7,
}


class _RolledBack(Exception):
    pass


async def test_a_post_is_saved_with_its_change_or_not_at_all(db: Database) -> None:
    game = await new_running_game(db, {11: "Alice", 12: "Bob"})
    with pytest.raises(_RolledBack):
        async with db.write() as unit:
            await unit.games.finish_round(game.id, 1, winner_id=11, points={11: 20, 12: 0})
            await unit.posts.add(
                guild_id=GUILD, channel_id=CHANNEL, game_id=game.id, kind="results", payload={}
            )
            raise _RolledBack  # the change fails after the post was written: neither stays
    async with db.read() as unit:
        assert await unit.posts.pending() == []
    async with db.write() as unit:
        await unit.games.finish_round(game.id, 1, winner_id=11, points={11: 20, 12: 0})
        post_id = await unit.posts.add(
            guild_id=GUILD, channel_id=CHANNEL, game_id=game.id, kind="results", payload=PAYLOAD
        )
    async with db.read() as unit:
        (pending,) = await unit.posts.pending()
    assert (pending.id, pending.game_id, pending.channel_id, pending.kind) == (
        post_id,
        game.id,
        CHANNEL,
        "results",
    )
    assert pending.payload == PAYLOAD  # as rendered, read back the same on every backend
    assert len(pending.nonce) <= 25  # Discord's limit for a nonce


async def test_pending_posts_oldest_first_by_channel_until_marked_once(db: Database) -> None:
    game = await new_running_game(db, {11: "Alice", 12: "Bob"})
    other_channel = CHANNEL + 1
    async with db.write() as unit:
        first = await unit.posts.add(
            guild_id=GUILD, channel_id=CHANNEL, game_id=game.id, kind="results", payload={"n": 1}
        )
        season = await unit.posts.add(
            guild_id=GUILD, channel_id=other_channel, game_id=None, kind="season", payload={}
        )
        second = await unit.posts.add(
            guild_id=GUILD, channel_id=CHANNEL, game_id=game.id, kind="results", payload={"n": 2}
        )
    async with db.read() as unit:
        assert [p.id for p in await unit.posts.pending()] == [first, season, second]
        here = await unit.posts.pending(channel_id=CHANNEL)
        assert [p.id for p in here] == [first, second]
        assert len({p.nonce for p in await unit.posts.pending()}) == 3  # one nonce per post
    async with db.write() as unit:
        assert await unit.posts.mark_posted(first, 9001)
    async with db.write() as unit:
        assert not await unit.posts.mark_posted(first, 9002)  # done once: the first message stays
        assert await unit.posts.mark_undeliverable(season)
        assert not await unit.posts.mark_posted(season, 9003)
    async with db.read() as unit:
        assert [p.id for p in await unit.posts.pending()] == [second]
        assert await unit.posts.message_of(first) == ("posted", 9001)
        assert await unit.posts.message_of(season) == ("undeliverable", None)


async def test_only_the_posts_of_the_given_shards(db: Database) -> None:
    async with db.write() as unit:
        post = await unit.posts.add(
            guild_id=GUILD, channel_id=CHANNEL, game_id=None, kind="season", payload={}
        )
    shard = (GUILD >> 22) % 4
    async with db.read() as unit:
        mine = await unit.posts.pending(shard_ids=[shard], shard_count=4)
        others = await unit.posts.pending(shard_ids=[(shard + 1) % 4], shard_count=4)
    assert ([p.id for p in mine], others) == ([post], [])


async def test_a_standby_post_waits_for_a_restart_or_its_settlement(db: Database) -> None:
    """A finished match's final table: not posted by the running process (it shows the table
    itself), superseded once shown, made pending if not, taken over by a restart otherwise."""
    shown = await new_running_game(db, {11: "Alice", 12: "Bob"})
    failing = await new_running_game(db, {13: "Cat", 14: "Dan"}, channel_id=CHANNEL + 1)
    crashed = await new_running_game(db, {15: "Eve", 16: "Fay"}, channel_id=CHANNEL + 2)
    ids = {}
    async with db.write() as unit:
        for game in (shown, failing, crashed):
            ids[game.id] = await unit.posts.add(
                guild_id=GUILD,
                channel_id=game.channel_id,
                game_id=game.id,
                kind="table",
                payload={"edit_of": 5},
                standby=True,
            )
    async with db.read() as unit:
        assert await unit.posts.pending() == []  # the running process posts none of them
    async with db.write() as unit:
        assert await unit.posts.settle_standby(shown.id, shown=True) == 1
        assert await unit.posts.settle_standby(failing.id, shown=False) == 1
        assert await unit.posts.settle_standby(failing.id, shown=True) == 0  # settled once
    async with db.read() as unit:
        assert [p.id for p in await unit.posts.pending()] == [ids[failing.id]]
        with_standby = await unit.posts.pending(standby=True)
        assert [p.id for p in with_standby] == [ids[failing.id], ids[crashed.id]]
        assert await unit.posts.message_of(ids[shown.id]) == ("superseded", None)
    async with db.write() as unit:  # a restart takes the crashed one over
        await unit.posts.wake_standby([ids[crashed.id]])
    async with db.read() as unit:
        assert [p.id for p in await unit.posts.pending()] == [ids[failing.id], ids[crashed.id]]


async def test_done_posts_are_pruned_after_a_while_pending_ones_never(db: Database) -> None:
    async with db.write() as unit:
        done, waiting, standby = [
            await unit.posts.add(
                guild_id=GUILD,
                channel_id=CHANNEL,
                game_id=None,
                kind="season",
                payload={},
                standby=kept,
            )
            for kept in (False, False, True)
        ]
    async with db.write() as unit:
        await unit.posts.mark_posted(done, 1)
    async with db.write() as unit:
        assert await unit.posts.prune(datetime.now(UTC) - timedelta(days=1)) == 0  # too recent
        assert await unit.posts.prune(datetime.now(UTC) + timedelta(seconds=1)) == 1
    async with db.read() as unit:
        assert [p.id for p in await unit.posts.pending(standby=True)] == [waiting, standby]
