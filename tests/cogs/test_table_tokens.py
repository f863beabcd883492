"""Which click's token carries a table (cogs/uno/game/table_tokens.py): never a "thinking"
deferral's (its first follow-up would fill that perhaps private message), never one whose answer
is still on its way or from another channel, never one Discord refused; handed over to a fresh
click once the table's own token has lived most of its time, and never used past its ttl.

The interactions are stand-ins with just what the choice reads (the end-to-end behaviour against
the emulator is tests/e2e/test_table_tokens.py's)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import discord

from cogs.uno.game.table_tokens import FRESH, HANDOVER, TableReach, can_carry

CHANNEL = 42
TTL = 840.0
Kind = discord.InteractionResponseType


@dataclass
class _Response:
    kind: Kind | None

    def is_done(self) -> bool:
        return self.kind is not None

    @property
    def type(self) -> Kind | None:
        return self.kind


@dataclass
class _Click:
    id: int
    created_at: datetime
    response: _Response
    channel_id: int = CHANNEL
    application_id: int = 1
    token: str = "itok"


def click(
    ident: int, age: float, kind: Kind | None = Kind.channel_message, channel: int = CHANNEL
) -> Any:
    created = discord.utils.utcnow() - timedelta(seconds=age)
    return cast(Any, _Click(ident, created, _Response(kind), channel))


def test_a_thinking_deferral_never_carries_a_table() -> None:
    assert not can_carry(click(1, 0, Kind.deferred_channel_message), CHANNEL)


def test_an_answered_click_carries_it_private_or_public() -> None:
    for kind in (Kind.channel_message, Kind.message_update, Kind.deferred_message_update):
        assert can_carry(click(1, 0, kind), CHANNEL), kind


def test_nor_an_unanswered_click_nor_one_in_another_channel() -> None:
    assert not can_carry(click(1, 0, None), CHANNEL)
    assert not can_carry(click(1, 0, channel=CHANNEL + 1), CHANNEL)


def test_the_newest_fresh_click_takes_a_table_on_the_channel_routes() -> None:
    reach = TableReach(TTL)
    reach.offer(click(2, 10))
    reach.offer(click(1, 20))  # older: the newest stays
    carrier = reach.carrier(CHANNEL, 99)
    assert carrier is not None and carrier.id == 2


def test_a_click_too_old_to_take_a_table_over_is_forgotten() -> None:
    reach = TableReach(TTL)
    reach.offer(click(1, TTL * FRESH + 1))
    assert reach.carrier(CHANNEL, 99) is None


def test_a_young_token_keeps_its_table_and_an_old_one_hands_it_over() -> None:
    reach = TableReach(TTL)
    reach.posted(click(1, TTL * HANDOVER - 30), 99, original=True)
    reach.offer(click(2, 1))
    assert reach.carrier(CHANNEL, 99) is None  # still young: edited through its token
    reach.posted(click(3, TTL * HANDOVER + 1), 99, original=False)
    carrier = reach.carrier(CHANNEL, 99)
    assert carrier is not None and carrier.id == 2


def test_a_token_is_never_used_past_its_ttl_nor_for_another_message() -> None:
    reach = TableReach(TTL)
    reach.posted(click(1, 10), 99, original=False)
    assert reach.reaching(100) is None
    assert reach.reaching(99) is not None
    reach.posted(click(1, TTL + 1), 99, original=False)
    assert reach.reaching(99) is None and reach.current is None


def test_a_refused_token_is_never_tried_again() -> None:
    reach = TableReach(TTL)
    first = click(1, 1)
    reach.posted(first, 99, original=False)
    reach.offer(first)
    reach.refused(reach.current or first)
    assert reach.reaching(99) is None and reach.carrier(CHANNEL, 99) is None
    reach.offer(first)  # offered again (its answer, say): still refused
    assert reach.carrier(CHANNEL, 99) is None
