"""``evalfw run``: score an experiment config and store a new, never-overwritten version."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import Any

from evalfw.cli._options import add_format, host_for, render, warn, write
from evalfw.config import add_set_option
from evalfw.limits import LIMITS

HELP = "run an experiment config and store a versioned, verifiable record"
EPILOG = """examples:
  evalfw run configs/wmt.yaml
  evalfw run configs/wmt.yaml --set data_root=../shared/data/wmt22 --jobs 4
  evalfw run configs/wmt.yaml --format latex --quiet
  evalfw run configs/wmt.yaml --executor serial
  evalfw run configs/wmt.yaml --executor dask --scheduler tcp://10.0.0.5:8786

Writes runs/<experiment>/<version>/ (record.json, segments.npz and the config's reports) and
prints the results table (or --format) on stdout. By default (auto) a run uses one process
per core when its work is large enough to gain, and says so. Progress, data warnings and the
version's path go to stderr: a live bar (stage n/N, ETA) on a terminal, one line per finished stage
otherwise (e.g. in CI logs); --quiet silences all three. Re-render later with `evalfw show`,
prove the numbers with `evalfw verify`.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", metavar="CONFIG", help="experiment config (YAML)")
    add_set_option(parser)
    add_format(parser)
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress (bar or stage lines), warnings or storage note on stderr")
    parser.add_argument("--jobs", "-j", type=LIMITS["jobs"].argtype(), default=None,
                        metavar="N", help="score systems in N processes (results are "
                                          "identical; 1: this process only)")
    parser.add_argument("--executor", metavar="NAME",
                        help="where jobs run: auto, serial, processes (what --jobs picks) or "
                             "dask (needs pip install 'evalfw[dask]'); default: the config's "
                             "executor:, else by --jobs, else auto (serial, or one process "
                             "per core when the work is large enough to gain)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="the Dask scheduler to use, e.g. tcp://HOST:8786 (implies "
                             "--executor dask; without it dask starts a local cluster)")
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
    if args.jobs is not None:
        argv += ["--jobs", str(args.jobs)]
    if args.executor:
        argv += ["--executor", args.executor]
    if args.scheduler:
        argv += ["--scheduler", args.scheduler]
    return argv


def executor_for(args: argparse.Namespace) -> Any:
    """The executor the options choose (None: the config's, else by --jobs)."""
    name = args.executor or ("dask" if args.scheduler else None)
    if name is None:
        return None
    if args.scheduler and name != "dask":
        from evalfw.errors import ConfigError

        raise ConfigError(f"--scheduler applies to --executor dask, not '{name}'; drop one")
    options = {"address": args.scheduler} if args.scheduler else {}
    if name == "processes":
        options = {"workers": max(args.jobs or 2, 2)}
    return host_for(args).component("executor", name, options)


def execute(args: argparse.Namespace) -> int:
    from evalfw.runner.progress import for_stream
    from evalfw.runner.run import run_experiment

    bar = for_stream(args.quiet)
    try:
        with warnings.catch_warnings():
            if args.quiet:  # e.g. the nltk family's UserWarning, which NLTK itself prints
                warnings.simplefilter("ignore")
            outcome = run_experiment(args.config, args.overrides, host=host_for(args),
                                     progress=bar, argv=command_line(args), jobs=args.jobs,
                                     executor=executor_for(args), cache=not args.no_cache)
    finally:
        if bar:
            bar.close()
    record = outcome.record
    if not args.quiet:
        for w in record["warnings"]:
            line = f":{w['first_line']}" if "first_line" in w else ""
            warn(f"{w['file']}{line}: {w['message']}")
        for note in outcome.evaluation.cache_notes:  # once each: the run went on without it
            warn(str(note))
    write(render(outcome.host, args.format, record))
    if not args.quiet and outcome.path is not None:  # run_experiment stores by default
        # normpath only tidies "configs/../runs" for the message; the store never uses it
        sys.stderr.write(f"evalfw: stored {os.path.normpath(outcome.path)}\n")
        for note in outcome.notes:
            sys.stderr.write(f"evalfw: {note}\n")
    return 0


__all__ = ["command_line", "configure", "EPILOG", "execute", "executor_for", "HELP"]
