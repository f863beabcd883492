"""Counting the clicks a turn takes when every player keeps the hand of their last click.

The scripted players look at their hand once when the game starts (Show my hand), then never
open another: on their turn they use the hand they hold. If it shows their turn (it is at the
table's version and offers a move) that is one click; otherwise they click Refresh first, as a
player had to before hands followed the game. Used by tests/e2e/test_clicks_per_turn.py and
benchmarks/clicks_per_turn.py (which also runs it against an older bot).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from testing.fakediscord import FakeDiscord, Message
from testing.players import (
    Table,
    actions,
    after_move,
    answer,
    show_hand,
    take_turn,
    version_of,
)

TURN_ACTIONS = ("draw", "keep", "pass", "accept", "challenge")


@dataclass
class ClickStats:
    turns: int = 0
    clicks: int = 0  # clicks made during turns (Refresh included)
    per_turn: Counter[int] = field(default_factory=Counter)  # clicks -> turns that took them
    opens: int = 0  # Show my hand, once per player at the start
    private_messages: dict[int, int] = field(default_factory=dict)  # user -> ephemerals received
    live_private_messages: dict[int, int] = field(default_factory=dict)  # ... not deleted
    log: list[tuple[int, int]] = field(default_factory=list)  # (player, clicks) turn by turn

    @property
    def one_click_share(self) -> float:
        return self.per_turn[1] / self.turns if self.turns else 0.0

    def summary(self) -> str:
        msgs = sorted(self.private_messages.values())
        live = sorted(self.live_private_messages.values())
        return (
            f"{self.turns} turns, {self.clicks / max(1, self.turns):.2f} clicks per turn, "
            f"{100 * self.one_click_share:.0f}% in one click "
            f"({dict(sorted(self.per_turn.items()))})"
            f"; {self.opens} hands opened at the start; private messages per player: "
            f"received {msgs}, still open at the end {live}"
        )


def newest_hand(emu: FakeDiscord, channel: int, user: Any) -> Message | None:
    """The private hand `user` sees lowest in the channel (the one a player would use)."""
    mine = [m for m in emu.ephemerals(user, channel) if actions(m, enabled_only=False)]
    return max(mine, key=lambda m: m.id, default=None)


def my_turn(hand: Message) -> bool:
    return any(a.startswith(("play:", "color:")) or a in TURN_ACTIONS for a in actions(hand)) or (
        bool(hand.selects)
    )


async def play_keeping_hands(
    emu: FakeDiscord,
    channel: int,
    users: list[Any],
    *,
    patience: float = 2.0,
    limit: int = 400,
    habit: str = "refresh",
    follow: bool = False,
    opened: dict[int, Message] | None = None,
) -> ClickStats:
    """Play the started game in `channel` to its end (or `limit` turns); the click counts.

    `patience`: seconds a player waits for the hand they hold to show their turn (the bot edits
    it in the background) before clicking Refresh, or with `habit="show"` the table's Show my
    hand (a new private message each time) as many players did. `follow`: a player uses the
    lowest hand they see (the bot may post their hand anew below the table); `opened`: hands
    already open (nobody opens one again)."""
    stats = ClickStats()
    table = Table(emu, channel)
    by_id = {u.id: u for u in users}
    msg = table.message()
    assert msg is not None
    hands: dict[int, Message] = dict(opened or {})
    for user in users:
        if user.id not in hands:
            hands[user.id] = await show_hand(emu, user, msg)
            stats.opens += 1
    version = version_of(msg)
    for _ in range(limit):
        msg = await table.at_version(version) if version is not None else msg
        if "next" in actions(msg) or "match is over" in msg.text or version is None:
            break
        current = table.current_player(msg)
        assert current is not None, msg.text
        user, hand = by_id[current], hands[current]
        if follow:
            hand = newest_hand(emu, channel, user) or hand
        wanted = version_of(msg) or 0

        def ready(hand: Message = hand, wanted: int = wanted, user: Any = user) -> Message | None:
            if follow:  # (the hand may be posted anew below the table meanwhile)
                hand = newest_hand(emu, channel, user) or hand
            return hand if (version_of(hand) or 0) >= wanted and my_turn(hand) else None

        clicks = 0
        try:
            hand = await emu.wait_for(ready, patience, what="the hand to show the turn")
        except TimeoutError:
            if follow:
                hand = newest_hand(emu, channel, user) or hand
            if habit == "show":
                hand = await show_hand(emu, user, msg)
            else:
                hand = await answer(await emu.click(user, hand, actions(hand)["refresh"]))
            clicks += 1
        clicked = version_of(hand) or 0
        hand = await take_turn(emu, user, hand)
        clicks += 1
        hands[current] = hand
        stats.turns += 1
        stats.clicks += clicks
        stats.per_turn[clicks] += 1
        stats.log.append((current, clicks))
        version = after_move(hand, clicked)
    for user in users:
        mine = [
            m
            for m in emu.messages.values()
            if m.ephemeral_for == user.id and m.channel_id == channel
        ]
        stats.private_messages[user.id] = len(mine)
        stats.live_private_messages[user.id] = sum(not m.deleted for m in mine)
    return stats
