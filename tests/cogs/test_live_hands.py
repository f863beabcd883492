"""Live hands' edits are coalesced: one request in flight per player, the latest state last;
a spent token is never used, and one Discord refuses (404) is forgotten."""

from __future__ import annotations

import asyncio
import io
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.engine import Game, RuleSet
from bot.settings import Settings
from bot.ui.outgoing import Outgoing
from cogs.uno.answers import Answer
from cogs.uno.delivery import Ready
from cogs.uno.game.hand_view import hand_message
from cogs.uno.game.hands import GameHands, PrivateHands
from cogs.uno.game.live import LiveGame

ALICE, BOB, CAROL = 11, 12, 13


class _Shared:
    def __init__(self, live: LiveGame) -> None:
        self.bot = SimpleNamespace()
        self.settings = Settings(_env_file=None)
        self.card_images = {live.guild_id: False}  # text only: no worker thread to wait for

    def images_on(self, guild_id: int) -> bool:
        return self.card_images.get(guild_id, True)


def _hand_embed(live: LiveGame, user: int) -> dict[str, Any]:
    """The hand's embed as `user` is shown it now (text only)."""
    embed = hand_message(live, user, None).embed
    assert embed is not None
    return dict(embed.to_dict())


def _hands(live: LiveGame, request: Any) -> GameHands:
    """The game's live hands, as its owner makes them; `request` stands for Discord."""
    service = PrivateHands(_Shared(live))
    service.tokens.request = request
    return service.hands(live, asyncio.Lock())


def _live() -> LiveGame:
    game, _ = Game.start([ALICE, BOB, CAROL], RuleSet(), seed=5, dealer=CAROL)
    names = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol"}
    return LiveGame(1, 2, 3, ALICE, game, names, baseline=game.version)


def _interaction(
    user: int, n: int, *, age: float = 0.0, answer: Answer | None = Answer(ephemeral=True)
) -> Any:
    return SimpleNamespace(
        application_id=99,
        token=f"token-{n}",
        id=1000 + n,
        message=None,
        response=SimpleNamespace(type=discord.InteractionResponseType.channel_message),
        created_at=discord.utils.utcnow() - timedelta(seconds=age),
        locale=None,
        user=SimpleNamespace(id=user),
        extras={} if answer is None else {"uno_answer": answer},
    )


class _Discord:
    """Stands for the webhook routes: records each request and holds it until released."""

    def __init__(self, status: int = 200) -> None:
        self.calls: list[tuple[str, str, Any]] = []
        self.in_flight = 0
        self.most_in_flight = 0
        self.gate = asyncio.Event()
        self.status = status

    async def request(self, method: str, token: Any, kwargs: Any = None) -> int:
        self.calls.append((method, token.token, kwargs))
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        await self.gate.wait()
        self.in_flight -= 1
        return self.status


def _move(live: LiveGame) -> None:
    player = live.game.current_player
    assert player is not None
    live.game.apply(player, live.game.default_action(player))


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.mark.asyncio
async def test_edits_are_coalesced_latest_state_last() -> None:
    live = _live()
    discord_ = _Discord()
    hands = _hands(live, discord_.request)
    for n, user in enumerate((ALICE, BOB, CAROL)):
        hands.register(_interaction(user, n), user)
    for _ in range(4):  # four moves while the first edits are still in flight
        _move(live)
        hands.refresh()
        await _settle()
    discord_.gate.set()
    await _settle()
    per_token: dict[str, list[Any]] = {}
    for method, token, kwargs in discord_.calls:
        assert method == "PATCH"
        per_token.setdefault(token, []).append(kwargs)
    assert all(len(edits) <= 2 for edits in per_token.values()), per_token
    assert discord_.most_in_flight <= 3  # at most one per player
    for n, user in enumerate((ALICE, BOB, CAROL)):
        last = per_token[f"token-{n}"][-1]
        assert last["embeds"][0].to_dict() == _hand_embed(live, user)


@pytest.mark.asyncio
async def test_spent_or_refused_tokens_are_not_used_again() -> None:
    live = _live()
    discord_ = _Discord(status=404)
    discord_.gate.set()
    hands = _hands(live, discord_.request)
    spent = Settings(_env_file=None).hand_token_ttl + 1
    hands.register(_interaction(ALICE, 0, age=spent), ALICE)  # spent
    hands.register(_interaction(BOB, 1), BOB)
    for _ in range(3):
        _move(live)
        hands.refresh()
        await _settle()
    assert [token for _, token, _ in discord_.calls] == ["token-1"]


@pytest.mark.asyncio
async def test_only_a_private_answer_becomes_a_live_hand() -> None:
    live = _live()
    discord_ = _Discord()
    discord_.gate.set()
    hands = _hands(live, discord_.request)
    # A public answer (e.g. a deferred update of the table), or one not given by `respond`.
    hands.register(_interaction(ALICE, 0, answer=Answer(ephemeral=False)), ALICE)
    hands.register(_interaction(BOB, 1, answer=None), BOB)
    # A deferred update of the table followed by the hand as a private follow-up: that one.
    hands.register(_interaction(CAROL, 2, answer=Answer(True, followup=777)), CAROL)
    assert set(hands._hands) == {CAROL}
    assert hands._hands[CAROL].token.followup == 777


@pytest.mark.asyncio
async def test_a_picture_the_hand_already_shows_is_not_sent_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    live = _live()
    discord_ = _Discord()
    discord_.gate.set()
    hands = _hands(live, discord_.request)
    kept: list[bool] = []

    async def ready(message: Outgoing, *, edit: bool, keep: bool, urgent: bool) -> Ready:
        kept.append(keep)
        if keep:
            return Ready(message, keep=True)
        return Ready(message, discord.File(io.BytesIO(b"x"), "hand.png"))  # as drawn

    monkeypatch.setattr("cogs.uno.game.hands.ready", ready)
    same = SimpleNamespace(key=("cards", "same"))
    hands._message = lambda *args, **kwargs: Outgoing(picture=same)
    hands.register(_interaction(BOB, 1), BOB)
    for _ in range(2):
        _move(live)
        hands.refresh()
        await _settle()
    assert len(discord_.calls) == 2
    assert kept == [False, True]  # the first edit sets it; the second keeps the message's


@pytest.mark.asyncio
async def test_a_failed_edit_is_sent_again_with_the_latest_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    live = _live()
    monkeypatch.setattr("cogs.uno.game.hands.RETRY_FIRST", 0.01)
    statuses = [500, 0, 200]  # Discord failing, then the network, then fine
    calls: list[Any] = []

    async def request(method: str, token: Any, kwargs: Any = None) -> int:
        calls.append(kwargs)
        return statuses.pop(0)

    hands = _hands(live, request)
    hands.register(_interaction(BOB, 1), BOB)
    _move(live)
    hands.refresh()
    await asyncio.wait_for(_until(lambda: not statuses), 2)
    await _settle()
    assert len(calls) == 3
    assert calls[-1]["embeds"][0].to_dict() == _hand_embed(live, BOB)


async def _until(done: Any) -> None:
    while not done():
        await asyncio.sleep(0.005)


@pytest.mark.asyncio
async def test_a_replaced_hand_is_deleted_only_after_its_edit_in_flight() -> None:
    """A DELETE overtaking the old hand's edit would leave that edit an invalid request (404
    Unknown Message, counted against the bot): the DELETE waits for it."""
    live = _live()
    discord_ = _Discord()
    hands = _hands(live, discord_.request)
    hands.register(_interaction(ALICE, 0), ALICE)
    _move(live)
    hands.refresh()
    await _settle()
    assert [(m, t) for m, t, _ in discord_.calls] == [("PATCH", "token-0")]  # held in flight
    hands.register(_interaction(ALICE, 1), ALICE)  # Alice opens her hand again
    await _settle()
    assert ("DELETE", "token-0") not in [(m, t) for m, t, _ in discord_.calls]
    discord_.gate.set()
    await _settle()
    calls = [(m, t) for m, t, _ in discord_.calls]
    assert calls.index(("DELETE", "token-0")) > calls.index(("PATCH", "token-0"))


@pytest.mark.asyncio
async def test_a_click_on_a_replaced_hand_does_not_make_it_live_again() -> None:
    """Alice opens her hand again (the first is deleted), but clicks the first just before it
    goes: that answer's token must not become her live hand, whose edits would all meet a
    deleted message (404 Unknown Message, invalid requests); the second hand stays live."""
    live = _live()
    discord_ = _Discord()
    discord_.gate.set()
    hands = _hands(live, discord_.request)
    hands.register(_interaction(ALICE, 0), ALICE)  # its answer: message 5000
    hands.register(_interaction(ALICE, 1), ALICE)  # opened again: 5000 is deleted
    await _settle()
    late = _interaction(ALICE, 2)
    late.message = SimpleNamespace(id=5000, interaction_metadata=SimpleNamespace(id=1000))
    late.response = SimpleNamespace(type=discord.InteractionResponseType.message_update)
    hands.register(late, ALICE)
    _move(live)
    hands.refresh()
    await _settle()
    edited = [token for method, token, _ in discord_.calls if method == "PATCH"]
    assert "token-2" not in edited and "token-1" in edited
    assert ("DELETE", "token-1") not in [(m, t) for m, t, _ in discord_.calls]
