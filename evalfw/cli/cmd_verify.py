"""``evalfw verify``: re-run a stored version and check that every number is identical."""

from __future__ import annotations

import argparse
from pathlib import Path

from evalfw.cli._options import (
    add_format,
    add_plugins_dir,
    add_runs_dir,
    host_for,
    write_json,
    write_lines,
)
from evalfw.errors import EvalfwError, VerificationFailed

#: differences the text output lists before saying how many more there are (a changed seed
#: moves every p-value; --json lists them all)
TEXT_LIMIT = 50

HELP = "re-run a stored run on its recorded inputs; exit 0 only if every number is identical"
EPILOG = """examples:
  evalfw verify wmt
  evalfw verify runs/wmt/20250101T120000Z-001
  evalfw verify wmt --data-root ../shared/data/wmt22
  evalfw verify /tmp/copied-version --data-root ../shared/data/wmt22  # a copy, its data
  evalfw verify their-run --plugins-dir their-plugins   # only if you trust that code

A record is data, wherever it came from: verify opens only files under the current directory
and under --data-root directories, and loads plugins only from the directories you name with
--plugins-dir (a run that needs others says which).

Exit status 0: identical. 1: something differs; each difference is listed (an input whose
sha256 changed, a component or package version, a score and by how much). 2: the record
cannot be verified here, and says why (the run cannot be found or read, an input is missing
or unreadable, a plugin it needs is not installed).

The record holds its resolved config: verify re-runs that, not the YAML file, so a version
directory copied elsewhere verifies too (its data found with --data-root DIR when the config
reads it from data_root).
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN", help="version directory, EXPERIMENT or "
                        "EXPERIMENT/VERSION")
    add_runs_dir(parser)
    parser.add_argument("--data-root", action="append", default=[], type=Path, metavar="DIR",
                        help="also read the record's files under DIR (repeatable; default: "
                        "only under the current directory)")
    add_plugins_dir(parser, "trust and load")
    add_format(parser, ("table", "json"))


def execute(args: argparse.Namespace) -> int:
    from evalfw.runner.verify import verify

    verdict = verify(args.run, args.runs_dir, host=host_for(args),
                     data_roots=args.data_root)
    if args.format == "json":
        write_json({"run": str(verdict.run), "verified": verdict.ok,
                    "compared": verdict.compared, "problems": verdict.problems,
                    "unverifiable": verdict.unverifiable, "notes": verdict.notes})
    else:
        write_lines(verdict.lines(TEXT_LIMIT))
    if not verdict.problems and verdict.unverifiable:  # nothing differs: nothing is known
        raise EvalfwError(f"cannot verify {verdict.run} here: {verdict.unverifiable[0]}"
                          + (f" (and {len(verdict.unverifiable) - 1} more reason(s), listed "
                             "above)" if len(verdict.unverifiable) > 1 else ""))
    if not verdict.ok:
        raise VerificationFailed(
            f"{verdict.run} does not reproduce: {verdict.problems[0]}"
            + (f" (and {len(verdict.problems) - 1} more difference(s), listed above"
               f"{'' if len(verdict.problems) <= TEXT_LIMIT else '; all of them with --json'})"
               if len(verdict.problems) > 1 else ""))
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
