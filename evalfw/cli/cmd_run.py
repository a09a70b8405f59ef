"""``evalfw run``: score an experiment config and store a new, never-overwritten version."""

from __future__ import annotations

import argparse
import os
import sys
import warnings

from evalfw.cli._options import add_format, host_for, render, write
from evalfw.config import add_set_option

HELP = "run an experiment config and store a versioned, verifiable record"
EPILOG = """examples:
  evalfw run configs/wmt.yaml
  evalfw run configs/wmt.yaml --set data_root=../shared/data/wmt22 --jobs 4
  evalfw run configs/wmt.yaml --format latex --quiet

Writes runs/<experiment>/<version>/ (record.json, segments.npz and the config's reports) and
prints the results table (or --format) on stdout. Data warnings and the version's path go
to stderr. Re-render later with `evalfw show`, prove the numbers with `evalfw verify`.
"""


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", metavar="CONFIG", help="experiment config (YAML)")
    add_set_option(parser)
    add_format(parser)
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress bar, warnings or storage note on stderr")
    parser.add_argument("--jobs", "-j", type=_positive, default=1, metavar="N",
                        help="score systems in N processes (results are identical)")
    parser.add_argument("--no-cache", action="store_true",
                        help="recompute every statistic instead of reusing cached ones of "
                             "unchanged inputs (cache: <output_dir>/.cache, or $EVALFW_CACHE_DIR)")


def command_line(args: argparse.Namespace) -> list[str]:
    """The command as recorded: rebuilt from the parsed options, so it is the same whether
    evalfw was started from a shell or through ``main([...])``."""
    argv = ["evalfw", "run", args.config]
    for text in args.overrides:
        argv += ["--set", text]
    if args.format != "table":
        argv += ["--format", args.format]
    if args.jobs != 1:
        argv += ["--jobs", str(args.jobs)]
    return argv


def execute(args: argparse.Namespace) -> int:
    from evalfw.runner.progress import ProgressBar
    from evalfw.runner.run import run_experiment

    bar = ProgressBar.for_terminal(args.quiet)
    try:
        with warnings.catch_warnings():
            if args.quiet:  # e.g. the nltk family's UserWarning, which NLTK itself prints
                warnings.simplefilter("ignore")
            outcome = run_experiment(args.config, args.overrides, host=host_for(args),
                                     progress=bar, argv=command_line(args), jobs=args.jobs,
                                     cache=not args.no_cache)
    finally:
        if bar:
            bar.close()
    record = outcome.record
    if not args.quiet:
        for w in record["warnings"]:
            line = f":{w['first_line']}" if "first_line" in w else ""
            sys.stderr.write(f"evalfw: warning: {w['file']}{line}: {w['message']}\n")
    write(render(outcome.host, args.format, record))
    if not args.quiet:
        # normpath only tidies "configs/../runs" for the message; the store never uses it
        sys.stderr.write(f"evalfw: stored {os.path.normpath(outcome.path)}\n")
    return 0


__all__ = ["command_line", "configure", "EPILOG", "execute", "HELP"]
