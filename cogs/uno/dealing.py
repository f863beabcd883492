"""How a game is dealt at Start: the test-only hooks that fix its seed, deck, rules or dealer."""

from __future__ import annotations

import json
import os
from typing import Any


def deal_options(channel_id: int, game_id: int, players: list[int]) -> dict[str, Any]:
    """Test-only hooks (never set in production): a fixed seed and/or round-1 deck."""
    options: dict[str, Any] = {}
    seed = os.environ.get("UNO_TEST_SEED")
    if seed:
        options["seed"] = int(seed) + game_id
    path = os.environ.get("UNO_TEST_DECKS")
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            spec = json.load(fh).get(str(channel_id))
        if spec:
            from bot.engine import parse_cards

            if "seed" in spec:
                options["seed"] = spec["seed"]
            if "deck" in spec:
                options["deck"] = parse_cards(spec["deck"])
            if "rules" in spec:
                options["rules"] = spec["rules"]
            if "dealer_seat" in spec:
                options["dealer"] = players[spec["dealer_seat"] % len(players)]
    return options
