"""What the console entry point does once its start-up Ctrl-C handler is in place: the
process-wide choices a library must not make for its users (the OpenBLAS thread count), the
command's modules and numpy loaded under that handler, then Python's handler back and SIGTERM
and SIGHUP turned into exceptions while the command runs (see :mod:`evalfw.cli.entry`)."""

from __future__ import annotations

import os
import sys


def _terminate(signum: int, frame: object) -> None:
    from evalfw.cli.main import Terminated

    raise Terminated(signum)


def _will_compute(argv: list[str]) -> bool:
    """Whether the command does work that needs numpy (not just help or the version)."""
    return bool(argv) and not {"-h", "--help", "--version"} & set(argv)


def start(restore: bool) -> None:
    """Run the command line and exit with its status; ``restore``: the start-up handler is
    installed and Python's own SIGINT handler comes back once the modules are loaded."""
    import _signal as signal

    try:
        # numpy's OpenBLAS starts a busy-waiting thread per core on import: about 0.1 CPU-second
        # per process for nothing, since evalfw's matrix products are small. The command line
        # asks for one thread unless numpy is loaded already or the user chose a count; the
        # library (``import evalfw``) leaves the user's environment alone.
        if "numpy" not in sys.modules and not {"OPENBLAS_NUM_THREADS",
                                                "OMP_NUM_THREADS"} & set(os.environ):
            os.environ["OPENBLAS_NUM_THREADS"] = "1"
        from evalfw.cli.main import main as run

        if _will_compute(sys.argv[1:]):
            import numpy  # noqa: F401  (loaded here, under the start-up handler)
        if restore:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        for signum in [getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]:
            if signal.getsignal(signum) == signal.SIG_DFL:
                signal.signal(signum, _terminate)
        status = run()
    except KeyboardInterrupt as exc:
        from evalfw.cli.main import interrupted

        status = interrupted(exc)
    sys.exit(status)


__all__ = ["start"]
