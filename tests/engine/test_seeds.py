"""Provable deals (seeds.py, "uno-shuffle-v1"): the commitment is SHA-256 of the seed, the same
seed deals the same cards, each reshuffle has its own label, and a known-answer vector that
other implementations can check theirs against (docs/records.md)."""

from __future__ import annotations

import hashlib
import random

from bot.engine import Game, RuleSet, seeds, state
from bot.engine import events as E
from bot.engine.faces import CODES, deck_bytes, deck_faces

# The real sources of secret seeds, taken before tests/conftest.py stands in for them in each test
# (with a generator seeded by the test's id, so that every run deals the same cards).
OS_ROUND_SEED = seeds.new_round_seed
OS_MATCH_SEED = state.new_seed

#: The known-answer vector: seed = bytes 0x00, 0x01, ..., 0x1f.
VECTOR_SEED = bytes(range(32))
VECTOR_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
VECTOR_DEAL = (
    "R7 Y4 W4 B8 B0 Y3 R3 G3 Y6 G6 G5 R6 G7 RR Y4 RD Y3 W B1 G9 R9 B3 R2 G2 W GD R8 G2 B9 R0 "
    "Y5 R4 G4 GR Y6 Y9 G7 BD RD BS Y1 Y0 R5 B6 Y1 G4 R3 GS W4 B5 G1 YD R6 GS B3 YS W YS Y9 G8 "
    "Y2 W4 B1 RR YR G6 R8 G3 G9 BS Y8 BR BD B9 R5 G1 G8 G5 B4 B2 B6 Y7 GD YD B2 R2 B8 B5 R7 W "
    "G0 R1 R4 B7 RS Y5 B4 YR Y8 W4 Y2 Y7 RS BR GR R9 R1 B7"
)
VECTOR_RESHUFFLE_1 = [3, 7, 5, 8, 0, 1, 6, 4, 9, 2]  # list(range(10)), shuffle "reshuffle-1"


def test_secret_seeds_come_from_the_operating_system() -> None:
    assert OS_ROUND_SEED.__module__ == "bot.engine.seeds"  # (not the tests' stand-in)
    round_seeds = {OS_ROUND_SEED() for _ in range(20)}
    assert len(round_seeds) == 20 and {len(seed) for seed in round_seeds} == {seeds.SEED_BYTES}
    match_seeds = {OS_MATCH_SEED() for _ in range(20)}
    assert len(match_seeds) == 20 and all(0 <= m < 2**state.SEED_BITS for m in match_seeds)


def test_the_commitment_is_sha256_of_the_seed_and_a_table_shows_its_first_16_digits() -> None:
    seed = seeds.new_round_seed()
    assert len(seed) == 32
    assert seeds.commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert seeds.shown_commitment(seed) == hashlib.sha256(seed).hexdigest()[:16]


def test_known_answer_vector() -> None:
    assert seeds.commitment(VECTOR_SEED) == VECTOR_COMMITMENT
    deck = deck_faces("classic108")
    seeds.shuffle_in_place(deck, VECTOR_SEED, 0)
    assert " ".join(CODES[f] for f in deck) == VECTOR_DEAL
    assert seeds.reference_shuffle(list(range(10)), VECTOR_SEED, 1) == VECTOR_RESHUFFLE_1
    assert seeds.first_seat(VECTOR_SEED, 4) == 1


def test_the_fast_shuffle_is_the_documented_one() -> None:
    rng = random.Random(5)
    for n in (0, 1, 2, 7, 108, 112, 256, 257, 300):
        for k in (0, 1, 2, 9):
            seed = rng.randbytes(32)
            items = [rng.randrange(1000) for _ in range(n)]
            fast = items[:]
            seeds.shuffle_in_place(fast, seed, k)
            assert fast == seeds.reference_shuffle(items, seed, k)


def test_the_deal_shortcut_is_the_documented_shuffle_of_every_deck() -> None:
    rng = random.Random(9)
    for kind in ("classic108", "swap112", "shuffle112"):
        ascending = deck_bytes(kind)
        assert ascending is not None and list(ascending) == deck_faces(kind)
        deck: list[object] = list(ascending)
        for k in (0, 1, 5):
            for _ in range(200):
                seed = rng.randbytes(32)
                expected = seeds.reference_shuffle(deck, seed, k)
                assert list(seeds.shuffled_ascending(ascending, seed, k)) == expected


def test_the_deal_shortcut_breaks_ties_of_the_keys_as_documented(monkeypatch) -> None:
    # Equal 40-bit keys come about once in 10^8 deals: a stream of three keys makes them common.
    rng = random.Random(10)

    def few_keys(seed: bytes, k: int, n: int) -> bytes:
        return b"".join(bytes([rng.randrange(256), rng.randrange(3)]) + bytes(6) for _ in range(n))

    monkeypatch.setattr(seeds, "shuffle_stream", few_keys)
    for n in (2, 9, 108, 256):
        items = bytes(sorted(rng.randrange(6) for _ in range(n)))
        state = rng.getstate()
        shortcut = list(seeds.shuffled_ascending(items, b"s", 0))
        rng.setstate(state)  # (the same stream for both)
        assert shortcut == seeds.reference_shuffle(list(items), b"s", 0)


def test_the_same_seed_deals_the_same_cards_and_reshuffles_differ_by_number() -> None:
    seed = seeds.new_round_seed()
    deals = []
    for _ in range(2):
        deck = deck_faces("classic108")
        seeds.shuffle_in_place(deck, seed, 0)
        deals.append(deck)
    assert deals[0] == deals[1]
    orders = {tuple(seeds.reference_shuffle(list(range(108)), seed, k)) for k in range(5)}
    assert len(orders) == 5
    assert seeds.shuffle_label(0) == b"deal" and seeds.shuffle_label(3) == b"reshuffle-3"


def test_a_game_deals_its_round_from_the_round_seed() -> None:
    game, events = Game.start([1, 2, 3], seed=None)
    assert game.secret_rounds and len(game.round_seed) == 32
    started = next(e for e in events if isinstance(e, E.RoundStarted))
    assert started.commitment == game.commitment == seeds.commitment(game.round_seed)
    # The deal, replayed from the seed alone: hands in seat order, then the starter. A Draw Two
    # turned as starter makes the first player draw two more (the seed is secret and random, so
    # any starter can come up: the check must hold for every one of them).
    deck = deck_faces(game.rules.deck)
    seeds.shuffle_in_place(deck, game.round_seed, 0)
    for i, p in enumerate(game.seats):
        drawn = [
            c.face for e in events if isinstance(e, E.CardsDrawn) and e.player == p for c in e.cards
        ]
        assert sorted(game.held[p].faces()) == sorted(deck[7 * i : 7 * i + 7] + drawn)


def test_rounds_have_independent_seeds_and_a_fixed_match_seed_derives_them() -> None:
    a = Game.new([1, 2], seed=77)
    b = Game.new([1, 2], seed=77)
    assert not a.secret_rounds and a.round_seed == b.round_seed
    assert a.round_seed == seeds.derived_round_seed(77, 1)
    assert Game.new([1, 2]).round_seed != Game.new([1, 2]).round_seed


def test_a_replay_with_preset_seeds_deals_the_same_match() -> None:
    rules = RuleSet(target=50)
    game = Game.new([1, 2, 3], rules)
    replay = Game.new([1, 2, 3], rules, dealer=game.dealer, round_seeds=[game.round_seed])
    assert replay.to_dict()["hands"] == game.to_dict()["hands"]
    assert replay.to_dict()["draw_pile"] == game.to_dict()["draw_pile"]


def test_the_round_seed_survives_a_snapshot_and_a_format_2_round_still_shuffles() -> None:
    game = Game.new([1, 2])
    again = Game.from_dict(game.to_dict())
    assert again.round_seed == game.round_seed and again.secret_rounds
    old = game.to_dict()
    old["format"] = 2
    for key in ("round_seed", "round_shuffles", "secret_rounds"):
        del old[key]
    legacy = Game.from_dict(old)
    assert legacy.round_seed == b"" and legacy.commitment is None
    items = list(range(50))
    legacy.shuffle(items)  # the former shuffle of the match seed
    assert sorted(items) == list(range(50))
