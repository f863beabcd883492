"""Discord's global rate limit and its invalid-request limit, as the emulator enforces them.

Why: a bot token may make 50 requests per second in all, across its shards and processes;
interaction endpoints (the callback, and the webhook routes an interaction's token opens) are
not bound by it. Past it Discord answers 429 with ``"global": true``. Separately, 10,000 invalid
requests (401, 403, 429 except a shared-scope 429) in 10 minutes get the address banned by
Cloudflare for about an hour: every request then fails. The REST layer asks ``admit`` before
routing a call and tells ``answered`` every status it sent.
"""

from __future__ import annotations

import math
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

#: Discord's: requests per second per bot token on routes that are not exempt.
GLOBAL_PER_SECOND = 50
#: Discord's: invalid requests allowed in ``INVALID_WINDOW`` seconds before a Cloudflare ban.
INVALID_MAX = 10_000
INVALID_WINDOW = 600.0
INVALID_STATUSES = (401, 403, 429)
#: How long the emulator's Cloudflare ban lasts (Discord's is about an hour).
BAN_SECONDS = 3600.0

CALLBACK = re.compile(r"^/interactions/\d+/(?P<token>[^/]+)/callback$")
WEBHOOK = re.compile(r"^/webhooks/\d+/(?P<token>[^/]+)(/.*)?$")


def interaction_token(path: str) -> str | None:
    """The interaction token of an interaction route (below ``/api/v10``): the callback, or a
    webhook route (followups, ``@original``); None for any other route."""
    m = CALLBACK.match(path) or WEBHOOK.match(path)
    return None if m is None else m["token"]


@dataclass
class GlobalLimit:
    """A sliding one-second window per bot token, and the invalid requests of the address.

    ``per_second`` None: no global limit (requests are still counted). Tests and benchmarks
    may shrink ``invalid_max``/``invalid_window`` to see a ban.
    """

    per_second: int | None = GLOBAL_PER_SECOND
    invalid_max: int = INVALID_MAX
    invalid_window: float = INVALID_WINDOW
    clock: Callable[[], float] = time.monotonic
    #: Requests counted against the global limit, exempt ones, and global 429s answered.
    limited: int = 0
    #: The most requests of one token admitted within one second (at most ``per_second``
    #: while the limit is on; what a bot's pacing looks like at Discord's end).
    peak: int = 0
    exempt: int = 0
    global_429s: int = 0
    #: Every invalid request answered (401, 403, 429), and the worst count within one window.
    invalid: int = 0
    invalid_peak: int = 0
    banned_until: float = 0.0
    _recent: dict[str, deque[float]] = field(default_factory=dict)
    _invalid_times: deque[float] = field(default_factory=deque)

    def admit(self, token: str, *, exempt: bool) -> float | None:
        """Count one request of a bot ``token``; None if it may go on, else the seconds to
        retry after. ``exempt``: an interaction route, outside the limit."""
        if exempt:
            self.exempt += 1
            return None
        self.limited += 1
        now = self.clock()
        stamps = self._recent.setdefault(token, deque())
        while stamps and now - stamps[0] >= 1.0:
            stamps.popleft()
        if self.per_second is not None and len(stamps) >= self.per_second:
            self.global_429s += 1
            return max(0.001, 1.0 - (now - stamps[0]))
        stamps.append(now)
        self.peak = max(self.peak, len(stamps))
        return None

    def banned(self) -> bool:
        return self.clock() < self.banned_until

    def answered(self, status: int, scope: str | None = None) -> bool:
        """Note an answer's status; True when it just got the address banned."""
        if status not in INVALID_STATUSES or (status == 429 and scope == "shared"):
            return False
        now = self.clock()
        self.invalid += 1
        times = self._invalid_times
        times.append(now)
        while times and now - times[0] >= self.invalid_window:
            times.popleft()
        self.invalid_peak = max(self.invalid_peak, len(times))
        if len(times) >= self.invalid_max and not self.banned():
            self.banned_until = now + BAN_SECONDS
            return True
        return False


def global_429(retry_after: float) -> tuple[dict[str, str], dict[str, object]]:
    """The headers and body of Discord's answer past the global limit."""
    headers = {
        "Retry-After": str(math.ceil(retry_after)),  # whole seconds; the body has the fraction
        "X-RateLimit-Global": "true",
        "X-RateLimit-Scope": "global",
        "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
    }
    body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": True}
    return headers, body
