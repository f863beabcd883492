"""Interaction latency under load: the real bot process against the emulator, N games at once.

Each game is played in its own channel by two scripted users. With `--think 0` they click as fast
as the answers come: a saturation test (every game always has a click in flight), whose latency
is queueing and whose useful figure is the bot's throughput. With `--think T` each player notices
the game has started, and then makes each move, after a random 0.5T-1.5T seconds (T=2: faster
than people play, who take several seconds a turn). The bot runs on one core and the emulator with
the users on the other (`--no-pin` to let them share both), and the harness's own collector is
paused while the games run, so that neither the load generator's work nor its pauses count as
the bot's latency.

Prints, per run: p50/p99/max from the emulator dispatching an interaction to the bot's answer,
errors (failed interactions and Discord-rule violations), table edits (and re-posts, through the
channel or a click's token), the bot's CPU time per
interaction (table edits included; its worker processes' share, computer players and replays,
printed apart), the card pictures uploaded (bytes per interaction, and per
table and hand picture), and its resident memory before the games, with them open, and after
they were played. Asserts nothing. `--images on off` runs each configuration with the server's
card pictures on, then off (text only), one after the other, and then prints the runs side by side
(CPU per interaction, picture bytes per interaction, identical uploads, p50/p99) with the
ratio of CPU per interaction on/off; `--images on off on off` interleaves them (A B A B).
Identical uploads: files an edit uploaded whose bytes the message already showed (the
emulator's count). `--bot-root DIR` plays another checkout's bot with this harness and emulator:

    .venv/bin/python benchmarks/interaction_latency.py --games 10 100 --think 0 2 3
    .venv/bin/python benchmarks/interaction_latency.py --games 100 --think 2 --images on off on off
    .venv/bin/python benchmarks/interaction_latency.py --games 20 --think 2 --images on off \
        --bot-root /tmp/older-checkout

`--processes 2 --database-url URL` runs two processes of one token (a shard each, sharing a
PostgreSQL database, which is emptied before and after the run) with the games split between
their servers; CPU and memory are their sums, so per game they compare with one process:

    .venv/bin/python benchmarks/interaction_latency.py --games 1000 --think 3 --images off \
        --processes 2 --database-url postgresql+asyncpg://uno:uno@127.0.0.1/uno

Side by side: `--baseline REV` (a git revision, checked out into a temporary worktree, or the
path of another checkout) runs that bot and this one alternately (A B A B, `--repeat` pairs per
configuration, each run in a fresh process, same emulator and load) and prints, per
configuration, the ratio this/baseline of interactions per second and of CPU per interaction.
When the bot no longer uses a whole core (the emulator and its scripted users, one Python
process on the other core, are then the bottleneck), interactions per second measure the load
generator, and the bot's capacity (interactions per CPU-second of the bot) is the figure:

    .venv/bin/python benchmarks/interaction_latency.py --games 100 --think 0 --baseline ec98719

Over 500 lines on purpose: a benchmark that starts the bot, the emulator and the players
and prints every figure is easier to rerun as one script.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import gc
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.baseline import baseline_checkout  # noqa: E402
from testing.bot_env import bot_env  # noqa: E402
from testing.fakediscord import MANAGE_GUILD, FakeDiscord, Message  # noqa: E402
from testing.fakediscord.driver import InteractionFailed  # noqa: E402
from testing.fakediscord.global_limit import GLOBAL_PER_SECOND, interaction_token  # noqa: E402
from testing.players import HAND_ID, actions, answer, open_game, take_turn  # noqa: E402
from testing.postgres_schema import reset_role_schema  # noqa: E402

TURN_ACTIONS = ("draw", "keep", "pass", "accept", "challenge")
#: The bot's test-only hooks (tests/e2e/conftest.py sets them): none is meant here.
TEST_HOOKS = ("UNO_TEST_SEED", "UNO_TEST_DECKS", "UNO_TEST_TIMER_SCALE")
#: Seconds after the games for the last table edits to land (pacing stretches them to 10 s).
SETTLE = 11.0


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def my_turn(hand: Message) -> bool:
    return any(a.startswith(("play:", "color:")) or a in TURN_ACTIONS for a in actions(hand))


async def play(
    emu: FakeDiscord,
    table: Message,
    users: list[Any],
    limit: int,
    think: float,
    moved: list[float] | None = None,
) -> int:
    """Click through one game until `limit` actions or the round's end; actions taken. The
    moment each move was answered (`time.monotonic`) is added to `moved`."""
    hand_button = next(c for c in table.custom_ids if HAND_ID.match(c))

    async def first_look(user: Any) -> Message:
        if think:  # players notice the game has started at different moments
            await asyncio.sleep(random.uniform(0, 2 * think))
        return await answer(await emu.click(user, table, hand_button))

    try:
        looks = await asyncio.gather(*(first_look(u) for u in users))
        hands = {u.id: hand for u, hand in zip(users, looks, strict=True)}
        current = users[0].id if my_turn(hands[users[0].id]) else users[1].id
        return await _play_turns(emu, hands, users, current, limit, think, moved)
    except InteractionFailed:  # counted among the run's errors (failed interactions)
        return 0


async def _play_turns(
    emu: FakeDiscord,
    hands: dict[int, Message],
    users: list[Any],
    current: int,
    limit: int,
    think: float,
    moved: list[float] | None = None,
) -> int:
    by_id = {u.id: u for u in users}
    for done in range(limit):
        hand = hands[current]
        if not my_turn(hand):
            current = next(u for u in by_id if u != current)
            refresh = actions(hands[current])["refresh"]
            hand = await answer(await emu.click(by_id[current], hands[current], refresh))
            if not my_turn(hand) or "next" in actions(hand):
                return done
        if think:
            await asyncio.sleep(random.uniform(0.5 * think, 1.5 * think))
            if not my_turn(hand):  # edited meanwhile (the turn timer played it): look again
                continue
        hand = await take_turn(emu, by_id[current], hand)
        if moved is not None:
            moved.append(time.monotonic())
        hands[current] = hand
        if not actions(hand) or "next" in actions(hand):
            return done + 1
    return limit


def family(pid: int) -> list[int]:
    """`pid` and its descendants (the bot's picture process), for pinning them all."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found += family(int(child))
    return found


def workers_of(pids: list[int]) -> list[int]:
    """The bots' worker processes (pictures, replays, computer players), their own pids left out."""
    return [w for pid in pids for w in family(pid) if w != pid]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def uploads(emu: FakeDiscord, after: set[int]) -> dict[str, list[int]]:
    """Sizes of the files uploaded since `after` (the attachment ids then), by file name."""
    sizes: dict[str, list[int]] = {}
    for aid, blob in emu.attachment_blobs.items():
        if aid not in after:
            sizes.setdefault(emu.attachment_names.get(aid, "?"), []).append(len(blob))
    return sizes


def staleness(moves: list[float], edits: list[float], end: float) -> tuple[list[float], int]:
    """Per move, seconds until the next edit of its table landed (the bot renders the latest
    state when it edits, so that edit shows the move); and how many moves no edit showed by
    `end` (counted as `end` minus the move)."""
    out, unshown = [], 0
    for t in moves:
        i = bisect.bisect_right(edits, t)
        if i < len(edits):
            out.append(edits[i] - t)
        else:
            out.append(end - t)
            unshown += 1
    return out, unshown


def table_updates(records: list[Any], games: dict[int, int]) -> dict[int, list[float]]:
    """Per channel, when its table was edited or posted anew (`time.monotonic`), on any route:
    the channel's, or a click's token (a request Discord took whose body is the table: it has
    the game's Show my hand button). `games`: game id -> its channel."""
    wall_to_mono = time.time() - time.monotonic()
    found = re.compile(r'"uno:(\d+):hand"')
    updates: dict[int, list[float]] = {}
    for r in records:
        if r.method not in ("PATCH", "POST") or r.status != 200 or r.json is None:
            continue
        for gid in set(found.findall(json.dumps(r.json))):
            channel = games.get(int(gid))
            if channel is not None:
                updates.setdefault(channel, []).append(r.time - wall_to_mono)
    return updates


def channel_requests(records: list[Any]) -> dict[str, int]:
    """The global-limited requests among `records`, by kind."""
    kinds: dict[str, int] = {}
    for r in records:
        if interaction_token(r.path) is not None:
            continue
        kind = r.method + " " + re.sub(r"/\d+", "/{id}", r.path)
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


async def run(
    games: int,
    limit: int,
    think: float,
    pin: bool,
    bot_root: Path = ROOT,
    images: bool = True,
    discord_limit: bool = True,
    request_budget: str | None = None,
    flood: float = 0.0,
    processes: int = 1,
    database_url: str | None = None,
    gate: bool = False,
) -> dict[str, Any]:
    emu = FakeDiscord()
    emu.global_limit.per_second = GLOBAL_PER_SECOND if discord_limit and not gate else None
    await emu.start()
    gate_process, gate_base = await start_gate(emu.api_base) if gate else (None, None)
    # One process: one server, its commands synced to it. Several: the token's processes run
    # one shard each (SHARD_COUNT, SHARD_IDS), a server on each shard, global commands.
    sharded = processes > 1
    guilds = [
        emu.add_guild(f"Bench {i}", shard=(i, processes) if sharded else None)
        for i in range(processes)
    ]
    tmp = Path(tempfile.mkdtemp(prefix="uno-bench-"))
    # INFO: the request summary each bot logs as it stops (its busiest second, its clock).
    extra = {"TABLE_EDIT_INTERVAL": "1.0", "LOG_LEVEL": "INFO"}
    if not sharded:
        extra["DEV_GUILD_ID"] = str(guilds[0].id)
    if database_url:
        await reset_role_schema(database_url, create=True)
        extra["DATABASE_URL"] = database_url
    env = bot_env(emu, tmp, **extra)
    if request_budget is not None:
        env["REQUEST_BUDGET"] = request_budget
    if gate_base is not None:
        env["DISCORD_API_BASE"] = f"{gate_base}/api/v10"
    # The bot's environment is this process's with the emulator's over it (bot_process): a
    # test hook set by the caller (every game dealt from one seed, say) would leak in.
    for hook in TEST_HOOKS:
        env.pop(hook, None)
        os.environ.pop(hook, None)
    shard_env = [
        env | ({"SHARD_COUNT": str(processes), "SHARD_IDS": str(i)} if sharded else {})
        for i in range(processes)
    ]
    bots = [emu.bot_process(env=e, cwd=str(bot_root)) for e in shard_env]
    await bots[0].start()
    try:
        await emu.wait_for_bot(timeout=60)
        await emu.wait_for_commands(None if sharded else guilds[0], timeout=60)
        for other in bots[1:]:
            await other.start()
        await emu.wait_for_bot(timeout=60, count=processes)
        pids = [b.pid for b in bots if b.pid is not None]
        assert len(pids) == processes
        if pin and len(os.sched_getaffinity(0)) >= 2:
            # The bot on one core, the emulator and the scripted users on another: otherwise
            # the load generator competes with the bot and its own delays count as latency.
            # Its picture process (started with the cog, before this) runs on the bot's core.
            # Several processes of the token share that core: the figure is CPU per game.
            for pid in pids:
                for member in family(pid):
                    os.sched_setaffinity(member, {0})
            os.sched_setaffinity(0, {1})
        if not images:
            for guild in guilds:
                admin = emu.add_user(f"admin-{guild.id}", guild, permissions=MANAGE_GUILD)
                where = emu.add_channel(guild, "admin")
                await emu.slash(admin, where, "uno-admin set", option="card_images", value="off")
        await asyncio.sleep(0.5)
        rss_idle = sum(rss_kb(pid) for pid in pids)
        home = [guilds[n % processes] for n in range(games)]
        channels = [emu.add_channel(home[n], f"bench-{n}") for n in range(games)]
        players = [
            [emu.add_user(f"p{n}a", home[n]), emu.add_user(f"p{n}b", home[n])] for n in range(games)
        ]
        # Onlookers of the flood (`--flood`): ten a channel, each asking its table at random.
        watched = range(games if flood else 0)
        onlookers = [[emu.add_user(f"w{n}-{i}", home[n]) for i in range(10)] for n in watched]
        tables: list[Message] = []
        for start in range(0, games, 10):  # lobbies ten at a time: the play is what is measured
            batch = zip(channels[start : start + 10], players[start : start + 10], strict=True)
            tables += await asyncio.gather(*(open_game(emu, c, a, [b]) for c, (a, b) in batch))
        await asyncio.sleep(1.5)  # the first table edits settle
        rss_games = sum(rss_kb(pid) for pid in pids)
        first = len(emu.interaction_latencies)
        marks = emu.mark()
        games_of = {  # game id -> its channel, from its table's Show my hand button
            int(m[1]): int(channel)
            for table, channel in zip(tables, channels, strict=True)
            for c in table.custom_ids
            if (m := HAND_ID.match(c))
        }
        files_before = set(emu.attachment_blobs)
        identical_before = len(emu.identical_uploads)
        gl = emu.global_limit
        limit_before = (gl.limited, gl.exempt, gl.global_429s, gl.invalid)
        gl.peak = 0  # the busiest second while playing
        gate_before = await gate_counts(gate_base, reset_peak=True)
        requests_before = len(emu.requests)
        moved: list[list[float]] = [[] for _ in tables]
        ended = [0.0] * len(tables)

        async def game(n: int) -> int:
            done = await play(emu, tables[n], players[n], limit, think, moved[n])
            ended[n] = time.monotonic()
            return done

        # The emulator and the scripted users share this process: its own collector pauses
        # (hundreds of ms once it holds every message) would be counted as the bot's latency.
        gc.collect()
        gc.freeze()
        gc.disable()
        started = time.perf_counter()
        play_started = time.monotonic()
        workers_before = {w: cpu_seconds(w) for w in workers_of(pids)}
        bot_before = sum(cpu_seconds(pid) for pid in pids)
        harness_before = cpu_seconds(os.getpid())
        asks: list[asyncio.Task[Any]] = []

        async def flood_tables() -> None:
            """`flood` `/uno table` a second in the one server, at random channels, once every
            player had a first look at the table (a re-post deletes the message they click)."""
            await asyncio.sleep(2 * think + 2.0)
            while True:
                await asyncio.sleep(random.expovariate(flood))
                n = random.randrange(games)
                asks.append(
                    asyncio.create_task(
                        emu.slash(random.choice(onlookers[n]), channels[n], "uno table")
                    )
                )

        flooding = asyncio.create_task(flood_tables()) if flood else None
        try:
            played = await asyncio.gather(*(game(n) for n in range(len(tables))))
        finally:
            if flooding is not None:
                flooding.cancel()
            gc.enable()
            gc.unfreeze()
        await asyncio.gather(*asks, return_exceptions=True)
        elapsed = time.perf_counter() - started
        bot_cpu = sum(cpu_seconds(pid) for pid in pids) - bot_before
        workers_cpu = sum(cpu_seconds(w) - workers_before.get(w, 0.0) for w in workers_of(pids))
        cpu = bot_cpu + workers_cpu
        harness = cpu_seconds(os.getpid()) - harness_before
        play_requests = emu.requests[requests_before:]
        limited = gl.limited - limit_before[0]
        exempt_requests = gl.exempt - limit_before[1]
        game_minutes = sum(e - play_started for e in ended) / 60
        await asyncio.sleep(SETTLE)  # the last tables land (pacing stretches to 10 s)
        settled = time.monotonic()
        stale: list[float] = []
        unshown = 0
        updates = table_updates(emu.requests[requests_before:], games_of)
        for channel, moves in zip(channels, moved, strict=True):
            edit_times = sorted(updates.get(int(channel), []))
            ages, missing = staleness(moves, edit_times, settled)
            stale += ages
            unshown += missing
        rss_after = sum(rss_kb(pid) for pid in pids)
        gate_after = await gate_counts(gate_base)
        # Their request summaries (the busiest second by each one's clock) come as they stop:
        # a shutdown with tables still owed takes up to its grace, 8 s.
        own = []
        for bot in bots:
            await bot.stop(timeout=20)
            own += re.findall(r"busiest second (\d+) by this process's clock", bot.output)[-1:]
        latencies = [x * 1000 for x in emu.interaction_latencies[first:]]
        # After the opening (every player's first look, within 2 x think s of the start, and
        # 3 s more): the steady state, without the burst of every game starting together.
        opened = play_started + 2 * think + 3.0
        steady = [
            x * 1000
            for x, at in zip(
                emu.interaction_latencies[first:],
                emu.interaction_answer_times[first:],
                strict=True,
            )
            if at >= opened
        ]
        # Answers by 10-s slice of the play: whether a tail is spread out (a queue) or comes
        # in a few moments (the bot's loop held up).
        slices: dict[int, list[float]] = {}
        for x, at in zip(
            emu.interaction_latencies[first:], emu.interaction_answer_times[first:], strict=True
        ):
            slices.setdefault(int((at - play_started) // 10), []).append(x * 1000)
        edits = sum(len(v) for v in updates.values())
        errors = len(emu.failed_interactions[marks[2] :]) + len(emu.violations[marks[0] :])
        sent = uploads(emu, files_before)
        tables_sent, hands_sent = sent.get("table.png", []), sent.get("hand.png", [])
        return {
            "images": images,
            "image_bytes_per_interaction": sum(map(sum, sent.values())) / max(1, len(latencies)),
            # files an edit uploaded that the message already showed, byte for byte
            "identical_uploads": len(emu.identical_uploads) - identical_before,
            # pictures uploaded, and how many of them differ: the rest were drawn before (the
            # bot's cache of encoded pictures answers those without drawing)
            "pictures": sum(len(v) for v in sent.values()),
            "distinct_pictures": len(
                {emu.attachment_blobs[a] for a in emu.attachment_blobs if a not in files_before}
            ),
            "table_pictures": len(tables_sent),
            "table_kb": statistics.mean(tables_sent) / 1024 if tables_sent else 0.0,
            "table_kb_max": max(tables_sent, default=0) / 1024,
            "hand_pictures": len(hands_sent),
            "hand_kb": statistics.mean(hands_sent) / 1024 if hands_sent else 0.0,
            "hand_kb_max": max(hands_sent, default=0) / 1024,
            "games": games,
            "processes": processes,
            "database": "postgresql" if database_url else "sqlite",
            # a game's cost at this pace: bot CPU per minute of a game in play, and how many
            # such games one core carries
            "cpu_ms_per_game_minute": 1000 * cpu / max(1e-9, game_minutes),
            "games_per_core": 60 * game_minutes / max(1e-9, cpu),
            "table_asks": len(asks),
            "actions": sum(played),
            "interactions": len(latencies),
            "seconds": elapsed,
            "cpu_ms_per_interaction": 1000 * cpu / max(1, len(latencies)),
            # of which its worker processes (computer players, replays), the rest its own
            "worker_cpu_ms_per_interaction": 1000 * workers_cpu / max(1, len(latencies)),
            "cpu_share": cpu / elapsed,
            "harness_share": harness / elapsed,
            "p50": statistics.median(latencies) if latencies else float("nan"),
            "p99": pct(latencies, 0.99),
            "steady_p99": pct(steady, 0.99),
            "slices": [
                (10 * k, len(v), statistics.median(v), pct(v, 0.99), max(v))
                for k, v in sorted(slices.items())
            ],
            "steady_interactions": len(steady),
            "max": max(latencies, default=float("nan")),
            "errors": errors,
            "table_edits": edits,
            "discord_limit": discord_limit,
            "request_budget": request_budget,
            "global_429s": gl.global_429s - limit_before[2],
            "global_429s_all": gl.global_429s,
            "invalid": gl.invalid - limit_before[3],
            "invalid_all": gl.invalid,
            "limited": limited,
            "exempt": exempt_requests,
            "limited_per_s": limited / elapsed,
            "busiest_second": gl.peak,
            # the global limit enforced apart (`--discord-limit gate`): its own counts
            "gate": None
            if gate_after is None or gate_before is None
            else {k: gate_after[k] - (0 if k == "peak" else gate_before[k]) for k in gate_after},
            # the same, by the bot's clock as its requests started (None: an older bot)
            "busiest_second_sent": "+".join(own) if own else None,
            "limited_per_game_minute": limited / max(1e-9, game_minutes),
            "mean_active_games": game_minutes * 60 / elapsed,
            "exempt_per_game_minute": exempt_requests / max(1e-9, game_minutes),
            "channel_kinds": channel_requests(play_requests),
            "stale_p50": statistics.median(stale) if stale else float("nan"),
            "stale_p99": pct(stale, 0.99),
            "stale_max": max(stale, default=float("nan")),
            "stale_unshown": unshown,
            "rss_idle_mb": rss_idle / 1024,
            "rss_games_mb": rss_games / 1024,
            "rss_after_mb": rss_after / 1024,
            "kb_per_game": (rss_games - rss_idle) / games,
            "kb_per_game_after_play": (rss_after - rss_idle) / games,
        }
    finally:
        for bot in bots:
            await bot.stop()
        await emu.stop()
        if database_url:
            await reset_role_schema(database_url, create=False)
        if gate_process is not None:
            gate_process.kill()
            await gate_process.wait()


async def start_gate(upstream: str) -> tuple[asyncio.subprocess.Process, str]:
    """testing/fakediscord/global_gate.py in a process of its own, in front of `upstream`:
    the process and its base URL."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "testing.fakediscord.global_gate",
        "--upstream",
        upstream,
        cwd=str(ROOT),
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
    port = int(line.rsplit(" ", 1)[1])
    return process, f"http://127.0.0.1:{port}"


async def gate_counts(base: str | None, *, reset_peak: bool = False) -> dict[str, int] | None:
    """The gate's counts (None without a gate); `reset_peak`: its busiest second anew."""
    if base is None:
        return None
    query = "?reset_peak=1" if reset_peak else ""
    async with aiohttp.ClientSession() as session, session.get(f"{base}/_gate{query}") as got:
        counts: dict[str, int] = await got.json()
        return counts


def child(
    n: int, think: float, args: argparse.Namespace, root: Path, images: str = "on"
) -> dict[str, Any]:
    """One run in a fresh process (the harness's leftovers would skew the next run)."""
    command = [sys.executable, __file__, "--games", str(n), "--think", str(think)]
    command += ["--images", images, "--discord-limit", args.discord_limit]
    command += ["--flood", str(args.flood), "--processes", str(args.processes)]
    if args.database_url:
        command += ["--database-url", args.database_url]
    if args.request_budget is not None:
        command += ["--request-budget", args.request_budget]
    command += ["--actions", str(args.actions), "--bot-root", str(root), "--json"]
    command += ["--no-pin"] if args.no_pin else []
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"run failed: {' '.join(command)}\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def throughput(r: dict[str, Any]) -> float:
    return float(r["interactions"]) / float(r["seconds"])


def compare(args: argparse.Namespace, runs: list[tuple[int, float]]) -> None:
    """This bot and the baseline alternately, then the ratios of their medians."""
    with baseline_checkout(args.baseline) as baseline:
        compare_with(args, runs, {"this": ROOT, "baseline": baseline})


def compare_with(
    args: argparse.Namespace, runs: list[tuple[int, float]], sides: dict[str, Path]
) -> None:
    for n, think in runs:
        results: dict[str, list[dict[str, Any]]] = {"this": [], "baseline": []}
        for pair in range(args.repeat):
            order = ["this", "baseline"] if pair % 2 == 0 else ["baseline", "this"]
            for side in order:
                r = child(n, think, args, sides[side], args.images[0])
                results[side].append(r)
                report(r, think, label=side)
        med = {
            side: {
                "rate": statistics.median(throughput(r) for r in rs),
                "cpu": statistics.median(r["cpu_ms_per_interaction"] for r in rs),
                "p99": statistics.median(r["p99"] for r in rs),
                "errors": sum(r["errors"] for r in rs),
            }
            for side, rs in results.items()
        }
        this, base = med["this"], med["baseline"]
        print(
            f"== {n} games, think {think}s, {args.repeat} pairs: interactions/s "
            f"{this['rate']:.0f} vs {base['rate']:.0f} (ratio {this['rate'] / base['rate']:.2f}x)"
            f" | CPU ms/interaction {this['cpu']:.2f} vs {base['cpu']:.2f} "
            f"(ratio {this['cpu'] / base['cpu']:.2f}x; capacity, interactions per bot CPU-second, "
            f"{1000 / this['cpu']:.0f} vs {1000 / base['cpu']:.0f}: "
            f"{base['cpu'] / this['cpu']:.2f}x) | p99 {this['p99']:.1f} vs "
            f"{base['p99']:.1f} ms | errors {this['errors']} vs {base['errors']}",
            flush=True,
        )


def report(r: dict[str, Any], think: float, label: str = "") -> None:
    prefix = f"[{label}] " if label else ""
    prefix += "[images on] " if r.get("images", True) else "[images off] "
    print(
        f"{prefix}{r['games']:>4} games, think {think}s: {r['actions']} actions, "
        f"{r['interactions']} interactions in {r['seconds']:.1f}s | latency "
        f"p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms, max {r['max']:.1f} ms (after the "
        f"opening burst: p99 {r.get('steady_p99', float('nan')):.1f} ms of "
        f"{r.get('steady_interactions', '?')}) | "
        f"errors {r['errors']} | table edits {r['table_edits']} | identical uploads "
        f"{r.get('identical_uploads', '?')}"
    )
    print(
        f"      bot CPU {r['cpu_ms_per_interaction']:.2f} ms per interaction "
        f"(table edits included; {r.get('worker_cpu_ms_per_interaction', 0):.2f} of it in its "
        f"worker processes), {100 * r['cpu_share']:.0f}% of one core; the emulator and "
        f"its users {100 * r.get('harness_share', 0):.0f}% of theirs"
    )
    print(
        f"      {r.get('processes', 1)} bot process(es) of the token on {r.get('database', '?')}: "
        f"{r.get('cpu_ms_per_game_minute', float('nan')):.0f} ms of bot CPU per game-minute at "
        f"this pace, {r.get('games_per_core', float('nan')):.0f} such games per core"
    )
    print(
        f"      RSS idle {r['rss_idle_mb']:.1f} MB, with games {r['rss_games_mb']:.1f} MB "
        f"({r['kb_per_game']:.0f} KB/game), after play {r['rss_after_mb']:.1f} MB "
        f"({r['kb_per_game_after_play']:.0f} KB/game)",
        flush=True,
    )
    print(
        f"      images {r['image_bytes_per_interaction'] / 1024:.1f} KB per interaction: "
        f"{r['table_pictures']} table pictures (mean {r['table_kb']:.1f} KB, max "
        f"{r['table_kb_max']:.1f}), {r['hand_pictures']} hand pictures (mean "
        f"{r['hand_kb']:.1f} KB, max {r['hand_kb_max']:.1f})",
        flush=True,
    )
    if "limited" not in r:
        return
    kinds = ", ".join(
        f"{k} {v}" for k, v in sorted(r["channel_kinds"].items(), key=lambda kv: -kv[1])[:6]
    )
    print(
        f"      Discord's global limit {'on (50/s)' if r['discord_limit'] else 'off'}, "
        f"the bot's REQUEST_BUDGET {r['request_budget'] or 'its default'}: "
        f"{r['global_429s']} global 429s while playing ({r['global_429s_all']} in all), "
        f"{r['invalid']} invalid requests ({r['invalid_all']} in all) | global-limited "
        f"{r['limited']} ({r['limited_per_s']:.1f}/s, {r['limited_per_game_minute']:.1f} per "
        f"active game per minute, {r.get('busiest_second', '?')} in the busiest second at "
        f"Discord's end, {r.get('busiest_second_sent') or '?'} as the bot(s) sent them), "
        f"exempt {r['exempt']} "
        f"({r['exempt_per_game_minute']:.1f} per game-minute); games active at once: "
        f"{r['games']} at first, {r['mean_active_games']:.0f} on average"
        + (f"; flood: {r['table_asks']} /uno table" if r.get("table_asks") else ""),
        flush=True,
    )
    if r.get("gate"):
        g = r["gate"]
        print(
            f"      the global limit enforced apart (a gate in its own process): "
            f"{g['global_429s']} global 429s, {g['invalid']} invalid requests, "
            f"{g['peak']} in the busiest second as they arrived there "
            f"(the emulator, unlimited behind it: {r.get('busiest_second', '?')})",
            flush=True,
        )
    print(
        f"      tables: a move shown after p50 {r['stale_p50']:.2f} s, p99 "
        f"{r['stale_p99']:.2f} s, max {r['stale_max']:.2f} s; {r['stale_unshown']} moves never "
        f"shown | channel requests: {kinds}",
        flush=True,
    )


def print_slices(r: dict[str, Any]) -> None:
    """The answers' latency by 10-s slice of the play (`--slices`)."""
    for start, n, p50, p99, worst in r.get("slices", []):
        print(
            f"      {start:>4}-{start + 10:<4}s {n:>6} answers: p50 {p50:7.1f} ms, p99 "
            f"{p99:7.1f} ms, max {worst:7.1f} ms"
        )


def side_by_side(results: list[dict[str, Any]], n: int, think: float) -> None:
    """The runs of one configuration in columns, in the order they ran (`--images on off on
    off`: interleaved), then the ratio of the medians of CPU per interaction, pictures on/off."""
    if len(results) < 2:
        return
    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("pictures", lambda r: "on" if r["images"] else "off"),
        ("interactions", lambda r: f"{r['interactions']}"),
        ("CPU ms/interaction", lambda r: f"{r['cpu_ms_per_interaction']:.2f}"),
        ("  of it in workers", lambda r: f"{r.get('worker_cpu_ms_per_interaction', 0):.2f}"),
        ("picture KB/interaction", lambda r: f"{r['image_bytes_per_interaction'] / 1024:.2f}"),
        ("pictures uploaded", lambda r: f"{r.get('pictures', '?')}"),
        ("  of them distinct", lambda r: f"{r.get('distinct_pictures', '?')}"),
        ("identical uploads", lambda r: f"{r.get('identical_uploads', '?')}"),
        ("p50 ms", lambda r: f"{r['p50']:.1f}"),
        ("p99 ms", lambda r: f"{r['p99']:.1f}"),
        ("errors", lambda r: f"{r['errors']}"),
    ]
    print(f"== {n} games, think {think}s, runs in the order they ran:")
    for label, cell in rows:
        print(f"   {label:<24}" + "".join(f"{cell(r):>10}" for r in results))
    cpu = {
        images: statistics.median(
            r["cpu_ms_per_interaction"] for r in results if r["images"] == images
        )
        for images in {r["images"] for r in results}
    }
    if len(cpu) == 2:
        print(
            f"   CPU per interaction, pictures on/off (medians): {cpu[True]:.2f} / "
            f"{cpu[False]:.2f} ms = {cpu[True] / cpu[False]:.2f}x",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--actions", type=int, default=40, help="actions per game at most")
    parser.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[0.0, 2.0],
        help="mean seconds a player waits before each move (one run per value)",
    )
    parser.add_argument(
        "--no-pin", action="store_true", help="let the bot and the load share both cores"
    )
    parser.add_argument(
        "--baseline", help="a git revision or checkout to run side by side with this one"
    )
    parser.add_argument("--repeat", type=int, default=2, help="A/B pairs per configuration")
    parser.add_argument(
        "--images",
        choices=("on", "off"),
        nargs="+",
        default=["on"],
        help="the server's card pictures setting (one run per value, in this order)",
    )
    parser.add_argument(
        "--discord-limit",
        choices=("on", "off", "gate"),
        default="on",
        help="the emulator enforces Discord's global limit (50 requests/s per token); gate: "
        "a process of its own in front of the emulator does (testing/fakediscord/global_gate.py: "
        "no stalls of the emulator's loop bunch the arrivals)",
    )
    parser.add_argument(
        "--request-budget", help="the bot's REQUEST_BUDGET (default: its own, 40; 0: none)"
    )
    parser.add_argument(
        "--bot-root",
        type=Path,
        default=ROOT,
        help="the checkout whose bot plays (default: this one; e.g. a worktree of an older "
        "commit, measured with this harness and emulator)",
    )
    parser.add_argument(
        "--flood",
        type=float,
        default=0.0,
        help="`/uno table` asked per second while the games play, in random channels of the "
        "one server, by onlookers (ten a channel; each may re-post once in 10 s)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="bot processes of the one token (2 or more: one shard each, a server per shard; "
        "needs --database-url, the database they share)",
    )
    parser.add_argument(
        "--database-url",
        help="the bot's DATABASE_URL (a PostgreSQL role's schema, emptied before and after "
        "the run; default: a fresh SQLite file)",
    )
    parser.add_argument(
        "--slices", action="store_true", help="print the answers' latency by 10-s slice of play"
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.processes > 1 and not args.database_url:
        parser.error("--processes 2 or more needs --database-url (a PostgreSQL they share)")
    runs = [(n, think) for n in args.games for think in args.think]
    if args.baseline:
        compare(args, runs)
        return
    if len(runs) * len(args.images) > 1:  # each run in a fresh process (leftovers would skew)
        for n, think in runs:
            results = []
            for images in args.images:
                results.append(child(n, think, args, args.bot_root, images))
                report(results[-1], think)
            side_by_side(results, n, think)
        return
    ((n, think),) = runs
    images = args.images[0] == "on"
    r = asyncio.run(
        run(
            n,
            args.actions,
            think,
            not args.no_pin,
            args.bot_root,
            images,
            args.discord_limit != "off",
            args.request_budget,
            args.flood,
            args.processes,
            args.database_url,
            args.discord_limit == "gate",
        )
    )
    if args.json:
        print(json.dumps(r))
    else:
        report(r, think)
        if args.slices:
            print_slices(r)


if __name__ == "__main__":
    main()
