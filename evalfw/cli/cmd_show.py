"""``evalfw show``: re-render a stored run version without recomputing anything."""

from __future__ import annotations

import argparse

from evalfw.cli._options import add_format, add_plugins_dir, add_runs_dir, host_for, render, write

HELP = "re-render a stored run (no recomputation)"
EPILOG = """examples:
  evalfw show wmt                          # latest version of experiment 'wmt'
  evalfw show wmt/20250101T120000Z-001 --format latex
  evalfw show runs/wmt/20250101T120000Z-001 --format csv
  evalfw show wmt --runs-dir /data/runs

RUN is a version directory, <experiment> (its latest version) or <experiment>/<version>
under --runs-dir.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN", help="version directory, EXPERIMENT or "
                        "EXPERIMENT/VERSION")
    add_format(parser)
    add_plugins_dir(parser, "load reporters from")
    add_runs_dir(parser)


def execute(args: argparse.Namespace) -> int:
    from evalfw.records.load import open_run

    stored = open_run(args.run, args.runs_dir)
    write(render(host_for(args), args.format, stored.record))
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
