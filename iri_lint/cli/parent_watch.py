"""Worker processes end when the process that started them dies (issue 30, item 15).

A pool's workers wait for work on a pipe whose write end they hold themselves (they were forked
with it), so a parent killed by SIGKILL or SIGTERM left them blocked forever. Each worker runs
:func:`watch_parent` first: a daemon thread that ends the worker once its parent is gone. On POSIX
an orphan is re-parented, so a parent pid that changes means the parent died; this holds for every
start method (with ``forkserver`` the parent is the server, which exits when the main process
does). On Windows, where nothing is re-parented, the thread waits on the parent's process handle.
"""

from __future__ import annotations

import os
import sys
import time

POLL_SECONDS = 0.25
EXIT_CODE = 3  # (any non-zero code: no one is left to read it)


def watch_parent(main_pid: int, start_method: str) -> None:
    """Pool initializer: start the thread that ends this worker when its parent process dies.

    ``main_pid`` is the process that created the pool, the worker's parent unless a fork server
    started it; a worker whose parent is already another process was orphaned before it got here.
    """
    import threading  # (only workers need it)

    parent = os.getppid()
    if sys.platform == "win32":
        target = _wait_for_handle
    else:
        if start_method != "forkserver" and parent != main_pid:
            os._exit(EXIT_CODE)
        target = _poll_parent_pid
    threading.Thread(target=target, args=(parent,), name="iri-lint-parent-watch", daemon=True).start()


def _poll_parent_pid(parent: int) -> None:  # pragma: no cover  (runs in a worker; tests/cli/test_workers.py)
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    os._exit(EXIT_CODE)


def _wait_for_handle(parent: int) -> None:  # pragma: no cover  (Windows)
    import multiprocessing
    from multiprocessing import connection

    process = multiprocessing.parent_process()
    if process is None or process.sentinel is None:
        return
    connection.wait([process.sentinel])
    os._exit(EXIT_CODE)
