"""Driver faults the bot expects, turned into the store's typed errors and logged once.

A SQLite file locked by another process beyond the busy timeout, a disk I/O error or a full disk,
a PostgreSQL connection that is lost, a deadlock or serialization failure: none of these is a bug,
so none should reach a player as "something went wrong" or the log as a traceback per click. Each
becomes `StorageBusy` (passing: try again) or `StorageUnavailable` (needs an operator); anything
else, an IntegrityError from a real bug included, is left alone to propagate as it is.
"""

from __future__ import annotations

import logging
import sqlite3

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from bot.store.errors import StorageBusy, StorageUnavailable

log = logging.getLogger(__name__)

#: SQLite primary result codes (extended codes carry them in their low byte).
_SQLITE_BUSY = {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
_SQLITE_UNAVAILABLE = {
    sqlite3.SQLITE_PERM,
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_CORRUPT,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PROTOCOL,
    sqlite3.SQLITE_NOTADB,
}
#: PostgreSQL SQLSTATEs after which the server rolled the transaction back and running it
#: again is safe: serialization_failure, deadlock_detected.
RETRYABLE_SQLSTATES = {"40001", "40P01"}
#: Passing PostgreSQL faults, by SQLSTATE or its class (first two characters): connection
#: exceptions, lock_not_available, query_canceled, and a server shutting down or starting.
_PG_BUSY = {*RETRYABLE_SQLSTATES, "08", "55P03", "57014", "57P01", "57P02", "57P03"}
#: Faults that need an operator: insufficient resources (disk full, out of memory, too many
#: connections), read-only transaction (a standby), system errors (I/O).
_PG_UNAVAILABLE = {"53", "25006", "58"}


def _driver_error(error: BaseException) -> BaseException:
    """The driver's exception under SQLAlchemy's wrapping."""
    return error.orig if isinstance(error, DBAPIError) and error.orig is not None else error


def _sqlstate(error: BaseException) -> str | None:
    state = getattr(_driver_error(error), "sqlstate", None)
    return state if isinstance(state, str) else None


def is_retryable(error: BaseException) -> bool:
    """A PostgreSQL deadlock or serialization failure: the transaction is gone, run it again."""
    return _sqlstate(error) in RETRYABLE_SQLSTATES


def reason(error: BaseException) -> str:
    """The driver's own first line for `error`, without SQLAlchemy's wrapping and links."""
    driver = _driver_error(error)
    text = str(driver).strip() or type(driver).__name__
    return text.splitlines()[0]


def storage_fault(error: BaseException) -> StorageUnavailable | None:
    """The typed error for an expected driver fault, or None for anything else (a bug)."""
    if isinstance(error, StorageUnavailable):
        return error
    driver = _driver_error(error)
    busy: bool | None = None
    if isinstance(driver, sqlite3.Error):
        code = (getattr(driver, "sqlite_errorcode", None) or 0) & 0xFF
        busy = True if code in _SQLITE_BUSY else False if code in _SQLITE_UNAVAILABLE else None
    elif (state := _sqlstate(error)) is not None:
        if state in _PG_BUSY or state[:2] in _PG_BUSY:
            busy = True
        elif state in _PG_UNAVAILABLE or state[:2] in _PG_UNAVAILABLE:
            busy = False
    if busy is None and (
        (isinstance(error, DBAPIError) and error.connection_invalidated)
        or isinstance(error, PoolTimeout)
        or isinstance(driver, ConnectionError)  # asyncpg's connect: refused, reset
        or (driver is not error and isinstance(driver, TimeoutError))  # not the caller's own
    ):
        busy = True
    if busy is None:
        return None
    if busy:
        return StorageBusy(f"the database is busy ({reason(error)}); nothing was saved")
    return StorageUnavailable(f"the database cannot be used ({reason(error)}); nothing was saved")


class FaultLog:
    """One WARNING line (no traceback) when a fault episode starts or its reason changes, and
    one when the database works again: a full disk under a click a second is two lines, not a
    traceback per click."""

    def __init__(self) -> None:
        self._current: str | None = None

    def failed(self, fault: StorageUnavailable) -> None:
        message = str(fault)
        if message != self._current:
            log.warning("%s; saves are refused until it works again", message)
            self._current = message

    def succeeded(self) -> None:
        if self._current is not None:
            log.warning("the database works again")
            self._current = None
