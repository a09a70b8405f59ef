"""``evalfw show``: re-render a stored run version without recomputing anything."""

from __future__ import annotations

import argparse
import sys

from evalfw.cli._options import (
    add_format,
    add_plugins_dir,
    add_runs_dir,
    add_width,
    host_for,
    render,
    warn,
    write,
)

HELP = "re-render a stored run (no recomputation)"
EPILOG = """examples:
  evalfw show wmt                          # latest version of experiment 'wmt'
  evalfw show wmt/20250101T120000Z-001 --format latex
  evalfw show runs/wmt/20250101T120000Z-001 --format csv
  evalfw show wmt --runs-dir /data/runs
  evalfw show wmt --test-set en-de --metric sacrebleu --metric chrf   # a part of the results
  evalfw show wmt --width 100      # fit 100 columns (wide tables wrap into column blocks)

RUN is a version directory, <experiment> (its latest version) or <experiment>/<version>
under --runs-dir.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN", help="version directory, EXPERIMENT or "
                        "EXPERIMENT/VERSION")
    add_format(parser)
    add_plugins_dir(parser, "load reporters from")
    add_runs_dir(parser)
    parser.add_argument("--test-set", action="append", default=[], metavar="NAME",
                        help="only this test set (repeatable; default: all)")
    parser.add_argument("--metric", action="append", default=[], metavar="NAME",
                        help="only this metric, by its name in the config (repeatable; "
                             "default: all)")
    add_width(parser)


def execute(args: argparse.Namespace) -> int:
    from evalfw.records.load import files_problem, open_run

    stored = open_run(args.run, args.runs_dir)
    record = stored.record
    problem = files_problem(stored.path, record)
    if problem is not None:
        warn(f"{stored.path}: {problem}; its per-segment statistics are not the ones "
             "recorded, so `evalfw verify` and `evalfw compare` will refuse it")
    if args.test_set or args.metric:
        from evalfw.records.select import select

        record = select(record, args.test_set, args.metric)
    from evalfw.runner.recorded import judged, rescored

    host = host_for(args)
    record, notes = judged(record, host)  # marks follow the installed metric, not the record
    for note in notes:
        warn(f"{stored.path}: {note}")
    # the check compare makes: scores the stored statistics do not give are not shown as good
    edited = rescored(stored, host) if problem is None else None
    write(render(host, args.format, record, args.width))
    if edited is not None:
        sys.stdout.flush()
        warn(f"{stored.path}: {edited}")
        return 1
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
