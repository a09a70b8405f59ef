"""``evalfw verify``: re-run a stored version and check that every number is identical."""

from __future__ import annotations

import argparse

from evalfw.cli._options import add_runs_dir, host_for
from evalfw.errors import VerificationFailed

HELP = "re-run a stored run on its recorded inputs; exit 0 only if every number is identical"
EPILOG = """examples:
  evalfw verify wmt
  evalfw verify runs/wmt/20250101T120000Z-001

Exit status 0: identical. 1: something differs; each difference is listed (an input whose
sha256 changed, a component or package version, a score and by how much). 2: the run or its
config cannot be found or read.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", metavar="RUN", help="version directory, EXPERIMENT or "
                        "EXPERIMENT/VERSION")
    add_runs_dir(parser)


def execute(args: argparse.Namespace) -> int:
    from evalfw.runner.verify import verify

    verdict = verify(args.run, args.runs_dir, host=host_for(args))
    print("\n".join(verdict.lines()))
    if not verdict.ok:
        raise VerificationFailed(
            f"{verdict.run} does not reproduce: {verdict.problems[0]}"
            + (f" (and {len(verdict.problems) - 1} more difference(s), listed above)"
               if len(verdict.problems) > 1 else ""))
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
