"""``evalfw-sacrebleu`` (also ``python -m evalfw.compat.sacrebleu``): sacreBLEU 2.6.0's command
line, computed by evalfw. Existing scripts change the command's name and nothing else.

Every sacreBLEU argument is accepted with its defaults (JSON output unless ``-f``/
``$SACREBLEU_FORMAT`` says otherwise; ``$SACREBLEU_SEED``, default 12345, seeds the tests);
standard output and the exit status are sacreBLEU's, and so is the last line on standard
error when it stops (``sacreBLEU: <message>``, or the ``Type: message`` line that ends
sacreBLEU's traceback when it crashes; set ``EVALFW_DEBUG=1`` for evalfw's traceback).
Test sets (``-t`` and friends) go through sacreBLEU's own dataset code (``evalfw[datasets]``).

Differences: ``--paired-bs`` with JSON output prints valid JSON for chrF and TER, where
sacreBLEU 2.6.0 crashes; ``-h`` is evalfw's own help text; ``-j`` runs the tests in this
process (the numbers do not change); the SentencePiece tokenizers (``spm``, ``flores101``,
``flores200``, ``spBLEU-1K``) are not available.
"""

from __future__ import annotations

import os
import sys

from evalfw.compat.sacrebleu._args import FORMATS, build_parser, quick_parse

__all__ = ["build_parser", "main"]


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Run the command (``prog``: its name in messages, default from ``sys.argv[0]``);
    returns the exit status."""
    # `| head` ends the command quietly. _signal is what the signal module wraps: the wrapper
    # imports enum (and with it functools and collections) to turn the numbers into members
    from _signal import SIG_DFL, SIGPIPE, signal

    signal(SIGPIPE, SIG_DFL)
    args = quick_parse(sys.argv[1:] if argv is None else argv)
    if args is None:
        args = build_parser(prog).parse_args(argv)
    env_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if "SACREBLEU_FORMAT" in os.environ and env_format in FORMATS:
        args.format = env_format
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    from evalfw.compat.sacrebleu._messages import Console, Stop

    console = Console(args.quiet, not args.no_color)
    try:
        from evalfw.compat.sacrebleu._run import run

        return run(args, console)
    except Stop as stop:
        for line in stop.lines:
            console.error(line)
        return stop.status
    except KeyboardInterrupt:
        sys.stderr.write("evalfw: interrupted\n")
        return 130
    except Exception as exc:
        return _crashed(exc)


def _crashed(exc: BaseException) -> int:
    """Where sacreBLEU would crash: its traceback's last line, status 1; an evalfw error:
    ``evalfw: error: ...``, status 2."""
    import traceback

    from evalfw.errors import EvalfwError

    if os.environ.get("EVALFW_DEBUG") == "1":
        traceback.print_exception(exc)
    if isinstance(exc, EvalfwError):
        sys.stderr.write(f"evalfw: error: {exc}\n")
        return exc.exit_code
    sys.stderr.write(traceback.format_exception_only(exc)[-1])
    return 1


def console_main() -> None:
    """The console script. Like the ``evalfw`` command it asks numpy's OpenBLAS for one
    thread (unless the user chose a count): its busy-waiting threads cost about 0.1 CPU-second
    per process for matrix products this small.

    A command on a few hundred lines is mostly start-up and shut-down, so it collects garbage
    less often (what it allocates is freed by reference counting; the collector only finds
    cycles, which scoring does not make) and ends with ``os._exit`` once its output is flushed:
    the interpreter's teardown (freeing every module and object one by one) would cost a tenth
    of the whole command. It registers no ``atexit`` work that this skips."""
    import gc

    gc.set_threshold(20_000, 20, 20)
    if "numpy" not in sys.modules and not {"OPENBLAS_NUM_THREADS",
                                            "OMP_NUM_THREADS"} & set(os.environ):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    console_main()
