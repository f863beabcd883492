"""How many rows an UPDATE, INSERT or DELETE run through a session matched."""

from __future__ import annotations

from typing import Any

from sqlalchemy import CursorResult, Result


def rowcount(result: Result[Any]) -> int:
    """The rows `result`'s statement matched.

    `AsyncSession.execute` types every result as a `Result`; a data-changing statement's is the
    `CursorResult` that carries the count.
    """
    assert isinstance(result, CursorResult), type(result)
    return result.rowcount
