"""The console entry point (``evalfw`` and ``python -m evalfw``).

Ctrl-C at any moment, from its first instruction, even while numpy and the plugins load, ends
with ``evalfw: interrupted`` and status 130, never a traceback. Once a command runs, SIGTERM
and SIGHUP end it the same way (``evalfw: terminated by SIGTERM``, status 143; SIGHUP 129):
worker processes and clusters are stopped and nothing is stored; a signal the process was
started ignoring (``nohup``) stays ignored. The rest lives in :mod:`evalfw.cli._start`.
"""

from __future__ import annotations

import os

try:  # Ctrl-C while these load (they import enum, functools, collections) ends the same way
    import signal
    from types import FrameType
except KeyboardInterrupt:
    os.write(2, b"evalfw: interrupted\n")
    raise SystemExit(130) from None


def _interrupted_while_starting(signum: int, frame: FrameType | None) -> None:
    # nothing to clean up yet: leave at once (see main)
    os.write(2, b"evalfw: interrupted\n")
    os._exit(130)


def main() -> None:
    # While modules load, Ctrl-C ends the process at once: a KeyboardInterrupt raised inside a
    # compiled module's import (numpy's) comes out as an ImportError, or leaves the interpreter
    # to end itself by the signal. Nothing needs cleaning up before the command starts.
    restore = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if restore:
        signal.signal(signal.SIGINT, _interrupted_while_starting)
    from evalfw.cli._start import start

    start(restore)


__all__ = ["main"]
