"""Hands that follow the game: each player's latest private hand is edited as their view changes.

A hand is an ephemeral message, which the bot can reach only through the token of the
interaction it answered, for 15 minutes. So every answer that shows a hand (Show my hand,
`/uno hand`, the answer to a move) registers that interaction here as the player's one live
hand; the previous one is deleted through its own token, so each player has one. After every
saved change (results.py) `refresh` compares, for each registered player, a small signature of
what their hand shows (their cards, legal actions, whose turn, the decision) with what it last
showed, and edits the changed ones: their turn starts, a penalty or a colour comes to them,
someone else's action changed their cards, the round ended. Without this an open hand kept
saying "Waiting for Bob" with every card greyed out, and each turn took a Refresh first.

Edits are coalesced per player (latest state wins, one request in flight, like
table_updater.py), run off the acting player's path (after their answer), and never use an
expired token: a token is used until `hand_token_ttl` seconds after its interaction (Discord:
900 s; the default keeps a margin), and forgotten at once when Discord answers 401 or 404 for it
(never retried). Hands heal like tables: an edit that fails otherwise (5xx, network, 429) is
sent again with the then-latest state after a pause (RETRY_FIRST doubling to RETRY_MAX) while
the token lives. Only a private answer is a live hand: `answer_in_time.respond` notes where it
answered, and a deferred update of the public table (whose answer follows up privately)
registers the follow-up, reached by its id, never the table.
Kept in memory only: after a restart nobody's hand is live until they click once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import AsyncIterator, Hashable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import discord

from bot.discord_internals import interaction_session, webhook_request
from bot.engine import events as E
from bot.engine import view_for
from bot.i18n import t
from bot.ui.pictures import Picture
from bot.ui.story import personal_notice
from cogs.uno.answer_in_time import answer_of
from cogs.uno.hand_view import hand_kwargs
from cogs.uno.live import LiveGame
from cogs.uno.pictures import attach, has_picture, images_on, shown_after
from cogs.uno.shared import Shared
from cogs.uno.turn_clock import MAX_TIMEOUTS

log = logging.getLogger(__name__)

#: Seconds after its interaction that a hand's token is used (Discord keeps it 900 s; the
#: margin covers clock skew and a request still in flight). Setting HAND_TOKEN_TTL overrides it.
TOKEN_TTL = 840.0

#: What a hand shows that is worth an edit (not the top card alone, nor others' card counts).
Signature = tuple[Any, ...]
#: The signature of a hand whose player is out of the game (it says why, without buttons).
_ENDED: Signature = ("ended",)
#: Registrations between two sweeps of spent tokens.
SWEEP_EVERY = 256
#: Seconds an answer waits at most for an edit of the same hand already on its way (`quiet`).
QUIET_TIMEOUT = 0.5
#: Seconds before a failed hand edit is sent again, doubled per failure up to RETRY_MAX (as
#: table_updater.py). The time discord.py already spent retrying counts, and the cap keeps a hand at
#: most ~RETRY_MAX s behind once Discord recovers.
RETRY_FIRST = 1.0
RETRY_MAX = 8.0
#: Seconds one request may take, discord.py's own retries included (a 5xx is tried five times
#: over 16 s, then it sleeps 9 s more before giving up): past it, `_send` tries again itself,
#: so a hand waits at most a few seconds once Discord is back.
REQUEST_TIMEOUT = 10.0


def signature(live: LiveGame, user: int) -> Signature:
    """What `user`'s hand shows that matters to them: an edit is due when this changes."""
    view = view_for(live.game, user)
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
    )


class _Unknown:
    """What a hand's picture shows when nobody knows (`LiveHands.register`'s default)."""


UNKNOWN = _Unknown()


@dataclass(slots=True)
class _Token:
    """One interaction's token, through which its hand message is edited or deleted."""

    application_id: int
    token: str
    session: Any  # discord.py's aiohttp session for this client
    expires: datetime
    origin: int  # the interaction whose answer created the message (same message, same origin)
    message: int | None = None  # the message's id, when known
    followup: int | None = None  # reached as this follow-up's id, not as `@original`

    def alive(self) -> bool:
        return discord.utils.utcnow() < self.expires

    def same_message(self, other: _Token) -> bool:
        if self.message is not None and self.message == other.message:
            return True
        return self.origin == other.origin


@dataclass(slots=True)
class _Hand:
    """A player's live hand in one game, and the edits waiting to reach it."""

    token: _Token
    locale: Any
    page: int
    shown: Signature | None  # what the message shows (or will, once `pending` is sent)
    pending: dict[str, Any] | None = None
    task: asyncio.Task[None] | None = None
    final: bool = False  # the game is over: forget this hand once the last edit is sent
    # What the message's picture shows, once an edit of ours set it (None: no picture).
    picture: Hashable | None = None
    picture_known: bool = False
    answering: int = 0  # answers with this hand being prepared (`LiveHands.answer`)
    # Public messages were posted below it (a new round's results and table): the next send
    # posts the hand anew at the bottom, as a follow-up, and deletes this message.
    relocate: bool = False


class LiveHands:
    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.ttl = shared.settings.hand_token_ttl
        self._games: dict[int, dict[int, _Hand]] = {}  # game id -> player -> live hand
        self._registered = 0
        self._refreshing: dict[int, asyncio.Task[None]] = {}
        self._dirty: dict[int, LiveGame] = {}
        self._told: dict[int, list[E.Event]] = {}  # game id -> events no hand was edited for
        self._timed_out: dict[int, dict[int, int]] = {}  # game id -> player -> timeouts in a row
        self._ended: dict[int, dict[int, str]] = {}  # game id -> player -> why they left
        self._deleting: set[asyncio.Task[None]] = set()
        # (token, follow-up id) -> when its token expires: messages already deleted.
        self._deleted: dict[tuple[str, int | None], datetime] = {}
        # What those deletes remove: message ids, and interactions whose original answer went
        # (its id may be unknown); with the follow-ups this process posted, told apart from
        # originals. A hand answered on a message being deleted is not made live again: its
        # token's edits would meet a deleted message (404, an invalid request).
        self._gone_messages: dict[int, datetime] = {}
        self._gone_originals: dict[int, datetime] = {}
        self._followups: dict[int, datetime] = {}
        self._in_flight: dict[tuple[int, int], asyncio.Future[None]] = {}  # (game, player)
        # Hand messages (by id, and by the interaction that created them) that a click's answer
        # is editing now -> how many; and what a DELETE of one of them waits for: deleted under
        # that answer, its edit would meet a gone message (404, an invalid request).
        self._answers_on: Counter[int] = Counter()
        self._answers_done: dict[int, asyncio.Future[None]] = {}

    def register(
        self,
        interaction: discord.Interaction[Any],
        live: LiveGame,
        user: int,
        *,
        page: int = 0,
        picture: Hashable | _Unknown | None = UNKNOWN,
    ) -> None:
        """`interaction` was just answered with `user`'s hand: it becomes their live hand;
        `picture`: what the answer's picture shows (`pictures.shown_after`), if known."""
        token = self._token(interaction)
        if token is None or not token.alive() or self._is_gone(token):
            return
        self._registered += 1
        if self._registered % SWEEP_EVERY == 0:
            self._sweep()
        hands = self._games.setdefault(live.game_id, {})
        old = hands.get(user)
        hand = _Hand(token, interaction.locale, page, signature(live, user))
        if not isinstance(picture, _Unknown):
            hand.picture, hand.picture_known = picture, True
        if old is not None:
            flight = self._in_flight.get((live.game_id, user))
            if not old.token.same_message(token) and old.token.alive():
                # After the old hand's edit in flight, if any: a DELETE overtaking it would
                # make that edit an invalid request (404 Unknown Message).
                self._delete(old.token, after=flight)
            hand.task = old.task
            if flight is not None and not flight.done():
                # An edit through the old token may land after this answer: show it again,
                # picture included (which one the message shows then is not known).
                hand.pending = self._kwargs(live, user, hand.locale, page)
                hand.picture_known = False
        hands[user] = hand
        self._kick(live.game_id, user, hand)

    @contextlib.asynccontextmanager
    async def answer(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        user: int,
        kwargs: dict[str, Any],
        *,
        edit: bool,
    ) -> AsyncIterator[tuple[dict[str, Any], Hashable | None]]:
        """While the player's hand is answered with `kwargs` (the newest state): the answer's
        kwargs with their picture attached, and what that picture shows (for `register`).
        An edit of the live hand on its way is waited for first (`quiet`); edits drawn
        meanwhile are dropped, the answer shows what they would; and an answer that edits
        the live hand keeps the picture it already shows instead of uploading it again."""
        hand = self._games.get(game_id, {}).get(user)
        if hand is not None:
            hand.answering += 1
        edited = _keys_of(interaction.message) if edit else ()
        self._answers_on.update(edited)  # (before any await: see `replaced`)
        try:
            await self.quiet(game_id, user)
            picture: Picture | None = kwargs.get("picture")
            key = picture.key if picture is not None else None
            message = interaction.message if edit else None
            keep = message is not None and self._shows(game_id, user, message, key)
            existing = message.attachments if keep and message is not None else None
            # drawn off the loop (or the one the clicked hand already shows)
            sent = await attach(kwargs, edit=edit, keep=keep, existing=existing)
            await self.quiet(game_id, user)
            yield sent, shown_after(picture, sent, kept=keep)
        except discord.NotFound:
            raise  # the clicked hand is gone: the caller answers with a new one
        except BaseException:
            # The answer did not reach the player (the edits drawn meanwhile were dropped for
            # it): their live hand is shown the game as it is now instead.
            if hand is not None and self._games.get(game_id, {}).get(user) is hand:
                hand.shown = None
                live = self.shared.live.get(game_id)
                if live is not None:
                    self.refresh(live)
            raise
        finally:
            if hand is not None:
                hand.answering -= 1
            self._answers_on.subtract(edited)
            for key in edited:
                if self._answers_on[key] <= 0:
                    del self._answers_on[key]
                    done = self._answers_done.pop(key, None)
                    if done is not None and not done.done():
                        done.set_result(None)

    def replaced(self, message: discord.Message | None) -> bool:
        """Whether `message` (a clicked hand) is one this process deleted or is deleting (its
        player opened a newer one): its click is answered with a new hand, not an edit of it.
        Checked right before `answer` with nothing awaited in between, so a hand is never
        deleted under an answer that edits it (the DELETE waits for that answer)."""
        if message is None:
            return False
        if message.id in self._gone_messages:
            return True
        meta = message.interaction_metadata
        origin = meta.id if meta is not None else message.id
        return message.id not in self._followups and origin in self._gone_originals

    def _shows(self, game_id: int, user: int, message: discord.Message, key: Hashable) -> bool:
        """Whether `message` (a clicked hand) is `user`'s live hand, its picture shows `key`
        and no edit of it is on its way."""
        hand = self._games.get(game_id, {}).get(user)
        if hand is None or not hand.picture_known or hand.picture != key:
            return False
        flight = self._in_flight.get((game_id, user))
        if flight is not None and not flight.done():
            return False
        if hand.token.message is not None:
            return hand.token.message == message.id
        meta = message.interaction_metadata
        return (meta.id if meta is not None else message.id) == hand.token.origin

    async def quiet(self, game_id: int, user: int) -> None:
        """Wait (at most QUIET_TIMEOUT) until no edit of `user`'s hand is on its way: an answer
        sent meanwhile could reach Discord first and be overwritten by that older edit."""
        flight = self._in_flight.get((game_id, user))
        if flight is not None and not flight.done():
            await asyncio.wait({flight}, timeout=QUIET_TIMEOUT)

    def bring_down(self, live: LiveGame, events: list[E.Event] | tuple[E.Event, ...] = ()) -> None:
        """A new round's results and table were just posted below every open hand: post each
        hand again at the bottom (a private follow-up through its token) and delete the old
        one, so nobody scrolls up to play (one live hand per player stays the rule)."""
        told = [*self._told.pop(live.game_id, []), *events]
        table = live.table_message_id or 0
        for user, hand in list(self._games.get(live.game_id, {}).items()):
            if not hand.token.alive() or user not in live.game.players or user in live.game.left:
                continue
            if max(hand.token.origin, hand.token.message or 0) > table:
                continue  # opened after the new table was posted: already below it (snowflakes)
            hand.relocate = True
            hand.shown = signature(live, user)
            notice = personal_notice(told, user, live.names, hand.locale) or None
            hand.pending = self._kwargs(live, user, hand.locale, 0, notice)
            hand.page = 0
            self._kick(live.game_id, user, hand)

    def _sweep(self) -> None:
        """Forget the hands whose token is spent (games that ended without a last refresh)."""
        for game_id, hands in list(self._games.items()):
            for user, hand in list(hands.items()):
                if not hand.token.alive() and (hand.task is None or hand.task.done()):
                    del hands[user]
            if not hands:
                del self._games[game_id]
                self._told.pop(game_id, None)
        now = discord.utils.utcnow()
        self._deleted = {k: at for k, at in self._deleted.items() if at > now}
        for kept in (self._gone_messages, self._gone_originals, self._followups):
            for key in [k for k, at in kept.items() if at <= now]:
                del kept[key]

    def _token(self, interaction: discord.Interaction[Any]) -> _Token | None:
        """The token through which the interaction's answer can be edited, if that answer is a
        private message: a public one (a deferred update of the table, say) never is a hand."""
        app_id = interaction.application_id
        answer = answer_of(interaction)
        if not app_id or not interaction.token or answer is None or not answer.ephemeral:
            return None
        expires = interaction.created_at + timedelta(seconds=self.ttl)
        token = _Token(
            app_id, interaction.token, interaction_session(interaction), expires, interaction.id
        )
        message = interaction.message
        if answer.followup is not None:  # a message of its own, reached by its id
            token.origin = token.message = token.followup = answer.followup
            self._followups[answer.followup] = expires
        elif message is not None and _edited_clicked(interaction):
            meta = message.interaction_metadata
            token.origin = meta.id if meta is not None else message.id
            token.message = message.id
        return token

    def refresh(
        self,
        live: LiveGame,
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
        if not self._games.get(live.game_id):
            return
        self._told.setdefault(live.game_id, []).extend(events)
        if timed_out:
            self._timed_out.setdefault(live.game_id, {}).update(timed_out)
        if ended:
            self._ended.setdefault(live.game_id, {}).update(ended)
        self._dirty[live.game_id] = live
        task = self._refreshing.get(live.game_id)
        if task is None or task.done():
            self._refreshing[live.game_id] = asyncio.create_task(self._refresh(live.game_id))

    async def _refresh(self, game_id: int) -> None:
        while (live := self._dirty.pop(game_id, None)) is not None:
            lock = self.shared.lock(live.channel_id)
            while lock.locked():  # a move is being saved: render what it saves, not before
                async with lock:
                    pass
            current = self.shared.live.get(game_id) or live
            self._render_all(current)
        self._refreshing.pop(game_id, None)

    def _render_all(self, live: LiveGame) -> None:
        game_id, game = live.game_id, live.game
        over = game.outcome is not None
        events = self._told.pop(game_id, [])
        timed_out = self._timed_out.pop(game_id, {})
        ended = self._ended.pop(game_id, {})
        for user, hand in list(self._games.get(game_id, {}).items()):
            if hand.token.alive() and user in game.left and hand.shown != _ENDED:
                # Out of the game: the hand says why and loses its buttons, then is forgotten.
                hand.shown, hand.final = _ENDED, True
                why = t(ended.get(user, "notice.left"), hand.locale)
                hand.pending = {"embed": discord.Embed(description=why), "view": None}
                self._kick(game_id, user, hand)
                continue
            if not hand.token.alive() or user not in game.players or user in game.left:
                self._forget(game_id, user, hand, busy=False)
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
                hand.pending = self._kwargs(live, user, hand.locale, hand.page, notice or None)
                self._kick(game_id, user, hand)
            elif over:
                self._forget(game_id, user, hand, busy=False)

    def _kwargs(
        self, live: LiveGame, user: int, locale: Any, page: int, notice: str | None = None
    ) -> dict[str, Any]:
        pictures = images_on(self.shared, live.guild_id)
        return hand_kwargs(live, user, locale, page=page, pictures=pictures, notice=notice)

    def _forget(self, game_id: int, user: int, hand: _Hand, *, busy: bool = True) -> None:
        """Forget `hand` if it is still the player's (and, unless `busy`, sends nothing now)."""
        hands = self._games.get(game_id, {})
        if hands.get(user) is not hand:
            return
        if not busy and (hand.pending is not None or (hand.task and not hand.task.done())):
            return
        del hands[user]
        if not hands:
            self._games.pop(game_id, None)
            self._told.pop(game_id, None)

    def _kick(self, game_id: int, user: int, hand: _Hand) -> None:
        if hand.pending is not None and (hand.task is None or hand.task.done()):
            hand.task = asyncio.create_task(self._send(game_id, user))

    async def _send(self, game_id: int, user: int) -> None:
        """Deliver a player's pending edits, one at a time, the newest state last; a failed
        one is sent again (the then-latest state) after a pause, until its token is spent."""
        loop = asyncio.get_running_loop()
        failures = 0
        hand: _Hand | None
        while (hand := self._games.get(game_id, {}).get(user)) is not None:
            raw, hand.pending = hand.pending, None
            if raw is None:
                break
            if not hand.token.alive():
                self._forget(game_id, user, hand)
                break
            shown = raw.get("picture")
            picture = shown.key if shown is not None else None
            relocate = hand.relocate
            if hand.answering:
                continue  # a click's answer is on its way with the newest state: no drawing
            keep = not relocate and hand.picture_known and hand.picture == picture  # not re-sent
            kwargs = await attach(raw, edit=not relocate, keep=keep, urgent=False)
            if (
                self._games.get(game_id, {}).get(user) is not hand
                or hand.pending is not None
                or hand.answering
            ):
                # A newer state came while the picture was drawn (or a click is being answered
                # with it): this one is stale, and sent now it could land after the newer answer.
                continue
            flight_key = (game_id, user)
            flight = self._in_flight[flight_key] = loop.create_future()
            started = loop.time()
            try:
                if relocate:
                    status = await self._relocate(hand, kwargs)
                else:
                    status = await self._request("PATCH", hand.token, kwargs)
            finally:
                flight.set_result(None)
                if self._in_flight.get(flight_key) is flight:
                    del self._in_flight[flight_key]
            if status == 200:
                # (a picture left out because it was late: the message now has none)
                hand.picture = picture if keep or has_picture(kwargs) else None
                hand.picture_known = True
                failures = 0
            elif status in (401, 404):
                self._forget(game_id, user, hand)  # the token or message is gone: never retried
            else:
                # Discord failing (5xx after discord.py's own tries, a network error, a 429
                # that outlasted them): send the then-latest state again after a pause.
                failures += 1
                if hand.pending is None:
                    hand.pending = raw  # nothing newer came: this is still the latest
                pause = min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1))
                # discord.py's retries of a 5xx took their own time: count it in the pause.
                pause -= loop.time() - started
                log.info("hand of %s in game %s: again in %.1f s", user, game_id, pause)
                if pause > 0:
                    await asyncio.sleep(pause)
        if hand is not None and hand.final and hand.pending is None:
            self._forget(game_id, user, hand)

    async def _relocate(self, hand: _Hand, kwargs: dict[str, Any]) -> int:
        """Post the hand as a new private follow-up of its token's interaction, make that the
        live hand and delete the old message: the status of the post."""
        old = hand.token
        message: dict[str, Any] = {k: kwargs[k] for k in ("embed", "view", "files") if k in kwargs}
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                data = await webhook_request(
                    self.shared.bot,
                    old.session,
                    "POST",
                    "/webhooks/{webhook_id}/{webhook_token}",
                    kwargs=message,
                    ephemeral=True,
                    wait=True,
                    webhook_id=old.application_id,
                    webhook_token=old.token,
                )
        except discord.HTTPException as exc:
            if exc.status not in (401, 404):
                log.warning("hand follow-up failed: %s", exc)
            return exc.status
        except (TimeoutError, OSError) as exc:
            log.warning("hand follow-up failed: %r", exc)
            return 0
        new_id = int(data["id"])
        self._followups[new_id] = old.expires
        new = _Token(
            old.application_id, old.token, old.session, old.expires, new_id, new_id, new_id
        )
        hand.relocate = False
        self._delete(old)
        if not any(hand is h for hs in self._games.values() for h in hs.values()):
            self._delete(new)  # the player opened another hand meanwhile: that one is live
            return 200
        hand.token = new
        return 200

    def _delete(self, token: _Token, *, after: asyncio.Future[None] | None = None) -> None:
        """Delete a player's previous hand (on its own: a slow delete holds up no edit), once:
        a hand replaced while it was being posted anew is asked for twice, and a second DELETE
        would be an invalid request (404) counted against the bot. `after`: an edit of that
        message still in flight, which the DELETE waits for."""
        key = (token.token, token.followup)
        if key in self._deleted:
            return
        self._deleted[key] = token.expires
        message = token.followup if token.followup is not None else token.message
        if message is not None:
            self._gone_messages[message] = token.expires
        if token.followup is None:
            self._gone_originals[token.origin] = token.expires
        task = asyncio.create_task(self._delete_after(token, after))
        self._deleting.add(task)
        task.add_done_callback(self._deleting.discard)

    def _is_gone(self, token: _Token) -> bool:
        """Whether `token`'s message is one this process deleted or is deleting: a click on a
        hand the player had already replaced, answered on it just before it went."""
        if token.message is not None and token.message in self._gone_messages:
            return True
        on_original = token.followup is None and token.message not in self._followups
        return on_original and token.origin in self._gone_originals

    async def _delete_after(self, token: _Token, after: asyncio.Future[None] | None) -> None:
        if after is not None and not after.done():
            await asyncio.shield(after)
        loop = asyncio.get_running_loop()
        for key in (token.followup or token.message, token.origin):
            if key is not None and self._answers_on[key] > 0:  # a click's answer edits it now
                done = self._answers_done.setdefault(key, loop.create_future())
                await asyncio.shield(done)
        await self._request("DELETE", token)

    async def _request(
        self, method: str, token: _Token, kwargs: dict[str, Any] | None = None
    ) -> int:
        """PATCH or DELETE `.../webhooks/{application}/{token}/messages/@original` (or the
        follow-up's id): the status."""
        hook = "/webhooks/{webhook_id}/{webhook_token}/messages/"
        message: dict[str, Any] | None = (
            None
            if kwargs is None
            else {key: kwargs[key] for key in ("embed", "view", "attachments") if key in kwargs}
        )
        follow_up: dict[str, Any] = {} if token.followup is None else {"message_id": token.followup}
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT):
                await webhook_request(
                    self.shared.bot,
                    token.session,
                    method,
                    hook + ("@original" if token.followup is None else "{message_id}"),
                    kwargs=message,
                    webhook_id=token.application_id,
                    webhook_token=token.token,
                    **follow_up,
                )
        except discord.HTTPException as exc:
            if exc.status not in (401, 404):
                log.warning("hand %s failed: %s", method, exc)
            return exc.status
        except (TimeoutError, OSError) as exc:
            log.warning("hand %s failed: %r", method, exc)
            return 0
        return 200

    async def close(self) -> None:
        """Stop every pending edit (the cog is unloaded)."""
        tasks: list[asyncio.Task[Any]] = [*self._refreshing.values(), *self._deleting]
        tasks += [h.task for hs in self._games.values() for h in hs.values() if h.task]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._games.clear()


def _keys_of(message: discord.Message | None) -> tuple[int, ...]:
    """How a hand message is known here: its id, and the interaction whose answer it is."""
    if message is None:
        return ()
    meta = message.interaction_metadata
    return (message.id,) if meta is None or meta.id == message.id else (message.id, meta.id)


def _edited_clicked(interaction: discord.Interaction[Any]) -> bool:
    """Whether the answer edited the clicked message (a deferred update counts too: then the
    answer was an edit of it, as `answer_of` says no follow-up was sent)."""
    kind = interaction.response.type
    return kind in (
        discord.InteractionResponseType.message_update,
        discord.InteractionResponseType.deferred_message_update,
    )
