"""Playing UNO through the emulator like a user: read the table, open a hand, click buttons."""

from __future__ import annotations

import functools
import re
from typing import Any

from testing.fakediscord import FakeDiscord, Message, User

ACTION_ID = re.compile(r"^uno:(\d+):(\d+):(.+)$")
HAND_ID = re.compile(r"^uno:(\d+):hand$")
MENTION = re.compile(r"<@(\d+)>")


def version_of(msg: Message) -> int | None:
    versions = [int(m[2]) for c in msg.custom_ids if (m := ACTION_ID.match(c))]
    return max(versions) if versions else None


def actions(msg: Message, *, enabled_only: bool = True) -> dict[str, str]:
    """The message's game buttons: action (e.g. "play:R7", "draw") -> custom_id."""
    out = {}
    for b in msg.buttons:
        if (
            b.custom_id
            and (m := ACTION_ID.match(b.custom_id))
            and not (enabled_only and b.disabled)
        ):
            out[m[3]] = b.custom_id
    return out


def card_buttons(msg: Message) -> list[tuple[str, bool]]:
    """(card label, enabled) for every card of a hand page, as its full label reads ("Red 7",
    "Red 7 ×2"): a button showing its card's picture alone (card pictures on) is named by the
    card it plays; a Wild's colour buttons ("Wild → Red", ...) are one card."""
    out = []
    wilds = set()
    for b in msg.buttons:
        m = re.match(r"^uno:\d+:\d+:play:([A-Z0-9]+)(:[RYGBPTOV])?$", b.custom_id or "")
        if m is None:
            continue
        label = b.label or ""
        if m[2]:
            if m[1] not in wilds:
                wilds.add(m[1])
                name = label.split(" → ")[0] if " → " in label else _card_name(m[1])
                out.append((name, not b.disabled))
        elif not label or label.startswith("×"):  # the picture alone, and its count
            out.append((_card_name(m[1]) + (f" {label}" if label else ""), not b.disabled))
        else:
            out.append((label, not b.disabled))
    return out


def _card_name(code: str) -> str:
    from bot.engine import Card
    from bot.ui.cards import card_name

    return card_name(Card.of(code), "en-US")


def hand_size(msg: Message) -> int:
    m = re.search(r"Your hand — (\d+) cards?", msg.text)
    assert m, msg.text
    return int(m[1])


class Table:
    """The channel's public game message (lobby or table) as users see it."""

    def __init__(self, emu: FakeDiscord, channel_id: int) -> None:
        self.emu = emu
        self.channel_id = channel_id

    def message(self) -> Message | None:
        for m in reversed(self.emu.channel_messages(self.channel_id)):
            if any(HAND_ID.match(c) or ":lobby:" in c for c in m.custom_ids):
                return m
            if m.embeds and "UNO — round" in (m.embeds[0].get("title") or ""):
                return m
        return None

    @property
    def game_id(self) -> int:
        msg = self.message()
        assert msg is not None
        for c in msg.custom_ids:
            return int(c.split(":")[1])
        raise AssertionError("the table has no buttons")

    async def at_version(self, version: int, timeout: float = 5.0) -> Message:
        def ready() -> Message | None:
            msg = self.message()
            if msg is None:
                return None
            v = version_of(msg)
            # A later version also means this one was shown (edits coalesce: latest wins).
            if (v is not None and v >= version) or (v is None and "match is over" in msg.text):
                return msg
            return None

        return await self.emu.wait_for(ready, timeout, what=f"table at version {version}")

    def current_player(self, msg: Message) -> int | None:
        desc = (msg.embeds[0].get("description") or "") if msg.embeds else ""
        m = MENTION.search(desc)
        return int(m[1]) if m else None


def table_text(msg: Message) -> str:
    """What the table tells a reader: its text and its picture's alt text (with card pictures
    on, the seats' counts and UNO states are in the picture, not in the text)."""
    alts = [a.get("description") or "" for a in msg.attachments]
    return "\n".join([msg.text, *alts])


def table_with(emu: FakeDiscord, channel: int, text: str) -> Any:
    """A condition for `emu.wait_for`: the channel's table once it shows `text`."""

    def ready() -> Message | None:
        m = Table(emu, channel).message()
        return m if m is not None and text in m.text else None

    return ready


async def answer(res: Any) -> Message:
    msg: Message | None = await res
    assert msg is not None, "no message in the answer"
    return msg


async def final_answer(res: Any, timeout: float = 30.0) -> Message:
    """The answer as its user finally sees it: a "thinking" deferral once filled in, or a
    deferred update's private follow-up (an answer whose work took past Discord's 2 s, as a
    record built in its worker process may on a busy machine)."""
    msg = await answer(res)
    shown: Message = msg
    if res.ack_type == 5:
        shown = await res.settled(timeout)
    elif res.ack_type == 6:
        shown = await res.followup(1, timeout)
    return shown


async def open_game(
    emu: FakeDiscord, channel: int, host: User, others: list[User], **options: Any
) -> Message:
    """`/uno new`, everyone clicks Join, the host clicks Start: the table message."""
    lobby = await answer(await emu.slash(host, channel, "uno new", **options))
    for user in others:
        lobby = await answer(await emu.click(user, lobby, label="Join"))
    table = await answer(await emu.click(host, lobby, label="Start"))
    assert "UNO — round 1" in table.text, table.text
    return table


async def show_hand(emu: FakeDiscord, user: User, table: Message) -> Message:
    hand_button = next(c for c in table.custom_ids if HAND_ID.match(c))
    return await answer(await emu.click(user, table, hand_button))


async def take_turn(
    emu: FakeDiscord, user: User, hand: Message, *, challenge: bool = False, call_uno: bool = True
) -> Message:
    """One decision, the way a simple player makes it: first legal card, else draw."""
    if hand.selects:
        select = hand.selects[0]
        first = select["options"][0]["value"]
        return await answer(await emu.select(user, hand, select["custom_id"], [first]))
    acts = actions(hand)
    # A Wild or Wild Draw Four comes as one button per colour (`play:W:R`): one click plays it
    # with that colour. `color:` buttons are the second step where one remains (a Wild turned
    # up to start the round, `/uno play card:W` without a colour, Swap/Shuffle Hands).
    plays = [a for a in acts if a.startswith("play:")]
    uno_plays = [a for a in plays if ":uno" in a]
    plain = [a for a in plays if ":uno" not in a]
    for wanted in (
        [a for a in acts if a.startswith("color:")],
        ["challenge"] if challenge and "challenge" in acts else [],
        ["accept"] if "accept" in acts else [],
        uno_plays if call_uno else [],
        plain,
        uno_plays,
        ["draw"] if "draw" in acts else [],
        ["keep"] if "keep" in acts else [],
        ["pass"] if "pass" in acts else [],
    ):
        if wanted:
            return await answer(await emu.click(user, hand, acts[wanted[0]]))
    raise AssertionError(f"nothing to do in this hand:\n{hand.text}\n{hand.buttons}")


def after_move(hand: Message, clicked: int) -> int | None:
    """The game's version after a move clicked on a hand at version `clicked`, from the answer.
    Under load an edit of the hand that was already on its way when the player clicked can land
    just after the answer (the bot then sends the newest state again): the hand may show the
    older version for a moment, but the move made the game at least one version newer."""
    after = version_of(hand)
    return None if after is None else max(after, clicked + 1)


def _playable(hand: Message) -> bool:
    """Whether the hand offers its player something to do besides refreshing or paging."""
    choices = [a for a in actions(hand) if a != "refresh" and not a.startswith("page:")]
    return bool(choices or hand.selects)


def _if_playable(hand: Message) -> Message | None:
    return hand if _playable(hand) else None


def _table_in_round(table: Table, number: int) -> Message | None:
    """The table if it shows round `number`."""
    m = table.message()
    return m if m is not None and f"round {number}" in m.text else None


async def play_round(emu: FakeDiscord, channel: int, users: dict[int, User]) -> Message:
    """Play until the round (or match) ends; return the table at that point."""
    table = Table(emu, channel)
    hands: dict[int, Message] = {}
    msg = table.message()
    assert msg is not None
    version = version_of(msg)
    for _ in range(3000):
        msg = await table.at_version(version) if version is not None else msg
        acts = actions(msg)
        if "next" in acts or "match is over" in msg.text:
            return msg
        current = table.current_player(msg)
        assert current is not None, msg.text
        user = users[current]
        hand = hands.get(current)
        if hand is None:
            hand = await show_hand(emu, user, msg)
        else:
            hand = await answer(await emu.click(user, hand, actions(hand)["refresh"]))
        # An edit of this hand sent before the click (the game moved on meanwhile) may land
        # after the answer; the bot then sends the newest state again. Wait for it, as a
        # player would, rather than read the hand in between.
        hand = await emu.wait_for(
            functools.partial(_if_playable, hand), 5, what="the hand showing the turn"
        )
        clicked = version_of(hand) or 0
        hand = await take_turn(emu, user, hand)
        hands[current] = hand
        version = after_move(hand, clicked)
        if version is None:  # the match ended: the hand has no buttons left
            return await emu.wait_for(
                lambda: (m := table.message()) is not None and "match is over" in m.text and m,
                5,
                what="final table",
            )
    raise AssertionError("the round did not end")


async def play_match(emu: FakeDiscord, channel: int, host: User, users: list[User]) -> int:
    """Play rounds until the match is over; the number of rounds played."""
    by_id = {u.id: u for u in users}
    table = Table(emu, channel)
    for rounds in range(1, 100):
        msg = await play_round(emu, channel, by_id)
        if "match is over" in msg.text:
            return rounds
        await answer(await emu.click(host, msg, actions(msg)["next"]))
        await emu.wait_for(
            functools.partial(_table_in_round, table, rounds + 1),
            5,
            what="next round's table",
        )
    raise AssertionError("the match did not end")


def deal(hands: list[str], starter: str, deck: str = "classic108") -> list[str]:
    """A round-1 deck: these hands in seat order, then the starter, then the rest of the deck."""
    from bot.engine import build_deck

    rest = [c.code for c in build_deck(deck)]
    order: list[str] = []
    for code in [*" ".join(hands).split(), starter]:
        rest.remove(code)
        order.append(code)
    return order + rest
