"""Run the real bot as a separate OS process pointed at the emulator.

Why: end-to-end tests must exercise the bot exactly as deployed (``python -m bot``), including
crashes and restarts. ``BotProcess`` starts it with the emulator's environment, keeps its
output (a failing test can print it), and stops it by its own pid: politely (SIGTERM) or as
a crash (SIGKILL).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping, Sequence


class BotProcess:
    """One bot process; ``output`` collects its stdout and stderr lines."""

    def __init__(
        self,
        args: Sequence[str],
        env: Mapping[str, str],
        *,
        cwd: str | None = None,
    ) -> None:
        self.args = list(args)
        self.env = dict(env)
        self.cwd = cwd
        self.lines: list[str] = []
        self._proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    @property
    def returncode(self) -> int | None:
        return None if self._proc is None else self._proc.returncode

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    @property
    def output_closed(self) -> bool:
        """Whether every process that held the bot's output has ended (EOF was read)."""
        return self._reader is not None and self._reader.done() and not self._reader.cancelled()

    @property
    def output(self) -> str:
        """Everything the process (and its restarts) wrote so far, stdout and stderr."""
        return "\n".join(self.lines)

    def log_tail(self, lines: int = 60) -> str:
        """The last `lines` lines of the output, for a failing test's report."""
        return "\n".join(self.lines[-lines:])

    async def start(self) -> BotProcess:
        self._proc = await asyncio.create_subprocess_exec(
            *self.args,
            env=self.env,
            cwd=self.cwd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        async for raw in self._proc.stdout:
            self.lines.append(raw.decode(errors="replace").rstrip("\n"))

    async def stop(self, timeout: float = 5.0) -> int | None:
        """SIGTERM, then SIGKILL after ``timeout``; the exit code."""
        return await self._end(signal.SIGTERM, timeout)

    async def kill(self) -> int | None:
        """SIGKILL: a crash, nothing gets to clean up."""
        return await self._end(signal.SIGKILL, 5.0)

    async def _end(self, sig: signal.Signals, timeout: float) -> int | None:
        proc = self._proc
        if proc is None:
            return None
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(sig)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        if self._reader is not None and not self._reader.done():
            # EOF comes once every process holding the output (the bot's workers too) is gone.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 2.0)
        return proc.returncode

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


def bot_process(
    emu_env: Mapping[str, str],
    args: Sequence[str] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
) -> BotProcess:
    """A (not yet started) ``python -m bot`` with the emulator's variables over ``os.environ``."""
    full = dict(os.environ) | dict(emu_env) | dict(env or {})
    full.setdefault("PYTHONUNBUFFERED", "1")
    return BotProcess(args or [sys.executable, "-m", "bot"], full, cwd=cwd)
