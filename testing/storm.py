"""A storm at one table, and what every screen shows afterwards held against the database.

Ten seats (people and computers), a fast turn timer, people who double-click and reopen their
hand while a click is on its way, for a while. Then nobody clicks, and the table and every
person's hand must come to show the game as the database has it (the table: its version; a
hand: its cards and whose turn), with every ended round's results posted exactly once. A game
that froze on one failed answer, or lost a round's results, fails this.

Used by tests/e2e/test_storm.py (a short storm on SQLite and on PostgreSQL) and
benchmarks/storm.py (the two-minute one).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.engine import Game, view_for
from testing.clicks import newest_hand
from testing.fakediscord import MANAGE_GUILD, FakeDiscord, Guild, Message, User
from testing.fakediscord.driver import DriverError
from testing.players import Table, actions, answer, version_of

#: A round's results message, by its title ("🏁 Round 2 results", the server speaking English).
_RESULTS = re.compile(r"Round (\d+) results")
_HAND_SIZE = re.compile(r"Your hand — (\d+) cards?")


@dataclass
class StormReport:
    clicks: int = 0
    double_clicks: int = 0
    reopened: int = 0
    refused: int = 0  # clicks on a button no longer enabled (the game moved on): not sent
    failed: int = 0  # interactions Discord saw fail
    answered: Counter[int] = field(default_factory=Counter)  # ack type -> interactions

    def summary(self) -> str:
        return (
            f"{self.clicks} clicks ({self.double_clicks} doubled, {self.reopened} hands reopened "
            f"mid-click), {self.failed} failed, answers by type {dict(self.answered)}"
        )


async def stored_game(url: str, game_id: int) -> tuple[int, Game | None, str]:
    """(version, engine state, status) of the game as the database has it now."""
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            row = (
                await conn.execute(
                    text("SELECT version, state, status FROM games WHERE id = :id"),
                    {"id": game_id},
                )
            ).one()
    finally:
        await engine.dispose()
    version, state, status = row
    if isinstance(state, str):  # (SQLite hands JSON back as text to a raw query)
        state = json.loads(state)
    return int(version), (Game.from_dict(state) if state else None), str(status)


async def open_full_table(
    emu: FakeDiscord,
    guild: Guild,
    channel: int,
    decks: Path,
    name: str = "p",
    target: int | None = None,
) -> tuple[list[User], int]:
    """Seven people and three easy computers at one table in `channel`, the server's turn timer
    30 s (1.5 s at UNO_TEST_TIMER_SCALE=0.05), one card each so that rounds end often (the deal
    hook file `decks`, UNO_TEST_DECKS), the match to `target` points (the default: 500).
    The people (the host first), and the game's id."""
    admin = emu.add_user(f"{name}-admin", guild, permissions=MANAGE_GUILD)
    done = await answer(
        await emu.slash(admin, channel, "uno-admin set", option="turn_timer", value="30")
    )
    assert "changed" in done.text, done.text
    hooks = json.loads(decks.read_text()) if decks.exists() else {}
    hooks[str(channel)] = {"rules": {"hand_size": 1}}
    decks.write_text(json.dumps(hooks))
    people = [emu.add_user(f"{name}{i}", guild) for i in range(7)]
    host = people[0]
    options = {} if target is None else {"target": target}
    lobby = await answer(await emu.slash(host, channel, "uno new", **options))
    for user in people[1:]:
        lobby = await answer(await emu.click(user, lobby, label="Join"))
    for _ in range(3):
        await answer(await emu.slash(host, channel, "uno addbot", level="easy"))

    def seated() -> Message | None:
        shown = Table(emu, channel).message()
        return shown if shown is not None and shown.text.count("Bot") >= 3 else None

    lobby = await emu.wait_for(seated, 5, what="the lobby with its three computers")
    table = await answer(await emu.click(host, lobby, label="Start"))
    assert "UNO — round 1" in table.text, table.text
    return people, Table(emu, channel).game_id


async def check_after_storm(
    emu: FakeDiscord, channel: int, game_id: int, people: list[User], url: str, bot_output: str
) -> str:
    """Everything the storm must leave behind (AssertionError otherwise): screens as the
    database is, each ended round's results exactly once, no ERROR logged. A line saying so."""
    version, _ = await settled_like_the_database(emu, channel, game_id, people, url)
    _, game, status = await stored_game(url, game_id)
    assert game is not None
    ended = game.round_number - 1 + (1 if game.round_over else 0)
    assert ended >= 1, "a storm this long ends rounds"
    table = Table(emu, channel).message()
    assert table is not None
    posted = results_per_round(emu, channel, table.id)
    assert posted == Counter(dict.fromkeys(range(1, ended + 1), 1)), (ended, posted)
    errors = [line for line in bot_output.splitlines() if " ERROR " in line or "[ERROR" in line]
    assert not errors, errors[:5]
    return (
        f"game {status.lower()} at version {version}, {ended} rounds ended, each with its "
        "results once"
    )


def _move(hand: Message, rng: random.Random) -> str | None:
    """A move a hasty player makes from this hand: a random enabled game button."""
    acts = [a for a in actions(hand) if a != "refresh" and not a.startswith("page:")]
    return rng.choice(sorted(acts)) if acts else None


async def storm(
    emu: FakeDiscord,
    channel: int,
    people: list[User],
    seconds: float,
    rng: random.Random,
) -> StormReport:
    """People click for `seconds`: on their turn (and out of it, a catch or an UNO call), now
    and then twice at once, and now and then reopening their hand while a click is on its way."""
    report = StormReport()
    table = Table(emu, channel)
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    pending: set[asyncio.Task[Any]] = set()

    async def settle(result: Any) -> None:
        ack = await result.wait()
        if ack is None:
            report.failed += 1
        else:
            report.answered[ack] += 1

    def send(result: Any) -> None:
        task = asyncio.ensure_future(settle(result))
        pending.add(task)
        task.add_done_callback(pending.discard)

    async def person(user: User) -> None:
        while loop.time() < end:
            await asyncio.sleep(rng.uniform(0.05, 0.4))
            shown = table.message()
            if shown is None or "UNO — round" not in shown.text:
                continue
            hand = newest_hand(emu, channel, user)
            try:
                if hand is None:
                    send(await emu.click(user, shown, _hand_button(shown)))
                    report.clicks += 1
                    continue
                move = _move(hand, rng)
                if move is None or (table.current_player(shown) != user.id and rng.random() < 0.7):
                    continue
                custom_id = actions(hand)[move]
                send(await emu.click(user, hand, custom_id))
                report.clicks += 1
                if rng.random() < 0.25:  # a double click: the same button again at once
                    send(await emu.click(user, hand, custom_id))
                    report.double_clicks += 1
                if rng.random() < 0.15:  # a new hand opened while the click is on its way
                    send(await emu.click(user, shown, _hand_button(shown)))
                    report.reopened += 1
            except DriverError:
                report.refused += 1  # the button went (edited away) before the click

    await asyncio.gather(*(person(u) for u in people))
    if pending:
        await asyncio.wait(pending, timeout=15)
    return report


def _hand_button(table: Message) -> str:
    """The table's Show my hand (a DriverError, as for any button gone, when it has none)."""
    for custom_id in table.custom_ids:
        if re.match(r"^uno:\d+:hand$", custom_id):
            return custom_id
    raise DriverError("the table shows no Show my hand now")


async def settled_like_the_database(
    emu: FakeDiscord,
    channel: int,
    game_id: int,
    people: list[User],
    url: str,
    timeout: float = 20.0,
) -> tuple[int, list[str]]:
    """Wait until, at one moment, the table shows the database's version and every seated
    person's newest hand shows their cards and whose turn it is as the database has them (a
    hand is edited only when what it shows changes, so its version may be older). Returns the
    version, or raises TimeoutError naming what still disagreed."""
    table = Table(emu, channel)
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    problems: list[str] = []
    while True:
        version, game, status = await stored_game(url, game_id)
        problems = _disagreements(emu, channel, people, table, version, game, status)
        if not problems:
            return version, problems
        if loop.time() > end:
            raise TimeoutError("screens never matched the database: " + "; ".join(problems))
        await asyncio.sleep(0.1)


def _disagreements(
    emu: FakeDiscord,
    channel: int,
    people: list[User],
    table: Table,
    version: int,
    game: Game | None,
    status: str,
) -> list[str]:
    shown = table.message()
    problems = []
    if shown is None:
        return ["no table"]
    running = status.lower().endswith("running")
    if running and version_of(shown) != version:
        problems.append(f"table at {version_of(shown)}, database at {version}")
    if game is None or not running:
        return problems
    for user in people:
        if user.id not in game.players or user.id in game.left:
            continue
        hand = newest_hand(emu, channel, user)
        if hand is None:
            continue  # never opened one: nothing to keep current
        view = view_for(game, user.id)
        size = _HAND_SIZE.search(hand.text)
        if size is None or int(size[1]) != len(view.hand):
            problems.append(
                f"{user.username}'s hand shows {size and size[1]} cards, not {len(view.hand)}"
            )
        mine = view.current_player == user.id and bool(view.legal)
        if mine != ("Your turn" in hand.text):
            problems.append(f"{user.username}'s hand is wrong about their turn")
    return problems


def results_per_round(emu: FakeDiscord, channel: int, table_id: int) -> Counter[int]:
    """How many results messages the channel holds for each round number."""
    counts: Counter[int] = Counter()
    for message in emu.channel_messages(channel):
        if message.id == table_id or message.ephemeral_for is not None or message.deleted:
            continue
        title = " ".join(str(e.get("title", "")) for e in message.embeds)
        m = _RESULTS.search(title)
        if m is not None:
            counts[int(m[1])] += 1
    return counts
