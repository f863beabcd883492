"""The picture drawing threads: results in order, errors passed on, a stuck thread replaced."""

from __future__ import annotations

import asyncio
import threading

import pytest

from cogs.uno.drawing.threads import DrawingLate, DrawingThread

pytestmark = pytest.mark.asyncio


async def test_results_come_back_and_errors_are_raised_to_the_caller() -> None:
    drawing = DrawingThread("test")
    try:
        assert await drawing.run(lambda: b"png", deadline=5) == b"png"

        def broken() -> bytes:
            raise ValueError("bad art")

        with pytest.raises(ValueError, match="bad art"):
            await drawing.run(broken, deadline=5)
        names = await drawing.run(lambda: threading.current_thread().name, deadline=5)
        assert names == "test"  # drawn in its thread, not on the event loop
    finally:
        drawing.close()


async def test_a_stuck_thread_is_replaced_and_its_late_result_dropped() -> None:
    drawing = DrawingThread("test")
    release = threading.Event()
    try:
        with pytest.raises(DrawingLate):
            await drawing.run(lambda: release.wait(30) and b"late", deadline=0.2)
        # The next picture is drawn at once by a new thread, not queued behind the stuck one.
        assert await drawing.run(lambda: b"fresh", deadline=2) == b"fresh"
        release.set()  # the stuck drawing ends: its result goes nowhere
        await asyncio.sleep(0.05)
        assert await drawing.run(lambda: b"again", deadline=2) == b"again"
    finally:
        release.set()
        drawing.close()
