"""PostgreSQL connections checked on their way out of the pool only after sitting idle.

A pooled connection can be dead when it is taken (the server restarted, a proxy or firewall
dropped it while it sat unused): SQLAlchemy's `pool_pre_ping` checks every one, and on asyncpg
a check is three round trips (BEGIN, an empty query, ROLLBACK). Under load a connection goes back
to work milliseconds after it was returned, and those checks were a quarter of what saving a
click cost the bot (docs/benchmarks.md, "A thousand games per token"). So only a connection
unused for `PING_AFTER_IDLE` seconds or more is checked: while the server is down every query
fails anyway, and once it is back every pooled connection has been idle at least that long.
A dead one is replaced at once, as `pool_pre_ping` would (PoolEvents.checkout: a
DisconnectionError makes the pool open a fresh connection).
"""

from __future__ import annotations

import time
from typing import Any, Final

from sqlalchemy import event
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

#: Seconds a pooled connection may sit unused and still be taken without a check.
PING_AFTER_IDLE: Final = 1.0
#: Where a connection's pool entry remembers when it was last returned (or opened).
_IDLE_SINCE: Final = "uno_idle_since"


def ping_idle_connections(engine: AsyncEngine) -> None:
    """Check `engine`'s pooled connections when they are taken after `PING_AFTER_IDLE` s idle."""
    sync_engine = engine.sync_engine
    dialect = sync_engine.dialect

    def fresh(dbapi_connection: Any, entry: ConnectionPoolEntry) -> None:
        entry.info[_IDLE_SINCE] = time.monotonic()

    def taken(dbapi_connection: Any, entry: ConnectionPoolEntry, _: PoolProxiedConnection) -> None:
        since = entry.info.get(_IDLE_SINCE)
        if since is not None and time.monotonic() - since < PING_AFTER_IDLE:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as error:  # dead or unusable: the pool opens another
            raise DisconnectionError(f"an idle connection failed its check: {error}") from error

    event.listen(sync_engine.pool, "connect", fresh)
    event.listen(sync_engine.pool, "checkin", fresh)
    event.listen(sync_engine.pool, "checkout", taken)
