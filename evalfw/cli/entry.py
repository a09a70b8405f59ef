"""The console entry point (``evalfw`` and ``python -m evalfw``).

Ctrl-C at any moment, from its first instruction, even while numpy and the plugins load, ends
with ``evalfw: interrupted`` and status 130, never a traceback. Once a command runs, SIGTERM
and SIGHUP end it the same way (``evalfw: terminated by SIGTERM``, status 143; SIGHUP 129):
worker processes and clusters are stopped and nothing is stored; a signal the process was
started ignoring (``nohup``) stays ignored. The rest lives in :mod:`evalfw.cli._start`: this
module is compiled before its first instruction can run (often from source), so it is short.
"""


def _interrupted_while_starting(signum: int, frame: object) -> None:
    # nothing to clean up yet: leave at once (see main)
    import os

    os.write(2, b"evalfw: interrupted\n")
    os._exit(130)


def main() -> None:
    # ``_signal`` is built in and loaded with the interpreter; ``signal`` is pure Python and
    # builds three enums, milliseconds on a busy machine in which a Ctrl-C would be a traceback.
    # While modules load, Ctrl-C ends the process at once: a KeyboardInterrupt raised inside a
    # compiled module's import (numpy's) comes out as an ImportError, or leaves the interpreter
    # to end itself by the signal. Nothing needs cleaning up before the command starts.
    import _signal

    restore = _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler
    if restore:
        _signal.signal(_signal.SIGINT, _interrupted_while_starting)
    from evalfw.cli._start import start

    start(restore)


__all__ = ["main"]
