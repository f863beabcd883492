"""Snapshots: a game as plain JSON-able data, and back, so a running game survives a restart.

Everything is stored, the random seed and the number of random steps taken included, so a
resumed game deals and shuffles exactly as the original would have. `FORMAT_VERSION` changes when
the layout does, and every older format still loads:

- 1: the random generator's whole Mersenne Twister state (625 words, 3.3 KB of base64). Loaded,
  the match gets a seed drawn from that state, so it goes on as deterministically as before.
- 2: `seed` and `random_steps` (see `state.GameState.next_random`).
- 3: the round's seed (`round_seed`, hex; secret until the round ends: a snapshot is for the
  database only), `round_shuffles` and `secret_rounds` (seeds.py). A format-2 round goes on
  with the former shuffle; its next rounds get round seeds. Since Show 'Em No Mercy it also
  keeps `knocked_out` (the round's players out by the mercy rule; missing: nobody), and since
  UNO Flip `side` ("light"/"dark") and `flip_pairs` (the round's pairing of the sides, light
  code -> dark code: secret as the round seed; missing: not a Flip game). Colours are written
  as the side in play names them ("P" on the dark side).
"""

from __future__ import annotations

import base64
import random
import struct
from typing import Any

from .cards import Card, Color
from .errors import GameError
from .faces import CODES, COLOR_INDEX, SIDE_COLORS
from .flip import light_pairs, pairing_of
from .hand import Hand
from .rules import RuleSet
from .scoring import Outcome, RoundOutcome
from .state import SEED_BITS, Decision, GameState

FORMAT_VERSION = 3
#: Formats `load_into` reads.
READABLE_FORMATS = (1, 2, 3)


def dump(game: GameState) -> dict[str, Any]:
    colors = SIDE_COLORS[game.side]
    color = colors[game.color_index]
    wd4 = game.wd4_record
    wd4_color = colors[wd4[1]] if wd4 else None
    flip = (
        {
            "side": "dark" if game.side else "light",
            "flip_pairs": {a.code: b.code for a, b in light_pairs(game.flip_pairs).items()},
        }
        if game.flip_pairs
        else {}
    )
    return flip | {
        "format": FORMAT_VERSION,
        "rules": game.rules.to_dict(),
        "players": list(game.players),
        "seats": list(game.seats),
        "left": list(game.left),
        "eliminated": list(game.eliminated),
        "knocked_out": list(game.knocked_out),
        "totals": {str(p): t for p, t in game.totals.items()},
        "round_number": game.round_number,
        "dealer": game.dealer,
        "hands": {str(p): [CODES[f] for f in h.faces()] for p, h in game.held.items()},
        "draw_pile": [CODES[f] for f in game.pile],
        "discard": [CODES[f] for f in game.discards],
        "color": color.value if color else None,
        "direction": game.direction,
        "turn": game.turn,
        "decision": game.decision.value,
        "steps": list(game.steps),
        "penalty": game.penalty,
        "penalty_kind": game.penalty_kind,
        "drawn": CODES[game.drawn_face] if game.drawn_face >= 0 else None,
        "wd4": [wd4[0], wd4_color.value if wd4_color else None, wd4[2]] if wd4 else None,
        "at_risk": list(game.at_risk),
        "skip_next": list(game.skip_next),
        "passes": game.passes,
        "jump_open": game.jump_open,
        "version": game.version,
        "round_outcome": game.round_outcome.to_dict() if game.round_outcome else None,
        "outcome": game.outcome.to_dict() if game.outcome else None,
        "positions": dict(game.positions),
        # A voids mask has a bit per face (73 since No Mercy): written in hex, since JSON
        # libraries (the store's orjson) refuse integers past 64 bits.
        "voids": {str(p): [format(v[0], "x"), v[1]] for p, v in game.voids.items()},
        "seed": game.seed,
        "random_steps": game.random_steps,
        "round_seed": game.round_seed.hex(),
        "round_shuffles": game.round_shuffles,
        "secret_rounds": game.secret_rounds,
    }


def load_into(game: GameState, data: dict[str, Any]) -> None:
    """Fill a blank game from `dump` data of any readable format."""
    if data.get("format") not in READABLE_FORMATS:
        raise GameError("bad_snapshot", format=data.get("format"))
    game.rules = RuleSet.from_dict(data["rules"])
    game.players = list(data["players"])
    game.seats = list(data["seats"])
    game.left = list(data["left"])
    game.eliminated = list(data["eliminated"])
    game.knocked_out = list(data.get("knocked_out", []))  # kept since No Mercy (format 3)
    game.totals = {int(p): t for p, t in data["totals"].items()}
    game.round_number = data["round_number"]
    game.dealer = data["dealer"]
    game.held = {int(p): Hand(_face(c) for c in h) for p, h in data["hands"].items()}
    game.pile = [_face(c) for c in data["draw_pile"]]
    game.discards = [_face(c) for c in data["discard"]]
    game.color_index = COLOR_INDEX[Color(data["color"]) if data["color"] else None]
    game.direction = data["direction"]
    game.turn = data["turn"]
    game.decision = Decision(data["decision"])
    game.steps = list(data["steps"])
    game.penalty = data["penalty"]
    game.penalty_kind = data["penalty_kind"]
    game.drawn_face = _face(data["drawn"]) if data["drawn"] else -1
    wd4 = data["wd4"]
    game.wd4_record = (
        (wd4[0], COLOR_INDEX[Color(wd4[1]) if wd4[1] else None], wd4[2]) if wd4 else None
    )
    game.at_risk = list(data["at_risk"])
    game.skip_next = list(data["skip_next"])
    game.passes = data["passes"]
    game.jump_open = data["jump_open"]
    game.version = data["version"]
    ro = data["round_outcome"]
    game.round_outcome = RoundOutcome.from_dict(ro) if ro else None
    oc = data["outcome"]
    game.outcome = Outcome.from_dict(oc) if oc else None
    game.positions = dict(data.get("positions", {}))  # kept since format 2
    game.voids = {int(p): (_mask(v[0]), int(v[1])) for p, v in data.get("voids", {}).items()}
    if data["format"] == 1:
        game.seed, game.random_steps = _seed_from_generator(data["rng"]), 0
    else:
        game.seed, game.random_steps = int(data["seed"]), int(data["random_steps"])
    game.round_seed = bytes.fromhex(data.get("round_seed", ""))  # kept since format 3
    game.round_shuffles = int(data.get("round_shuffles", 0))
    game.secret_rounds = bool(data.get("secret_rounds", False))
    pairs = data.get("flip_pairs")  # kept since UNO Flip
    game.flip_pairs = (
        pairing_of({Card.of(a): Card.of(b) for a, b in pairs.items()}) if pairs else ()
    )
    game.side = 1 if data.get("side") == "dark" else 0


def _face(code: str) -> int:
    return Card.of(code).face


def _seed_from_generator(stored: list[Any]) -> int:
    """A format-1 game's seed: the next number its stored generator would have given."""
    version, internal, gauss = stored
    generator = random.Random()
    generator.setstate((version, _unpack_words(internal), gauss))
    return generator.getrandbits(SEED_BITS)


def _unpack_words(text: str) -> tuple[int, ...]:
    raw = base64.b64decode(text)
    return struct.unpack(f"<{len(raw) // 4}I", raw)


def _mask(value: int | str) -> int:
    """A voids mask as saved: hex text, or an integer in snapshots saved before No Mercy."""
    return int(value, 16) if isinstance(value, str) else int(value)
