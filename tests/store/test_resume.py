"""The store with the real engine: a restarted bot resumes exactly the game it saved."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.engine import Game, Play, RuleSet, events, parse_action
from bot.engine.actions import NEXT_ROUND, Action
from bot.engine.snapshot import FORMAT_VERSION
from bot.store import Database, NewAction
from tests.store.conftest import CHANNEL, GUILD, Backend

ALICE, BOB, ROBOT = 21, 22, -1


def next_move(game: Game) -> tuple[int, Action] | None:
    """A quick, deterministic player: play the first playable card, else the timeout default."""
    player = game.current_player
    if player is None:
        return None if game.outcome else (game.players[0], NEXT_ROUND)
    legal = game.legal_actions(player)
    play = next((a for a in legal if isinstance(a, Play)), None)
    action = play or game.default_action(player)
    assert action is not None
    return player, action


async def open_and_start(db: Database, rules: RuleSet) -> tuple[int, Game]:
    async with db.write() as unit:
        lobby = await unit.games.open_lobby(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="Alice", rules=rules
        )
        await unit.games.seat(lobby.id, BOB, "Bob")
        await unit.games.seat(lobby.id, ROBOT, "Robot", is_bot=True, bot_level="easy")
        seats = (await unit.games.get(lobby.id)).seats
        game = Game.new([s.user_id for s in seats], lobby.rules, seed=7)
        await unit.games.start(lobby.id, state=game.to_dict(), version=game.version)
    return lobby.id, game


async def play(db: Database, game_id: int, game: Game, moves: int) -> None:
    """Apply and save `moves` actions the way a cog does: one unit of work per click."""
    for _ in range(moves):
        move = next_move(game)
        if move is None:
            return
        player, action = move
        before = game.version
        happened = game.apply(player, action)
        async with db.write() as unit:
            await unit.games.save_action(
                game_id,
                expected_version=before,
                state=game.to_dict(),
                actions=NewAction(game.version, action.code, player),
            )
            counts = Counter(e.player for e in happened if isinstance(e, events.CardPlayed))
            await unit.stats.add_counters(
                game_id, {p: {"cards_played": n} for p, n in counts.items()}
            )
            for event in happened:
                if isinstance(event, events.RoundEnded):
                    outcome = event.outcome
                    await unit.games.finish_round(
                        game_id,
                        outcome.round_number,
                        winner_id=outcome.winner,
                        points=outcome.points,
                    )
                if isinstance(event, events.MatchEnded):
                    winners = event.outcome.winners
                    await unit.games.finish(game_id, winner_id=winners[0] if winners else None)


@pytest.mark.parametrize(
    ("rules", "moves"),
    [
        (RuleSet(target=1_000_000), 25),
        (RuleSet.preset("no_mercy"), 12),  # its one round lasts 30 moves with this deal
        (RuleSet.preset("flip"), 25),  # UNO Flip: on the dark side since move 19 of this deal
    ],
    ids=["official", "no_mercy", "flip"],
)
async def test_resume_of_a_saved_game_gives_an_engine_state_equal_to_the_one_saved(
    backend: Backend, rules: RuleSet, moves: int
) -> None:
    """No Mercy's 73 faces (Flip's 136) make masks wider than 64 bits: they must still save and
    load; a Flip game resumes on the side in play with its round's pairing."""
    db = backend.database()
    await db.migrate()
    game_id, game = await open_and_start(db, rules)
    await play(db, game_id, game, moves)
    await db.close()  # the bot restarts

    db = backend.database()
    try:
        async with db.read() as unit:
            [saved] = await unit.games.running_games()
        resumed = Game.from_dict(saved.state)
        assert resumed == game
        assert (resumed.dark, resumed.flip_pairs) == (game.dark, game.flip_pairs)
        assert saved.version == resumed.version == game.version
        # ...and it plays on from there exactly like the game that never stopped.
        await play(db, game_id, resumed, 10)
        for _ in range(10):
            move = next_move(game)
            assert move is not None
            game.apply(*move)
        async with db.read() as unit:
            assert Game.from_dict((await unit.games.load(game_id)).state) == resumed == game
    finally:
        await db.close()


async def test_the_action_log_replays_to_the_saved_state(db: Database) -> None:
    game_id, game = await open_and_start(db, RuleSet(target=60))
    await play(db, game_id, game, 2_000)
    async with db.read() as unit:
        saved = await unit.games.load(game_id)
        log = await unit.history.actions(game_id)
        rounds = await unit.history.rounds(game_id)
        alice = await unit.stats.player(GUILD, ALICE)
        board = await unit.stats.leaderboard(GUILD)
    assert game.outcome is not None and saved.game.status == "finished"

    start, *moves = log
    assert start.action == "start" and start.detail is not None
    replayed = Game.from_dict(dict(start.detail["state"]))
    for entry in moves:
        assert entry.actor_id is not None
        replayed.apply(entry.actor_id, parse_action(entry.action))
        assert replayed.version == entry.version
    assert replayed == game == Game.from_dict(saved.state)

    # The totals are the engine's: each round once, computer players nowhere.
    assert [r.round_number for r in rounds] == list(range(1, game.round_number + 1))
    assert alice is not None and alice.points == game.totals[ALICE]
    assert alice.games_played == 1 and alice.rounds_played == len(rounds)
    assert {entry.user_id for entry in board.entries} == {ALICE, BOB}


async def test_a_game_saved_in_the_old_snapshot_format_resumes_after_the_upgrade(
    backend: Backend,
) -> None:
    """A running game stored by the format-1 engine (the generator's whole state in its
    snapshot) loads, plays on and is saved again in the new format."""
    import json
    from pathlib import Path

    data = Path(__file__).resolve().parents[1] / "engine" / "snapshots" / "snapshot_format1.json"
    old = json.loads(data.read_text())
    db = backend.database()
    await db.migrate()
    try:
        async with db.write() as unit:
            lobby = await unit.games.open_lobby(
                guild_id=GUILD, channel_id=CHANNEL, host_id=101, host_name="A", rules=RuleSet()
            )
            for player in old["players"][1:]:
                await unit.games.seat(lobby.id, player, f"P{player}")
            await unit.games.start(lobby.id, state=old, version=old["version"])
        async with db.read() as unit:
            [saved] = await unit.games.running_games()
        assert saved.state["format"] == 1
        resumed = Game.from_dict(saved.state)
        await play(db, lobby.id, resumed, 30)
        async with db.read() as unit:
            stored = (await unit.games.load(lobby.id)).state
        assert stored["format"] == FORMAT_VERSION and "rng" not in stored
        assert Game.from_dict(stored) == resumed and resumed.version > old["version"]
    finally:
        await db.close()
