"""The console entry point (``evalfw`` and ``python -m evalfw``).

Ctrl-C at any moment, from its first instruction, even while numpy and the plugins load, ends
with ``evalfw: interrupted`` and status 130, never a traceback. Once a command runs, SIGTERM
and SIGHUP end it the same way (``evalfw: terminated by SIGTERM``, status 143; SIGHUP 129):
worker processes and clusters are stopped and nothing is stored; a signal the process was
started ignoring (``nohup``) stays ignored. It also holds the process-wide choices a library
must not make for its users (the OpenBLAS thread count).
"""

import sys


def _interrupted_while_starting(signum: int, frame: object) -> None:
    # nothing to clean up yet: leave at once (see main)
    import os

    os.write(2, b"evalfw: interrupted\n")
    os._exit(130)


def _terminate(signum: int, frame: object) -> None:
    from evalfw.cli.main import Terminated

    raise Terminated(signum)


def _will_compute(argv: list[str]) -> bool:
    """Whether the command does work that needs numpy (not just help or the version)."""
    return bool(argv) and not {"-h", "--help", "--version"} & set(argv)


def main() -> None:
    import signal

    # While modules load, Ctrl-C ends the process at once: a KeyboardInterrupt raised inside a
    # compiled module's import (numpy's) comes out as an ImportError, or leaves the
    # interpreter to end itself by the signal. Nothing needs cleaning up before the command
    # starts; from then on Python's handler is back so runs remove their temporary files and
    # workers and clusters are told to stop.
    restore = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if restore:
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    try:
        import os

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
            if signal.getsignal(signum) is signal.SIG_DFL:
                signal.signal(signum, _terminate)
        status = run()
    except KeyboardInterrupt as exc:
        from evalfw.cli.main import interrupted

        status = interrupted(exc)
    sys.exit(status)


__all__ = ["main"]
