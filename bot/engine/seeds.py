"""Provable deals: each round's secret seed, its public commitment, and the shuffle it drives.

The algorithm, `uno-shuffle-v1` (docs/records.md spells it out for other implementations):

- A round seed is 32 bytes: `secrets.token_bytes(32)` at a table, fresh for every round.
- Its commitment is SHA-256 of those 32 bytes; a table shows the first 16 hex digits.
- The k-th shuffle of a round is labelled `deal` (k = 0, the deck before the hands are dealt)
  or `reshuffle-k` (k = 1, 2, ...: every later shuffle of that round, in order: a Wild Draw Four
  starter put back, the discard pile turned over, a Shuffle Hands card's pool).
- Its bytes: `stream = SHAKE-256(HMAC-SHA256(seed, label)).digest(8 * n)` for n items.
- Item i (0-based, in the order the list had before the shuffle) gets the key
  `r_i = int.from_bytes(stream[8i + 1 : 8i + 6], "little")` (40 bits); the shuffled list is the
  items sorted by `(r_i, i)`.
- The round's random first player (rule `starting_player = "random"`) is
  `int.from_bytes(HMAC-SHA256(seed, "first-player")[:8], "big") % seats`.

`shuffle_in_place` computes exactly that without running Python code per item (the key trick of
`state.GameState.shuffle`), `shuffled_ascending` the same for the deal's unshuffled deck with one
step less, and `reference_shuffle` is the plain version the tests hold them to.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct

#: The name and version of the shuffle; a record names it (docs/records.md).
ALGORITHM = "uno-shuffle-v1"
SEED_BYTES = 32
#: Hex digits of the commitment a table shows.
SHOWN_DIGITS = 16
#: The HMAC key that turns a test's integer seed into round seeds (never used at a real table).
_DERIVED = b"uno-derived-round-seed"
#: The HMAC key that picks a match's first dealer from its integer seed.
_FIRST_DEALER = b"uno-first-dealer"


class _KeyLayout(dict[int, tuple[struct.Struct, bytes, bytes, bytes]]):
    """`layout[n]` for shuffling n items: the struct of n little-endian doubles, the bytes that
    make each double's top two bytes those of a float in [1, 2), and the positions 0..n-1."""

    def __missing__(self, n: int) -> tuple[struct.Struct, bytes, bytes, bytes]:
        value = self[n] = (struct.Struct(f"<{n}d"), b"\xf0" * n, b"\x3f" * n, bytes(range(n)))
        return value


_KEY_LAYOUT = _KeyLayout()


def hmac_sha256(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256(key, message): the standard library's (a hand-written one on two SHA-256
    hashes was measured about 1 µs a round quicker, not worth owning a MAC)."""
    return hmac.digest(key, message, "sha256")


def new_round_seed() -> bytes:
    """A fresh secret round seed."""
    return secrets.token_bytes(SEED_BYTES)


def derived_round_seed(match_seed: int, round_number: int) -> bytes:
    """A reproducible round seed for a match started with a fixed integer seed (tests,
    simulations): HMAC-SHA256("uno-derived-round-seed", "<match seed>:<round number>")."""
    return hmac_sha256(_DERIVED, b"%d:%d" % (match_seed, round_number))


def first_dealer_seat(match_seed: int, seats: int) -> int:
    """The seat of a match's first dealer, from its integer seed: reproducible for a fixed seed
    (tests, simulations), unpredictable for a table's secret one. One HMAC, where a
    `random.Random` seeded for it cost a quarter of `Game.new` (its 624-word state set up to
    draw one number; docs/benchmarks.md, "The engine"). Not part of a record's proof: a record
    names its first dealer."""
    return int.from_bytes(hmac_sha256(_FIRST_DEALER, b"%d" % match_seed)[:8], "big") % seats


def commitment(seed: bytes) -> str:
    """SHA-256 of the seed's bytes, 64 hex digits."""
    return hashlib.sha256(seed).hexdigest()


def shown_commitment(seed_or_digest: bytes | str) -> str:
    """What a table shows: the first 16 hex digits of the commitment."""
    digest = seed_or_digest if isinstance(seed_or_digest, str) else commitment(seed_or_digest)
    return digest[:SHOWN_DIGITS]


def shuffle_label(k: int) -> bytes:
    """The label of a round's k-th shuffle (0: the deal)."""
    return b"deal" if k == 0 else b"reshuffle-%d" % k


def shuffle_stream(seed: bytes, k: int, n: int) -> bytes:
    """The 8n bytes that order the round's k-th shuffle of n items."""
    key = hmac_sha256(seed, shuffle_label(k))
    return hashlib.shake_256(key).digest(8 * n)


def shuffle_in_place(items: list[int], seed: bytes, k: int) -> None:
    """Shuffle `items` as the round's k-th shuffle: the items sorted by (r_i, i).

    No Python code runs per item: each position i becomes a double in [1, 2) whose mantissa is
    r_i (40 bits) above the byte i, one sort of the doubles, and their lowest bytes are the
    positions in shuffled order. (Lists of at most 256 items: a deck has 112 at most.)
    """
    n = len(items)
    if n > 256:
        ranked = sorted(range(n), key=_sort_keys(shuffle_stream(seed, k, n)).__getitem__)
        items[:] = [items[i] for i in ranked]
        return
    doubles, exponent_low, exponent_high, positions = _KEY_LAYOUT[n]
    keys = bytearray(shuffle_stream(seed, k, n))
    keys[0::8] = positions
    keys[6::8] = exponent_low
    keys[7::8] = exponent_high
    order = doubles.pack(*sorted(doubles.unpack(keys)))[::8]
    items[:] = map(items.__getitem__, order)


def shuffled_ascending(items: bytes, seed: bytes, k: int) -> bytes:
    """The round's k-th shuffle of `items`, given in ascending order (an unshuffled deck, as
    `faces.deck_bytes` gives it): exactly `shuffle_in_place`'s order, one step shorter.

    The low byte of each key is the item itself instead of its position i, so the sorted keys'
    low bytes are already the shuffled items (no look-up of each item by position). The order
    is the same: items ascend with i, so sorting by (r_i, item) breaks each tie of r_i the way
    (r_i, i) does, except between equal items, which then come out the same whichever goes
    first. (At most 256 items; a deck has 112 at most.)
    """
    n = len(items)
    doubles, exponent_low, exponent_high, _ = _KEY_LAYOUT[n]
    keys = bytearray(shuffle_stream(seed, k, n))
    keys[0::8] = items
    keys[6::8] = exponent_low
    keys[7::8] = exponent_high
    return doubles.pack(*sorted(doubles.unpack(keys)))[::8]


def _sort_keys(stream: bytes) -> list[tuple[int, int]]:
    return [
        (int.from_bytes(stream[8 * i + 1 : 8 * i + 6], "little"), i)
        for i in range(len(stream) // 8)
    ]


def reference_shuffle(items: list[object], seed: bytes, k: int) -> list[object]:
    """The documented algorithm written plainly (for tests and other implementations)."""
    stream = shuffle_stream(seed, k, len(items))
    return [items[i] for _, i in sorted(_sort_keys(stream))]


def labelled_order(n: int, seed: bytes, label: bytes) -> list[int]:
    """The positions 0..n-1 sorted by (r_i, i) with the stream of `label` instead of a
    shuffle's: `SHAKE-256(HMAC-SHA256(seed, label)).digest(8 * n)`, keys as in a shuffle (UNO
    Flip's pairing of its sides, flip.py, label "flip-pairing" and "flip-pairing-wilds")."""
    stream = hashlib.shake_256(hmac_sha256(seed, label)).digest(8 * n)
    return [i for _, i in sorted(_sort_keys(stream))]


def first_seat(seed: bytes, seats: int) -> int:
    """The round's random first player's seat index (rule `starting_player = "random"`)."""
    return int.from_bytes(hmac_sha256(seed, b"first-player")[:8], "big") % seats
