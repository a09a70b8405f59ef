"""What every worker process of this machine's pools shares: running one item and carrying
its exception back, ending itself when its parent is gone, and saying how it died."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.pool import (  # type: ignore[attr-defined]
    ExceptionWithTraceback,  # the pool's own wrapper: pickles the traceback as text
)
from typing import Any

from evalfw.errors import PluginError
from evalfw.plugin.guard import escaped

#: how often a worker checks that its parent is alive (seconds)
PARENT_CHECK = 0.5
#: how long a worker that was asked to stop may take before it is killed (seconds)
STOP_GRACE = 2.0
LOST_ADVICE = ("the machine may have run out of memory (see `dmesg`), or plugin code ended "
               "the process; run with --jobs 1 to see the error")


def attempt(task: Callable[[Any, Any], Any], context: Any, item: Any) -> tuple[bool, Any]:
    """(True, result) or (False, the exception, carrying its traceback to the parent)."""
    try:
        return True, task(context, item)
    except Exception as exc:
        return False, ExceptionWithTraceback(exc, exc.__traceback__)
    except BaseException as exc:
        # SystemExit (or KeyboardInterrupt: workers ignore SIGINT, so plugin code raised it)
        # would end the worker without an answer; a PluginError travels back instead
        return False, escaped(exc, "computing in a worker process")


def watch_parent(parent: int) -> None:
    """End this worker once its parent is gone (it was killed, e.g. with SIGKILL)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(1)

    threading.Thread(target=watch, name="evalfw-parent-watch", daemon=True).start()


def begin(parent: int, inherited: list[Any]) -> None:
    """A forked worker's start: close the pipes of workers forked before it, leave signals to
    the parent, and end itself when the parent is gone."""
    for other in inherited:
        other.close()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    watch_parent(parent)


def reply(conn: Any, head: tuple[Any, ...], ok: bool, value: Any) -> None:
    """Send ``(*head, ok, value)`` to the parent; a result or exception that does not pickle
    travels as a PluginError saying so."""
    try:
        conn.send((*head, ok, value))
    except Exception as exc:
        conn.send((*head, False, PluginError(
            f"a worker process could not send back what a job returned or raised "
            f"({type(value).__name__}): {type(exc).__name__}: {exc}")))


def death(process: Any) -> str:
    """How a worker process ended, in words (its exit status or signal)."""
    process.join(timeout=1)
    code = process.exitcode
    pid = process.pid
    if code is not None and code < 0:
        try:
            how = f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            how = f"was killed by signal {-code}"
    elif code is not None:
        how = f"exited with status {code}"
    else:
        how = "closed its pipe"
    return f"worker process {pid} {how}"


__all__ = ["LOST_ADVICE", "PARENT_CHECK", "STOP_GRACE", "attempt", "begin", "death", "reply",
           "watch_parent"]
