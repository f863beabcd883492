"""A Show 'Em No Mercy game reaching the UI crashes nothing: its cards (named, typed, drawn),
knocked-out players and their events, at every step of whole games, in every renderer of a
running table (what they say: test_no_mercy_table.py)."""

from __future__ import annotations

import random

from bot.engine import Game, RuleSet
from bot.engine import events as E
from bot.engine.view import view_for
from bot.ui.hand_message import hand_layout
from bot.ui.pictures import hand_picture, table_picture
from bot.ui.story import personal_notice, sentence, tell
from bot.ui.table_message import render_round_result, render_table

NAMES = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}


def test_whole_no_mercy_games_render_at_every_step() -> None:
    knocked_out = 0
    for seed in range(3):
        rng = random.Random(seed)
        game, _ = Game.start(list(NAMES), RuleSet.preset("no_mercy"), seed=seed)
        step = 0
        while game.outcome is None:
            player = game.current_player
            assert player is not None
            action = rng.choice(game.legal_actions(player))
            events = game.apply(player, action)
            for viewer in (None, player):
                assert sentence(tell(events, NAMES, "de", viewer=viewer), NAMES, "de") is not None
            knocked_out += len([e for e in events if isinstance(e, E.PlayerKnockedOut)])
            render_table(game, 1, NAMES, "fr", log=[personal_notice(events, player, NAMES)])
            for p in game.seats:
                hand_layout(game, p, NAMES, "pl")
            if step % 10 == 0:  # (pictures cost more: every tenth step)
                table_picture(game, NAMES, "en")
                hand_picture(view_for(game, player), "en")
            step += 1
        assert game.round_outcome is not None
        render_round_result(game.round_outcome, NAMES, "nl", match=game.outcome)
    assert knocked_out  # the mercy rule happened on the way
