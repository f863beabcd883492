"""The start of every worker process of the bot: it must not outlive the bot.

The bot draws pictures and lets computer players think in worker processes
(cogs/uno/workers.py, used by pictures.py and thinking.py). When the bot ends normally it shuts
them down; when it is killed (SIGKILL, the OOM killer, a crash) nobody does, and an orphaned
worker would wait forever on its queue, holding memory and the bot's stdout. So each worker
watches its parent's sentinel, which becomes ready when the parent process is gone, and exits.
Kept in a module that imports only the standard library: a worker imports it at start.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
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
