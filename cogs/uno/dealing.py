"""How a game is dealt at Start: the test-only hooks that fix its seed, deck, rules or dealer."""

from __future__ import annotations

import json
from typing import Any

from bot.engine import parse_cards
from bot.settings import Settings


def deal_options(
    channel_id: int, game_id: int, players: list[int], settings: Settings
) -> dict[str, Any]:
    """Test-only hooks (never set in production): a fixed seed and/or round-1 deck."""
    options: dict[str, Any] = {}
    if settings.uno_test_seed is not None:
        options["seed"] = settings.uno_test_seed + game_id
    path = settings.uno_test_decks
    if path is not None and path.exists():
        spec = json.loads(path.read_text(encoding="utf-8")).get(str(channel_id))
        if spec:
            if "seed" in spec:
                options["seed"] = spec["seed"]
            if "deck" in spec:
                options["deck"] = parse_cards(spec["deck"])
            if "rules" in spec:
                options["rules"] = spec["rules"]
            if "dealer_seat" in spec:
                options["dealer"] = players[spec["dealer_seat"] % len(players)]
    return options
