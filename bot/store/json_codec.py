"""How JSON columns (a game's snapshot, at every save) are written and read: through orjson.

orjson is several times faster than the json module, and a snapshot is serialised at every
click. Integer keys become strings, as json.dumps does; the text is UTF-8 rather than \\u-escaped,
which both SQLite and PostgreSQL store as it is.
"""

from __future__ import annotations

from typing import Any

import orjson


def dump_json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


load_json = orjson.loads

#: Keyword arguments for create_async_engine.
JSON_CODEC: dict[str, Any] = {"json_serializer": dump_json, "json_deserializer": load_json}
