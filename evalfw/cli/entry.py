"""The console entry point (``evalfw`` and ``python -m evalfw``).

It imports nothing but the standard library's ``sys`` before its ``try``, so Ctrl-C at any
moment of start-up, even while numpy and the plugins load, ends with ``evalfw: interrupted``
and status 130, never a traceback. It also holds the process-wide choices a library must not
make for its users (the OpenBLAS thread count).
"""

import sys


def main() -> None:
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

        status = run()
    except KeyboardInterrupt:
        sys.stderr.write("evalfw: interrupted\n")
        status = 130
    sys.exit(status)


__all__ = ["main"]
