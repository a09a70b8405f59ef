"""``evalfw meta``: how well a stored run's metrics agree with its human judgements."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from evalfw.cli._options import (
    add_format,
    add_plugins_dir,
    add_runs_dir,
    add_width,
    host_for,
    terminal_width,
    write,
    write_json,
)
from evalfw.limits import LIMITS

HELP = "meta-evaluate a stored run: each metric's agreement with its human judgements"
EPILOG = """examples:
  evalfw meta meta-ted                             # the run's meta-evaluation, as stored
  evalfw meta meta-ted --format csv > meta.csv     # one row per statistic x metric
  evalfw meta meta-ted --format csv --table tests  # every test between two metrics
  evalfw meta meta-ted --level system --samples 2000 --permutations 5000
  evalfw meta wmt --human da                       # a run without a meta_evaluation block
  evalfw meta meta-ted --recompute                 # again from the stored statistics

RUN is a version directory, <experiment> (its latest version) or <experiment>/<version>
under --runs-dir. Without options the stored meta-evaluation is shown as it is; an option
(or --recompute) computes it again from the run's stored statistics and judgements, with the
run's seed, and prints it (nothing is stored; with the recorded settings the numbers are the
recorded ones). --format html writes the run's whole report page with that meta-evaluation.
"""

TABLES = ("statistics", "tests", "deltas", "human")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN", help="version directory, EXPERIMENT or "
                        "EXPERIMENT/VERSION")
    parser.add_argument("--human", metavar="NAME",
                        help="the human judgements to compare with (the run's name for them)")
    parser.add_argument("--metric", action="append", default=[], metavar="NAME",
                        help="a metric to meta-evaluate, by its name in the config "
                             "(repeatable; default: the run's choice, else every metric)")
    parser.add_argument("--level", action="append", choices=("system", "segment"),
                        help="system or segment (repeatable; default: both)")
    parser.add_argument("--grouping", action="append", choices=("item", "none"),
                        help="segment level: item, none (repeatable; default: both)")
    parser.add_argument("--samples", type=LIMITS["samples"].argtype(), metavar="N",
                        help="bootstrap resamples (default: the run's, else 1000)")
    parser.add_argument("--permutations", type=LIMITS["samples"].argtype(), metavar="N",
                        help="permutation trials per pair of metrics (default: the run's, "
                             "else 1000)")
    parser.add_argument("--alpha", type=float, metavar="P", help="significance threshold")
    parser.add_argument("--confidence", type=float, metavar="C", help="interval level")
    parser.add_argument("--correction", choices=("holm", "bonferroni", "none"))
    parser.add_argument("--include-human", action="store_true", default=None,
                        help="keep the human translations among the systems")
    parser.add_argument("--recompute", action="store_true",
                        help="compute again even with the stored settings")
    parser.add_argument("--table", choices=TABLES, default="statistics",
                        help="--format csv: which table (default: statistics)")
    add_format(parser, ("table", "json", "csv", "html"))
    add_runs_dir(parser)
    add_plugins_dir(parser, "load metrics from")
    add_width(parser)


def _changes(args: argparse.Namespace) -> dict[str, Any]:
    from evalfw.errors import ConfigError

    out: dict[str, Any] = {}
    for key, value in (("human", args.human), ("metrics", args.metric or None),
                       ("levels", args.level), ("groupings", args.grouping),
                       ("samples", args.samples), ("permutations", args.permutations),
                       ("alpha", args.alpha), ("confidence", args.confidence),
                       ("correction", args.correction), ("include_human", args.include_human)):
        if value is not None:
            out[key] = value
    for key in ("alpha", "confidence"):
        if key in out and not 0 < out[key] < 1:
            raise ConfigError(f"--{key} {out[key]!r}: expected a number between 0 and 1")
    return out


def execute(args: argparse.Namespace) -> int:
    from evalfw.errors import ConfigError
    from evalfw.records.load import open_run
    from evalfw.runner.meta import meta_of_record

    stored = open_run(args.run, args.runs_dir)
    changes = _changes(args)
    section = stored.record.get("meta_evaluation")
    if changes or args.recompute or not section:
        if not section and "human" not in changes and \
                "meta_evaluation" not in (stored.record["config"]["resolved"] or {}):
            have = sorted({j["name"] for j in stored.record.get("judgements", ())})
            raise ConfigError(f"{stored.path}: the run has no meta-evaluation; name the human "
                              f"judgements to compare with: --human NAME (the run has: "
                              f"{', '.join(have) or 'no human judgements'})")
        if sys.stderr.isatty():
            sys.stderr.write("evalfw: meta-evaluating the stored statistics ...\n")
        section = meta_of_record(stored, host_for(args), changes)
    if args.format == "json":
        write_json(section)
    elif args.format == "csv":
        from evalfw.reports._meta import csv_text

        write(csv_text(section, args.table))
    elif args.format == "html":
        from evalfw.reports._html import render

        write(render({**stored.record, "meta_evaluation": section}))
    else:
        from evalfw.reports._meta_text import render as render_text

        lines = render_text({"meta_evaluation": section}, terminal_width(args.width))
        write(f"{stored.path}\n" + "\n".join(lines[1:]) + "\n")
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
