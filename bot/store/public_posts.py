"""The outbox of public messages: each saved with the change it tells of, until Discord took it.

A round's results (and a match's, with its rating changes and buttons) or a season's champion
carry what is found nowhere else. Writing them in the change's own transaction means a change
is never saved without its message, nor a message kept for a change that was rolled back; the
poster (cogs/uno/outbox.py) reads the pending ones, posts them, and marks each one done here.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.store.dml import rowcount
from bot.store.models import PublicPost, utcnow

#: "results": a round's; "season": a champion's; "table": a game's closed table (an edit).
PostKind = Literal["results", "season", "table"]

PENDING = "pending"
POSTED = "posted"
UNDELIVERABLE = "undeliverable"
#: Kept for the next start-up only: a finished match's final table, which the running process
#: shows itself (its table updater, with the picture); dropped ("superseded") once it did.
STANDBY = "standby"
SUPERSEDED = "superseded"


@dataclass(frozen=True, slots=True)
class PendingPost:
    """A public message waiting to be posted: where, what (as rendered), and its nonce."""

    id: int
    guild_id: int
    channel_id: int
    game_id: int | None
    kind: str
    payload: Mapping[str, Any]
    nonce: str


class PublicPostRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def add(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game_id: int | None,
        kind: PostKind,
        payload: Mapping[str, Any],
        standby: bool = False,
    ) -> int:
        """Queue a message for the channel (committed with the caller's unit of work); its id.
        The nonce is random (24 hex digits; Discord allows 25 characters): unique per post.
        `standby`: only for the next start-up, unless `wake_standby` (see STANDBY)."""
        result = await self._session.execute(
            insert(PublicPost)
            .values(
                guild_id=guild_id,
                channel_id=channel_id,
                game_id=game_id,
                kind=kind,
                payload=dict(payload),
                nonce=secrets.token_hex(12),
                created_at=utcnow(),
                state=STANDBY if standby else PENDING,
            )
            .returning(PublicPost.id)
        )
        return int(result.scalar_one())

    async def pending(
        self,
        *,
        channel_id: int | None = None,
        shard_ids: Collection[int] | None = None,
        shard_count: int = 1,
        standby: bool = False,
    ) -> list[PendingPost]:
        """The messages not posted yet, oldest first: of one channel, or (at start-up) of the
        servers these shards own ((guild_id >> 22) % count), or all of them. `standby`: with
        those kept for a start-up (a restart takes them over: they become pending)."""
        states = [PENDING, STANDBY] if standby else [PENDING]
        stmt = select(PublicPost).where(PublicPost.state.in_(states)).order_by(PublicPost.id)
        if channel_id is not None:
            stmt = stmt.where(PublicPost.channel_id == channel_id)
        if shard_ids is not None:
            shard = (PublicPost.guild_id // (1 << 22)) % shard_count
            stmt = stmt.where(shard.in_(list(shard_ids)))
        rows = await self._session.scalars(stmt)
        return [
            PendingPost(
                row.id, row.guild_id, row.channel_id, row.game_id, row.kind, row.payload, row.nonce
            )
            for row in rows
        ]

    async def settle_standby(self, game_id: int, *, shown: bool) -> int:
        """The running process showed the game's final table itself (`shown`: its standby
        posts are superseded), or could not (they become pending, to be posted now); how many."""
        values: dict[str, Any] = (
            {"state": SUPERSEDED, "done_at": utcnow()} if shown else {"state": PENDING}
        )
        result = await self._session.execute(
            update(PublicPost)
            .where(PublicPost.game_id == game_id, PublicPost.state == STANDBY)
            .values(**values),
            execution_options={"synchronize_session": False},
        )
        return rowcount(result)

    async def wake_standby(self, post_ids: Collection[int]) -> None:
        """Standby posts taken over at start-up: pending from now on."""
        if post_ids:
            await self._session.execute(
                update(PublicPost)
                .where(PublicPost.id.in_(list(post_ids)), PublicPost.state == STANDBY)
                .values(state=PENDING),
                execution_options={"synchronize_session": False},
            )

    async def mark_posted(self, post_id: int, message_id: int) -> bool:
        """Discord accepted the post as `message_id`; False if it was already done."""
        return await self._finish(post_id, POSTED, message_id)

    async def mark_undeliverable(self, post_id: int) -> bool:
        """Discord refused the channel for good (403, 404): never tried again."""
        return await self._finish(post_id, UNDELIVERABLE, None)

    async def _finish(self, post_id: int, state: str, message_id: int | None) -> bool:
        result = await self._session.execute(
            update(PublicPost)
            .where(PublicPost.id == post_id, PublicPost.state.in_([PENDING, STANDBY]))
            .values(state=state, message_id=message_id, done_at=utcnow()),
            execution_options={"synchronize_session": False},
        )
        return rowcount(result) == 1

    async def prune(self, done_before: datetime) -> int:
        """Forget the posts done (posted, given up, superseded) before `done_before`: what is
        kept of a post once shown is its message; how many were forgotten."""
        result = await self._session.execute(
            delete(PublicPost).where(
                PublicPost.state.not_in([PENDING, STANDBY]), PublicPost.done_at < done_before
            ),
            execution_options={"synchronize_session": False},
        )
        return rowcount(result)

    async def message_of(self, post_id: int) -> tuple[str, int | None]:
        """(state, message id) of a post."""
        row = (
            await self._session.execute(
                select(PublicPost.state, PublicPost.message_id).where(PublicPost.id == post_id)
            )
        ).one()
        return str(row[0]), row[1]
