"""The start of every worker process of the bot, and the loop it runs: it must not outlive the bot.

The bot draws pictures and lets computer players think in worker processes
(cogs/uno/drawing/workers.py, used by drawing/renderer.py and game/computers.py). When the bot ends
normally it shuts them down; when it is killed (SIGKILL, the OOM killer, a crash) nobody does,
and an orphaned worker would wait forever on its queue, holding memory and the bot's stdout. So
each worker watches its parent's sentinel, which becomes ready when the parent process is gone,
and exits.
Kept in a module that imports only the standard library: a worker imports it at start.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import pickle
import threading


def exit_with_parent() -> None:
    """Worker initializer: end this process as soon as the process that started it ends."""
    parent = multiprocessing.parent_process()
    if parent is None:  # not a child of multiprocessing: nothing to watch
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def serve_calls(
    requests: multiprocessing.connection.Connection, results: multiprocessing.connection.Connection
) -> None:
    """A worker process's loop (cogs/uno/drawing/workers.py): read (call id, function, arguments),
    answer (call id, ok, the pickled value or error), until the bot closes its end. It lives
    here, in a module never reloaded, because the bot's extensions can be imported afresh
    (a reload), and a process's target is pickled by its module's current name."""
    exit_with_parent()
    while True:
        try:
            call, fn, args = pickle.loads(requests.recv_bytes())
        except EOFError:  # the bot closed its end: done
            return
        try:
            ok, value = True, fn(*args)
        except BaseException as exc:  # the work's own error travels back as its result
            ok, value = False, exc
        try:
            inner = pickle.dumps(value)
        except Exception as exc:
            ok, inner = False, pickle.dumps(RuntimeError(f"unpicklable result: {exc!r}"))
        # (the value pickled apart: one the bot cannot unpickle fails its call alone)
        data = pickle.dumps((call, ok, inner))
        results.send_bytes(data)
