"""What the console entry point does once its start-up Ctrl-C handler is in place: the
command's modules and numpy loaded under that handler (with one OpenBLAS thread, a choice a
library must not make for its users), then Python's handler back and SIGTERM
and SIGHUP turned into exceptions while the command runs (see :mod:`evalfw.cli.entry`)."""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType


def _terminate(signum: int, frame: FrameType | None) -> None:
    from evalfw.cli.main import Terminated

    raise Terminated(signum)


def _will_compute(argv: list[str]) -> bool:
    """Whether the command does work that needs numpy (not just help or the version)."""
    return bool(argv) and not {"-h", "--help", "--version"} & set(argv)


def _import_numpy() -> None:
    """numpy, loaded here (under the start-up handler). Its OpenBLAS starts a busy-waiting
    thread per core on import, which spends CPU time for nothing, since evalfw's
    matrix products are small (:mod:`evalfw.executors.blas`). OpenBLAS reads its thread count
    from the environment once, when it loads: one thread is asked for then, unless the user
    chose a count, and the environment is as it was right after, so programs this process
    starts see the user's."""
    if "numpy" in sys.modules or {"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"} & set(os.environ):
        import numpy  # noqa: F401
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


def start(restore: bool) -> None:
    """Run the command line and exit with its status; ``restore``: the start-up handler is
    installed and Python's own SIGINT handler comes back once the modules are loaded."""
    caught: list[int] = []
    try:
        from evalfw.cli.main import main as run

        if _will_compute(sys.argv[1:]):
            _import_numpy()
        if restore:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        for signum in [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]:
            if signal.getsignal(signum) == signal.SIG_DFL:
                signal.signal(signum, _terminate)
                caught.append(signum)
        status = run()
    except KeyboardInterrupt as exc:
        from evalfw.cli.main import interrupted

        status = interrupted(exc)
    # the command is over: a signal while the interpreter ends (waiting for threads) ends the
    # process as the signal does, not with a traceback from inside that wait
    for signum in caught:
        signal.signal(signum, signal.SIG_DFL)
    guard = sys.modules.get("evalfw.plugin.guard")
    if guard is not None and guard.stuck():  # plugin threads that would never let it end
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status or 2)
    sys.exit(status)


__all__ = ["start"]
