"""``evalfw runs``: list stored versions with time, config hash and headline scores."""

from __future__ import annotations

import argparse

from evalfw.cli._options import add_format, add_runs_dir, write_json

HELP = "list stored run versions (time, config hash, headline scores)"
EPILOG = """examples:
  evalfw runs
  evalfw runs wmt
  evalfw runs wmt --json
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("experiment", metavar="EXPERIMENT", nargs="?",
                        help="only this experiment's versions")
    add_runs_dir(parser)
    add_format(parser, ("table", "json"))


def _score(h: dict) -> str:
    places = 2 if h["score_scale"] == 100 else 4
    return f"{h['score']:.{places}f}"


def execute(args: argparse.Namespace) -> int:
    from evalfw.records.load import list_runs

    entries = list_runs(args.runs_dir, args.experiment)
    if args.format == "json":
        write_json(entries)
        return 0
    if not entries:
        print(f"no runs in {args.runs_dir}")
        return 0
    for e in entries:
        if "error" in e:
            print(f"{e['experiment']}/{e['version']}  UNREADABLE: {e['error']}")
            continue
        heads = "; ".join(f"{h['test_set']} {h['metric']}: best {h['best_system']} "
                          f"{_score(h)} of {h['systems']}" for h in e["headline"])
        print(f"{e['experiment']}/{e['version']}  {e['created'][:19]}Z  "
              f"config {e['config_sha256'][:12]}  {heads}")
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
