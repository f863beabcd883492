"""Hands that follow the game: each player's latest private hand is edited as their view changes.

A hand is an ephemeral message, which the bot can reach only through the token of the
interaction it answered, for 15 minutes. So every answer that shows a hand (Show my hand,
`/uno hand`, the answer to a move) registers that interaction here as the player's one live
hand; the previous one is deleted through its own token, so each player has one. After every
saved change `refresh` compares, for each registered player, a signature of what their hand
shows with what it last showed, and edits the changed ones. A hand is the player's whole view
on a phone (bot/ui/hand_message.py: whose turn and its countdown, the card to match, every
opponent's count and UNO state, the last moves, their cards), so nearly every move edits every
open hand: through its own token, on routes exempt from Discord's global limit, and coalesced.
Without this an open hand kept saying "Waiting for Bob" with every card greyed out, each turn
took a Refresh first, and a phone player scrolled up to the table to see the game.

Edits are coalesced per player (latest state wins, one request in flight, like
game/table.py), run off the acting player's path (after their answer), and never use an
expired token: a token is used until `hand_token_ttl` seconds after its interaction (Discord:
900 s; the default keeps a margin), and forgotten at once when Discord answers 401 or 404 for it
(never retried). Hands heal like tables: an edit that fails otherwise (5xx, network, 429) is
sent again with the then-latest state after a pause (RETRY_FIRST doubling to RETRY_MAX) while
the token lives. Only a private answer is a live hand: `answer_in_time.respond` notes where it
answered, and a deferred update of the public table (whose answer follows up privately)
registers the follow-up, reached by its id, never the table.
Kept in memory only: after a restart nobody's hand is live until they click once.

Each running game's owner holds its game's live hands (`GameHands`, made by `PrivateHands.hands`):
who has one, the edits on their way, what is still to be told; a finished game's last edits
still go out after it retired. The tokens and what this process did with them are process-wide
(game/hand_tokens.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import events as E
from bot.host import Interaction
from bot.i18n import t
from bot.ui.outgoing import Outgoing
from bot.ui.story import personal_notice
from cogs.uno.delivery import Ready, SendKwargs, ready
from cogs.uno.game.clock import MAX_TIMEOUTS
from cogs.uno.game.hand_tokens import HandTokens, Token
from cogs.uno.game.hand_view import hand_message
from cogs.uno.game.live import LiveGame
from cogs.uno.shared import Shared

log = logging.getLogger(__name__)

#: Seconds after its interaction that a hand's token is used (Discord keeps it 900 s; the
#: margin covers clock skew and a request still in flight). Setting HAND_TOKEN_TTL overrides it.
TOKEN_TTL = 840.0

#: What a hand shows (an edit is due when it changes).
Signature = tuple[Any, ...]
#: The signature of a hand whose player is out of the game (it says why, without buttons).
_ENDED: Signature = ("ended",)
#: Seconds an answer waits at most for an edit of the same hand already on its way (`quiet`).
QUIET_TIMEOUT = 0.5
#: Seconds before a failed hand edit is sent again, doubled per failure up to RETRY_MAX (as
#: game/table.py). The time discord.py already spent retrying counts, and the cap keeps a hand
#: at most ~RETRY_MAX s behind once Discord recovers.
RETRY_FIRST = 1.0
RETRY_MAX = 8.0


def signature(live: LiveGame, user: int) -> Signature:
    """What `user`'s hand shows that matters to them: an edit is due when this changes."""
    view = live.view(user)
    host = live.host_id if live.host_present else None
    return (
        view.round_number,
        view.hand,
        view.legal,
        view.current_player,
        view.decision,
        view.penalty,
        view.drawn,
        host == user,
        view.top_card,
        view.color,
        tuple((s.player, s.cards, s.at_risk, s.in_round, s.left) for s in view.seats),
        live.deadline,
        live.recent.serial,  # (the last moves it tells)
    )


class _Unknown:
    """What a hand's picture shows when nobody knows (`GameHands.register`'s default)."""


UNKNOWN = _Unknown()


@dataclass(slots=True)
class _Hand:
    """A player's live hand in one game, and the edits waiting to reach it."""

    token: Token
    locale: discord.Locale  # its player's language, as their client says
    page: int
    shown: Signature | None  # what the message shows (or will, once `pending` is sent)
    pending: Outgoing | None = None
    task: asyncio.Task[None] | None = None
    final: bool = False  # the game is over: forget this hand once the last edit is sent
    # What the message's picture shows, once an edit of ours set it (None: no picture).
    picture: Hashable | None = None
    picture_known: bool = False
    answering: int = 0  # answers with this hand being prepared (`GameHands.answer`)
    # Public messages were posted below it (a new round's results and table): the next send
    # posts the hand anew at the bottom, as a follow-up, and deletes this message.
    relocate: bool = False


class PrivateHands:
    """What every game's live hands share: the tokens (game/hand_tokens.py), the settings, and the
    tasks on their way (stopped when the cog is unloaded). Makes each game's `GameHands`."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.ttl = shared.settings.hand_token_ttl
        self.tokens = HandTokens(shared.bot, self.ttl)
        self._tasks: set[asyncio.Task[None]] = set()

    def hands(self, live: LiveGame, lock: asyncio.Lock) -> GameHands:
        """The live hands of the game whose saved state is `live` (changed under `lock`)."""
        return GameHands(self, live, lock)

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """A task of some game's hands, followed until it ends (to stop it with the cog)."""
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        """Stop every pending edit (the cog is unloaded)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.tokens.close()


class GameHands:
    """One game's live hands: each player's latest private hand, edited as their view changes."""

    def __init__(self, service: PrivateHands, live: LiveGame, lock: asyncio.Lock) -> None:
        self._service = service
        self._tokens = service.tokens
        self.shared = service.shared
        self.live = live
        self._lock = lock
        self._hands: dict[int, _Hand] = {}  # player -> live hand
        self._refreshing: asyncio.Task[None] | None = None
        self._dirty = False
        self._told: list[E.Event] = []  # events no hand was edited for yet
        self._timed_out: dict[int, int] = {}  # player -> timeouts in a row, to be told
        self._ended: dict[int, str] = {}  # player -> why they left, to be told
        self._in_flight: dict[int, asyncio.Future[None]] = {}  # player -> the edit on its way

    @property
    def game_id(self) -> int:
        return self.live.game_id

    def register(
        self,
        interaction: Interaction,
        user: int,
        *,
        page: int = 0,
        picture: Hashable | _Unknown | None = UNKNOWN,
    ) -> None:
        """`interaction` was just answered with `user`'s hand: it becomes their live hand;
        `picture`: what the answer's picture shows (`pictures.shown_after`), if known."""
        token = self._tokens.token(interaction)
        if token is None:
            return
        live = self.live
        old = self._hands.get(user)
        hand = _Hand(token, interaction.locale, page, signature(live, user))
        if not isinstance(picture, _Unknown):
            hand.picture, hand.picture_known = picture, True
        if old is not None:
            flight = self._in_flight.get(user)
            if not old.token.same_message(token) and old.token.alive():
                # After the old hand's edit in flight, if any: a DELETE overtaking it would
                # make that edit an invalid request (404 Unknown Message).
                self._tokens.delete(old.token, after=flight)
            hand.task = old.task
            if flight is not None and not flight.done():
                # An edit through the old token may land after this answer: show it again,
                # picture included (which one the message shows then is not known).
                hand.pending = self._message(user, hand.locale, page)
                hand.picture_known = False
        self._hands[user] = hand
        self._kick(user, hand)

    async def deal(self, reach: Mapping[int, tuple[Token, discord.Locale]]) -> set[int]:
        """At the deal: post each person their hand, without a click, as a private follow-up of
        their last click in the lobby (`reach`: player -> a `HandTokens.reach` token and their
        language), which becomes their live hand. Whom it reached; the others find Show my hand
        on the table, as after a restart."""
        game = self.live.game

        async def one(user: int, token: Token, locale: discord.Locale) -> int | None:
            if user not in game.players or user in game.left or user in self._hands:
                return None
            if not token.alive():
                return None
            sent = await ready(self._message(user, locale, 0), edit=False, urgent=False)
            _, new = await self._tokens.relocate(token, sent.send())
            if new is None or user in self._hands:  # (a Show my hand came first: that one)
                if new is not None:
                    self._tokens.delete(new)
                return None
            hand = _Hand(new, locale, 0, signature(self.live, user))
            hand.picture, hand.picture_known = sent.shown, True
            self._hands[user] = hand
            return user

        dealt = await asyncio.gather(*(one(u, tok, loc) for u, (tok, loc) in reach.items()))
        return {user for user in dealt if user is not None}

    @contextlib.asynccontextmanager
    async def answer(
        self,
        interaction: Interaction,
        user: int,
        fresh: Outgoing,
        *,
        edit: bool,
    ) -> AsyncIterator[Ready]:
        """While the player's hand is answered with `fresh` (the newest state): the answer
        ready, its picture attached, and what that picture shows (`Ready.shown`, for
        `register`).
        An edit of the live hand on its way is waited for first (`quiet`); edits drawn
        meanwhile are dropped, the answer shows what they would; and an answer that edits
        the live hand keeps the picture it already shows instead of uploading it again."""
        hand = self._hands.get(user)
        if hand is not None:
            hand.answering += 1
        message = interaction.message if edit else None
        try:
            with self._tokens.answering(message):  # (entered before any await: see `replaced`)
                await self.quiet(user)
                picture = fresh.picture
                key = picture.key if picture is not None else None
                keep = message is not None and self._shows(user, message, key)
                existing = message.attachments if keep and message is not None else None
                # drawn off the loop (or the one the clicked hand already shows)
                sent = await ready(fresh, edit=edit, keep=keep, existing=existing)
                await self.quiet(user)
                yield sent
        except discord.NotFound:
            raise  # the clicked hand is gone: the caller answers with a new one
        except BaseException:
            # The answer did not reach the player (the edits drawn meanwhile were dropped for
            # it): their live hand is shown the game as it is now instead.
            if hand is not None and self._hands.get(user) is hand:
                hand.shown = None
                self.refresh()
            raise
        finally:
            if hand is not None:
                hand.answering -= 1

    def replaced(self, message: discord.Message | None) -> bool:
        """Whether a clicked hand was replaced by a newer one (game/hand_tokens.py `replaced`)."""
        return self._tokens.replaced(message)

    def _shows(self, user: int, message: discord.Message, key: Hashable) -> bool:
        """Whether `message` (a clicked hand) is `user`'s live hand, its picture shows `key`
        and no edit of it is on its way."""
        hand = self._hands.get(user)
        if hand is None or not hand.picture_known or hand.picture != key:
            return False
        flight = self._in_flight.get(user)
        if flight is not None and not flight.done():
            return False
        if hand.token.message is not None:
            return hand.token.message == message.id
        meta = message.interaction_metadata
        return (meta.id if meta is not None else message.id) == hand.token.origin

    async def quiet(self, user: int) -> None:
        """Wait (at most QUIET_TIMEOUT) until no edit of `user`'s hand is on its way: an answer
        sent meanwhile could reach Discord first and be overwritten by that older edit."""
        flight = self._in_flight.get(user)
        if flight is not None and not flight.done():
            await asyncio.wait({flight}, timeout=QUIET_TIMEOUT)

    def bring_down(self, events: list[E.Event] | tuple[E.Event, ...] = ()) -> None:
        """A new round's results and table were just posted below every open hand: post each
        hand again at the bottom (a private follow-up through its token) and delete the old
        one, so nobody scrolls up to play (one live hand per player stays the rule)."""
        live = self.live
        told, self._told = [*self._told, *events], []
        table = live.table_message_id or 0
        for user, hand in list(self._hands.items()):
            if not hand.token.alive() or user not in live.game.players or user in live.game.left:
                continue
            if max(hand.token.origin, hand.token.message or 0) > table:
                continue  # opened after the new table was posted: already below it (snowflakes)
            hand.relocate = True
            hand.shown = signature(live, user)
            notice = personal_notice(told, user, live.names, hand.locale) or None
            hand.pending = self._message(user, hand.locale, 0, notice)
            hand.page = 0
            self._kick(user, hand)

    def refresh(
        self,
        events: list[E.Event] | tuple[E.Event, ...] = (),
        *,
        timed_out: Mapping[int, int] | None = None,
        ended: Mapping[int, str] | None = None,
    ) -> None:
        """After a saved change: edit, in the background, the hands whose view changed, each
        with one line of what happened to its player (`events`, gathered until the edit).
        `timed_out`: players whose turn the timer played (-> turns in a row), told so first;
        `ended`: players who left the game with this change (-> the catalogue key saying why),
        whose hand ends: it says why, and has no buttons left."""
        if not self._hands:
            return
        self._told.extend(events)
        if timed_out:
            self._timed_out.update(timed_out)
        if ended:
            self._ended.update(ended)
        self._dirty = True
        task = self._refreshing
        if task is None or task.done():
            self._refreshing = self._service.spawn(self._refresh())

    async def _refresh(self) -> None:
        while self._dirty:
            self._dirty = False
            lock = self._lock
            while lock.locked():  # a move is being saved: render what it saves, not before
                async with lock:
                    pass
            self._render_all()
        self._refreshing = None

    def _render_all(self) -> None:
        live = self.live
        game = live.game
        over = game.outcome is not None
        events, self._told = self._told, []
        timed_out, self._timed_out = self._timed_out, {}
        ended, self._ended = self._ended, {}
        for user, hand in list(self._hands.items()):
            if hand.token.alive() and user in game.left and hand.shown != _ENDED:
                # Out of the game: the hand says why and loses its buttons, then is forgotten.
                hand.shown, hand.final = _ENDED, True
                why = t(ended.get(user, "notice.left"), hand.locale)
                hand.pending = Outgoing.of(discord.Embed(description=why))
                self._kick(user, hand)
                continue
            if not hand.token.alive() or user not in game.players or user in game.left:
                self._forget(user, hand, busy=False)
                continue
            hand.final = over
            sig = signature(live, user)
            if sig != hand.shown:
                hand.shown = sig
                notice = personal_notice(events, user, live.names, hand.locale)
                if user in timed_out:
                    count = timed_out[user]
                    told = [t("notice.timed_out", hand.locale, count=count)]
                    if count == MAX_TIMEOUTS - 1:
                        told.append(t("notice.last_chance", hand.locale))
                    notice = "\n".join([*told, *([notice] if notice else [])])
                hand.pending = self._message(user, hand.locale, hand.page, notice or None)
                self._kick(user, hand)
            elif over:
                self._forget(user, hand, busy=False)

    def _message(
        self, user: int, locale: discord.Locale, page: int, notice: str | None = None
    ) -> Outgoing:
        live = self.live
        pictures = self.shared.images_on(live.guild_id)
        return hand_message(live, user, locale, page=page, pictures=pictures, notice=notice)

    def _forget(self, user: int, hand: _Hand, *, busy: bool = True) -> None:
        """Forget `hand` if it is still the player's (and, unless `busy`, sends nothing now)."""
        if self._hands.get(user) is not hand:
            return
        if not busy and (hand.pending is not None or (hand.task and not hand.task.done())):
            return
        del self._hands[user]
        if not self._hands:
            self._told.clear()

    def _kick(self, user: int, hand: _Hand) -> None:
        if hand.pending is not None and (hand.task is None or hand.task.done()):
            hand.task = self._service.spawn(self._send(user))

    async def _send(self, user: int) -> None:
        """Deliver a player's pending edits, one at a time, the newest state last; a failed
        one is sent again (the then-latest state) after a pause, until its token is spent."""
        loop = asyncio.get_running_loop()
        failures = 0
        hand: _Hand | None
        while (hand := self._hands.get(user)) is not None:
            raw, hand.pending = hand.pending, None
            if raw is None:
                break
            if not hand.token.alive():
                self._forget(user, hand)
                break
            picture = raw.picture.key if raw.picture is not None else None
            relocate = hand.relocate
            if hand.answering:
                continue  # a click's answer is on its way with the newest state: no drawing
            keep = not relocate and hand.picture_known and hand.picture == picture  # not re-sent
            sent = await ready(raw, edit=not relocate, keep=keep, urgent=False)
            if self._hands.get(user) is not hand or hand.pending is not None or hand.answering:
                # A newer state came while the picture was drawn (or a click is being answered
                # with it): this one is stale, and sent now it could land after the newer answer.
                continue
            flight = self._in_flight[user] = loop.create_future()
            started = loop.time()
            try:
                if relocate:
                    status = await self._relocate(user, hand, sent.send())
                else:
                    status = await self._tokens.request("PATCH", hand.token, sent.edit())
            finally:
                flight.set_result(None)
                if self._in_flight.get(user) is flight:
                    del self._in_flight[user]
            if status == 200:
                # (a picture left out because it was late: the message now has none)
                hand.picture = sent.shown
                hand.picture_known = True
                failures = 0
            elif status in (401, 404):
                self._forget(user, hand)  # the token or message is gone: never retried
            else:
                # Discord failing (5xx after discord.py's own tries, a network error, a 429
                # that outlasted them): send the then-latest state again after a pause.
                failures += 1
                if hand.pending is None:
                    hand.pending = raw  # nothing newer came: this is still the latest
                pause = min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1))
                # discord.py's retries of a 5xx took their own time: count it in the pause.
                pause -= loop.time() - started
                log.info("hand of %s in game %s: again in %.1f s", user, self.game_id, pause)
                if pause > 0:
                    await asyncio.sleep(pause)
        if hand is not None and hand.final and hand.pending is None:
            self._forget(user, hand)

    async def _relocate(self, user: int, hand: _Hand, kwargs: SendKwargs) -> int:
        """Post the hand as a new private follow-up of its token's interaction, make that the
        live hand and delete the old message: the status of the post."""
        old = hand.token
        status, new = await self._tokens.relocate(old, kwargs)
        if new is None:
            return status
        hand.relocate = False
        self._tokens.delete(old)
        if self._hands.get(user) is not hand:
            self._tokens.delete(new)  # the player opened another hand meanwhile: that one is live
            return 200
        hand.token = new
        return 200
