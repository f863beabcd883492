"""The custom_id scheme of every button and select, in one place.

- game actions: `uno:<game_id>:<version>:<verb>[:<arg>]` (verbs: play:<card>[:uno], a wild
  whose player names its colour at once, with it in one click play:<W|W4|WR4|W6|W10>[:uno]:
  <R|Y|G|B>, draw, keep,
  pass, color:<R|Y|G|B>, accept, challenge, uno, catch[:<user>], target:<user>, next, page:<n>,
  refresh; between rounds wait and leave), and `uno:<game_id>:<version>:target` for the target
  select;
- `uno:<game_id>:hand` for the public "Show my hand" button;
- `uno:<game_id>:log` for the table's Log button (the round's whole log, privately);
- `uno:<game_id>:lobby:<join|leave|start|cancel|addbot|addexpert|rules>` in the lobby,
  `uno:<game_id>:lobby:target` for its select of the match target (the choice as value), and
  `uno:<game_id>:lobby:game` for its select of the game (a key of bot/engine/game_kinds.py);
- `uno:<game_id>:rematch` under a finished match's result (the finished game's id);
- `uno:<game_id>:record` beside it: the match's record as a file (docs/records.md);
- `uno:<game_id>:replay` beside it: the match's last round to watch (`/uno replay`);
- `uno:help` for the topics of `/uno help` (the topic as value);
- `uno:cfg:<g|game_id>:<group|opt|val:<option>>` for the selects of the settings panel: the
  server's defaults (`g`) or a lobby's rules (its game id).

The templates never overlap (each custom_id matches exactly one), and nothing here trusts a
custom_id for who is acting: that always comes from the interaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

MAX_CUSTOM_ID = 100
MAX_LABEL = 80

_ACTION = (
    r"(?P<action>draw|keep|pass|accept|challenge|uno|next|wait|leave|refresh"
    r"|catch(?::\d{1,20})?|play:(?:W[24]?|WR4|W6|W10|WK|WDC)(?::uno)?:[RYGBPTOV]"
    r"|play:[A-Z0-9]{1,3}(?::uno)?|color:[RYGBPTOV]"
    r"|target:\d{1,20}|page:\d{1,3})"
)
GAME_TEMPLATE: Final = rf"uno:(?P<game>\d{{1,20}}):(?P<version>\d{{1,9}}):{_ACTION}"
TARGET_SELECT_TEMPLATE: Final = r"uno:(?P<game>\d{1,20}):(?P<version>\d{1,9}):target"
HAND_TEMPLATE: Final = r"uno:(?P<game>\d{1,20}):hand"
LOG_TEMPLATE: Final = r"uno:(?P<game>\d{1,20}):log"
REMATCH_TEMPLATE: Final = r"uno:(?P<game>\d{1,20}):rematch"
RECORD_TEMPLATE: Final = r"uno:(?P<game>\d{1,20}):record"
REPLAY_TEMPLATE: Final = r"uno:(?P<game>\d{1,20}):replay"
LOBBY_TEMPLATE: Final = (
    r"uno:(?P<game>\d{1,20}):lobby:(?P<verb>join|leave|start|cancel|addbot|addexpert|rules)"
)

LOBBY_TARGET_TEMPLATE: Final = r"uno:(?P<game>\d{1,20}):lobby:target"
LOBBY_GAME_TEMPLATE: Final = r"uno:(?P<game>\d{1,20}):lobby:game"
#: The match targets a lobby offers: one round (scoring "none"), or first to so many points.
LOBBY_TARGETS: Final = ("round", "100", "200", "500")

HELP_TEMPLATE: Final = r"uno:help"
HELP_ID: Final = "uno:help"

LOBBY_VERBS: Final = ("join", "leave", "start", "cancel", "addbot", "addexpert", "rules")
CONFIG_TEMPLATE: Final = r"uno:cfg:(?P<scope>g|\d{1,20}):(?P<step>group|opt|val:[a-z0-9_]{1,40})"
#: The scope of the server's own settings in a config custom_id (a lobby's is its game id).
SERVER_SCOPE: Final = "g"


@dataclass(frozen=True, slots=True)
class GameRef:
    """What a game button says: which game, rendered at which version, doing what."""

    game_id: int
    version: int
    action: str  # the engine action code, or a UI verb (page:<n>, refresh, catch, target)

    @property
    def custom_id(self) -> str:
        return game_id_for(self.game_id, self.version, self.action)


def _checked(custom_id: str) -> str:
    if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long ({len(custom_id)}): {custom_id!r}")
    return custom_id


def game_id_for(game_id: int, version: int, action: str) -> str:
    return _checked(f"uno:{game_id}:{version}:{action}")


def target_select_id(game_id: int, version: int) -> str:
    return _checked(f"uno:{game_id}:{version}:target")


def hand_id(game_id: int) -> str:
    return _checked(f"uno:{game_id}:hand")


def log_id(game_id: int) -> str:
    return _checked(f"uno:{game_id}:log")


def rematch_id(game_id: int) -> str:
    return _checked(f"uno:{game_id}:rematch")


def record_id(game_id: int) -> str:
    return _checked(f"uno:{game_id}:record")


def replay_id(game_id: int) -> str:
    return _checked(f"uno:{game_id}:replay")


def lobby_id(game_id: int, verb: str) -> str:
    if verb not in LOBBY_VERBS:
        raise ValueError(verb)
    return _checked(f"uno:{game_id}:lobby:{verb}")


def lobby_target_id(game_id: int) -> str:
    return _checked(f"uno:{game_id}:lobby:target")


def lobby_game_id(game_id: int) -> str:
    return _checked(f"uno:{game_id}:lobby:game")


def config_id(scope: str, step: str) -> str:
    custom_id = _checked(f"uno:cfg:{scope}:{step}")
    if re.fullmatch(CONFIG_TEMPLATE, custom_id) is None:
        raise ValueError(custom_id)
    return custom_id


def parse_game(custom_id: str) -> GameRef | None:
    m = re.fullmatch(GAME_TEMPLATE, custom_id)
    if m is None:
        return None
    return GameRef(int(m["game"]), int(m["version"]), m["action"])


def matches_exactly_one(custom_id: str) -> bool:
    """True when exactly one template matches (the scheme's no-overlap promise)."""
    templates = (
        GAME_TEMPLATE,
        TARGET_SELECT_TEMPLATE,
        HAND_TEMPLATE,
        LOG_TEMPLATE,
        REMATCH_TEMPLATE,
        RECORD_TEMPLATE,
        REPLAY_TEMPLATE,
        LOBBY_TEMPLATE,
        LOBBY_TARGET_TEMPLATE,
        LOBBY_GAME_TEMPLATE,
        HELP_TEMPLATE,
        CONFIG_TEMPLATE,
    )
    return sum(re.fullmatch(p, custom_id) is not None for p in templates) == 1
