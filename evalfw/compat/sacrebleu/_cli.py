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
process (the numbers do not change).
"""

from __future__ import annotations

import os
import signal
import sys
import traceback

from evalfw.compat.sacrebleu._args import FORMATS, build_parser
from evalfw.compat.sacrebleu._messages import Console, Stop
from evalfw.compat.sacrebleu._run import run
from evalfw.errors import EvalfwError

__all__ = ["build_parser", "main"]


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """Run the command (``prog``: its name in messages, default from ``sys.argv[0]``);
    returns the exit status."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the command quietly
    args = build_parser(prog).parse_args(argv)
    env_format = os.environ.get("SACREBLEU_FORMAT", "").lower()
    if "SACREBLEU_FORMAT" in os.environ and env_format in FORMATS:
        args.format = env_format
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    console = Console(args.quiet, not args.no_color)
    try:
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
    if os.environ.get("EVALFW_DEBUG") == "1":
        traceback.print_exception(exc)
    if isinstance(exc, EvalfwError):
        sys.stderr.write(f"evalfw: error: {exc}\n")
        return exc.exit_code
    sys.stderr.write(traceback.format_exception_only(exc)[-1])
    return 1


def console_main() -> None:
    """The console script. Like the ``evalfw`` command it asks numpy's OpenBLAS for one
    thread unless the user chose a count: its threads busy-wait for work after numpy loads,
    and the products here are too small to use them."""
    if "numpy" not in sys.modules and not {"OPENBLAS_NUM_THREADS",
                                            "OMP_NUM_THREADS"} & set(os.environ):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    sys.exit(main())


if __name__ == "__main__":
    console_main()
