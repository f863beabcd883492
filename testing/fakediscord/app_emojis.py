"""Application emojis: ``GET/POST /applications/{id}/emojis`` and ``DELETE .../emojis/{emoji_id}``.

Why: the bot uploads its card emojis at start-up and must upload each only once, across
restarts; the emulator keeps them (``World.app_emojis``) and counts every upload
(``World.emoji_uploads``) so a test can say so. Discord's rules are enforced: names of 2-32
letters, digits and underscores, unique per application; a PNG, GIF, WebP or JPEG data URI of
at most 256 KiB; at most 2,000 emojis (``World.app_emoji_limit``). The list is answered as
Discord does, ``{"items": [...]}``.
"""

from __future__ import annotations

import base64
import binascii
import re

from .rest import ApiError, Call, Reply, Rest
from .state import JSON

NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
IMAGE = re.compile(r"^data:image/(png|gif|webp|jpeg);base64,(.+)$", re.S)
MAX_BYTES = 256 * 1024


def install(rest: Rest) -> None:
    """Add the routes to the emulator's REST API."""
    routes = _Routes(rest)
    base = "/applications/{app_id}/emojis"
    rest._add("GET", base, routes.list_emojis)
    rest._add("POST", base, routes.create_emoji)
    rest._add("GET", base + "/{emoji_id}", routes.get_emoji)
    rest._add("DELETE", base + "/{emoji_id}", routes.delete_emoji)


class _Routes:
    def __init__(self, rest: Rest) -> None:
        self.world = rest.world

    def _app(self, call: Call) -> None:
        if call.params.get("app_id") != str(self.world.application_id):
            raise ApiError(404, 10002, "Unknown Application", kind="unknown_application")

    def _emoji(self, call: Call) -> JSON:
        self._app(call)
        emoji = self.world.app_emojis.get(int(call.params["emoji_id"]))
        if emoji is None:
            raise ApiError(404, 10014, "Unknown Emoji", kind="unknown_emoji")
        return emoji

    async def list_emojis(self, call: Call) -> Reply:
        self._app(call)
        return 200, {"items": list(self.world.app_emojis.values())}

    async def get_emoji(self, call: Call) -> Reply:
        return 200, self._emoji(call)

    async def delete_emoji(self, call: Call) -> Reply:
        emoji = self._emoji(call)
        del self.world.app_emojis[int(emoji["id"])]
        return 204, None

    async def create_emoji(self, call: Call) -> Reply:
        self._app(call)
        w = self.world
        body = call.body
        name = body.get("name")
        errors: JSON = {}
        if not isinstance(name, str) or not NAME.match(name):
            errors["name"] = _error("BASE_TYPE_BAD_LENGTH", "2-32 letters, digits or _")
        elif any(e["name"] == name for e in w.app_emojis.values()):
            errors["name"] = _error("APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Name already taken")
        image = _image(body.get("image"))
        if image is None:
            errors["image"] = _error("IMAGE_INVALID", "Invalid image data")
        elif len(image) > MAX_BYTES:
            raise ApiError(
                400,
                50138,
                f"Failed to resize asset below the maximum size: {MAX_BYTES}",
                kind="emoji_too_large",
            )
        if errors:
            raise ApiError(400, 50035, "Invalid Form Body", errors, kind="invalid_form_body")
        if len(w.app_emojis) >= w.app_emoji_limit:
            raise ApiError(400, 30018, "Maximum number of emojis reached", kind="too_many_emojis")
        emoji: JSON = {
            "id": str(w.ids.next()),
            "name": name,
            "roles": [],
            "user": w.bot_user.payload(),
            "require_colons": True,
            "managed": False,
            "animated": False,
            "available": True,
        }
        w.app_emojis[int(emoji["id"])] = emoji
        w.emoji_uploads.append(str(name))
        return 201, emoji


def _error(code: str, message: str) -> JSON:
    return {"_errors": [{"code": code, "message": message}]}


def _image(data: object) -> bytes | None:
    if not isinstance(data, str) or (m := IMAGE.match(data)) is None:
        return None
    try:
        return base64.b64decode(m[2], validate=True)
    except (binascii.Error, ValueError):
        return None
