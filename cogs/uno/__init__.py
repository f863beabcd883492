"""The `/uno` game on Discord: one module per flow, arrows one way (tests/test_layers.py).

Who owns what at run time (docs/architecture.md draws it):
  running.py      RunningGames: every running game of this process; a RunningGame owns one:
                  its state as last saved (live.py), its lock, its clock (clock.py), its table
                  (game_table.py), its live hands (live_hands.py), its ping (pings.py), and
                  `commit` + `publish`, the one way a game changes and is shown.
                  publish: results.py -> table -> hands -> ping -> clock.
A click's path: components.py (router, re-checks) -> moves.py (plan) -> running.py `commit`
(lock, copy, engine, saving.py, adopt) -> the answer (answer_in_time.py, pictures.py)
-> live_hands.py `register` -> running.py `publish`.

commands.py     slash commands (entry points) -> the flow that owns each one
components.py   the click router (every DynamicItem) with its re-checks -> the flows
app.py          composition root: builds every flow once; installed as `bot.uno`
shared.py       shared: bot, database, channel locks, server settings, public posting
live.py         a running game's saved state (engine Game, names, log, timeouts, deadline)
running.py      the owner of each running game (above); saving.py: the per-change transaction
moves.py        a move (click or command) -> a plan committed -> the player's answer
autoplay.py     what the timer plays for an absent player, what a computer chooses
show_hand.py        a player's private hand;  hand_view.py: what a hand message shows
live_hands.py   a game's live hands, edited as their view changes; hand_tokens.py: tokens
results.py      a change in public: log lines and round results;  pings.py: turn reminders
game_table.py   a game's table kept current (table_updater.py: what all tables share)
table_view.py   what a table shows;  table_posts.py: `/uno table`
public_posts.py the outbox's poster: results, champions posted until Discord takes them, once
lobby.py        new lobby, join/leave/kick/computers, Start, End, lobby expiry
dealing.py      the test hooks that fix a deal (UNO_TEST_SEED, UNO_TEST_DECKS)
lobby_rules.py  a lobby's rules (its panel and `/uno setrule`); config_panel.py: the selects
lobby_view.py   the lobby message;  rematch.py: Rematch on a finished match
resume.py       running games loaded again at start-up;  turn_clock.py: turn deadlines
round_log.py    the table's Log button: the round's whole log, privately
records.py      /uno export, /uno verify and the results' Game record button (docs/records.md)
record_work.py  records built and verified in a process of their own;  cooldowns.py: member waits
boards.py       public leaderboards, refreshed in place;  seasons.py: rating seasons' ends
replay_posts.py a round's replay posted once in a channel for a while (later asks pointed to it)
answer_in_time.py     answers within Discord's 3 s (defer when slow), through discord.py's API
pictures.py     card pictures rendered off the loop and attached; card_emojis.py: emoji upload
drawing_thread.py     the threads that draw the pictures, a stuck one replaced
workers.py      a worker process with a thread as fallback; thinking.py: computers think there
clock.py        delayed jobs by key (a game's clock, lobby expiry); inputs.py: typed card names
"""

from __future__ import annotations

from typing import Any

from cogs.uno.commands import UnoCog


async def setup(bot: Any) -> None:
    await bot.add_cog(UnoCog(bot))
