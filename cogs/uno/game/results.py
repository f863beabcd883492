"""What a saved change says in public before the table moves: log lines and round results.

The first step of a running game's publication (game/owner.py): the change's events become the
table's log lines, and a round's end is announced with its results (and, at the match's end, the
Rematch / Game record / Replay buttons): rendered here when the change is saved (game/saving.py
stores them in the change's transaction), posted by outbox.py. Also the closed table that
ends a game nobody plays on.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping

from bot.engine import Game
from bot.engine import events as E
from bot.i18n import t
from bot.store import UnitOfWork
from bot.store.rating_model import MIN_RATED_HAND, rated_hand
from bot.ui.outgoing import Outgoing
from bot.ui.table_message import render_round_result, render_table
from cogs.uno.boards import announce_season_ends
from cogs.uno.game.live import LiveGame
from cogs.uno.outbox import PostPayload, PublicPoster, post_payload
from cogs.uno.shared import Shared

#: Seconds a round's end waits for its results to go out before its table moves on (so the
#: results come first); a try that fails ends the wait: the post is retried in the background
#: (outbox.py) and the game goes on meanwhile.
RESULTS_WAIT = 5.0


def results_post(
    live: LiveGame,
    game: Game,
    ended: E.RoundEnded,
    locale: str,
    ratings: Mapping[int, tuple[int, int]] | None,
    provisional: Collection[int] = (),
) -> PostPayload:
    """A round's results as the outbox stores them (game/saving.py writes them with the round's
    end): the standings (the round's seed is in the game's record), and at the match's end its
    winner, the rating changes (`ratings`, saved with it; those still `provisional` shown
    kindly) or why it was not rated, and the Rematch / Game record / Replay buttons."""
    match = game.outcome
    small = not rated_hand(game.rules.hand_size)
    embed = render_round_result(
        ended.outcome,
        live.names,
        locale,
        match=match,
        left=game.left,
        ratings=ratings,
        provisional=set(provisional),
        unrated_below=MIN_RATED_HAND if small else None,
    )
    return post_payload([embed], locale=locale, rematch_of=live.game_id if match else None)


def final_table_post(
    live: LiveGame, game: Game, events: list[E.Event], locale: str
) -> PostPayload | None:
    """A finished match's final table as the outbox keeps it for a restart (game/saving.py,
    "standby": the running process shows it itself, with its picture): text only, with the match's
    Rematch / Game record / Replay buttons; None without a table message."""
    if live.table_message_id is None:
        return None
    log = copy.deepcopy(live.log)  # with this change's lines, which announce adds later
    log.record(events, live.names, locale)
    table = render_table(game, live.game_id, live.names, locale, log=log.lines())
    return post_payload(
        list(table.embeds), locale=locale, rematch_of=live.game_id, edit_of=live.table_message_id
    )


class Results:
    def __init__(self, shared: Shared, posts: PublicPoster) -> None:
        self.shared = shared
        self.posts = posts

    async def announce(self, live: LiveGame, events: list[E.Event]) -> bool:
        """Post any round's results of a change (saved with it: outbox.py posts them until
        Discord takes them; its log lines were written by its commit, game/owner.py); whether a
        new round began (its table is then posted anew)."""
        shared = self.shared
        locale = shared.public_locale(live.guild_id)
        if any(isinstance(e, E.RoundEnded) for e in events):
            await self.posts.post_now(live.channel_id, RESULTS_WAIT)
            if live.game.outcome is not None:  # this match may have ended a season
                await announce_season_ends(shared.db, self.posts, live.guild_id, locale)
        return any(isinstance(e, E.RoundStarted) and e.round_number > 1 for e in events)

    async def save_closed_table(self, unit: UnitOfWork, live: LiveGame, reason: str) -> None:
        """Save, with the game's end (in `unit`), its closed table saying why (`reason`, a
        catalogue key): posted by outbox.py like the results, after a restart too."""
        if live.table_message_id is None:
            return
        locale = self.shared.public_locale(live.guild_id)
        table = self.closed_table(live, t(reason, locale))
        payload = post_payload(list(table.embeds), locale=locale, edit_of=live.table_message_id)
        await unit.posts.add(
            guild_id=live.guild_id,
            channel_id=live.channel_id,
            game_id=live.game_id,
            kind="table",
            payload=payload,
        )

    def closed_table(self, live: LiveGame, closed: str) -> Outgoing:
        """The table of a game that ended without a winner, saying why (`closed`); no picture,
        so an edit to it removes the one the table showed."""
        locale = self.shared.public_locale(live.guild_id)
        return render_table(
            live.game, live.game_id, live.names, locale, log=live.log.lines(), closed=closed
        )
