"""``evalfw runs``: list stored versions (time, config and input hashes, headline scores);
``evalfw runs prune``: remove old versions (:mod:`evalfw.cli._runs_prune`)."""

from __future__ import annotations

import argparse
from typing import Any

from evalfw.cli._options import (
    add_format,
    add_plugins_dir,
    add_runs_dir,
    add_width,
    host_for,
    warn,
    write_json,
)

HELP = "list stored run versions (time, config and input hashes, headline scores); prune them"
EPILOG = """examples:
  evalfw runs
  evalfw runs wmt
  evalfw runs wmt --json
  evalfw runs --width 100            # fit 100 columns (default: $COLUMNS or the terminal)
  evalfw runs prune --keep 5         # see `evalfw runs prune --help`

Columns: RUN (experiment/version), CREATED (UTC), CONFIG (sha256 of the config as completed),
INPUTS (a hash of the contents of every input file: two runs of one config on other data
differ here), TEST SETS, HEADLINE (per test set, the best system by the first metric).
"""


class _AnyWord(dict[str, argparse.ArgumentParser]):
    """Choices that accept every word: argparse checks a sub-command's name against its
    choices before the action sees it, and here a non-action word is an experiment."""

    def __contains__(self, key: object) -> bool:
        return True


class _ActionOrExperiment(argparse._SubParsersAction):
    """``runs prune ...`` runs the action; any other word is the experiment to list, so
    ``evalfw runs wmt`` keeps its meaning."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choices = _AnyWord()

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if values[0] in self._name_parser_map:
            super().__call__(parser, namespace, values, option_string)
            return
        if getattr(namespace, "experiment", None) is not None:  # a second word: not ours
            vars(namespace).setdefault(argparse._UNRECOGNIZED_ARGS_ATTR, []).extend(values)
            return
        namespace.experiment = values[0]
        if values[1:]:  # options after the experiment: `evalfw runs wmt --json`
            _, extra = parser.parse_known_args(values[1:], namespace)
            if extra:
                vars(namespace).setdefault(argparse._UNRECOGNIZED_ARGS_ATTR, []).extend(extra)


def configure(parser: argparse.ArgumentParser) -> None:
    from evalfw.cli import _runs_prune

    add_runs_dir(parser)
    add_plugins_dir(parser)
    add_format(parser, ("table", "json"))
    add_width(parser)
    parser.set_defaults(experiment=None)
    parser.register("action", "action_or_experiment", _ActionOrExperiment)
    sub = parser.add_subparsers(dest="runs_action", action="action_or_experiment",
                                metavar="EXPERIMENT | prune",
                                help="only this experiment's versions; or `prune` to remove "
                                     "old versions")
    prune = sub.add_parser("prune", help=_runs_prune.HELP, description=_runs_prune.HELP,
                           epilog=_runs_prune.EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    prune.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show tracebacks for errors")
    _runs_prune.configure(prune)
    prune.set_defaults(_execute=_runs_prune.execute)


def execute(args: argparse.Namespace) -> int:
    from evalfw.cli import _runs_table
    from evalfw.cli._options import terminal_width
    from evalfw.records.load import list_runs
    from evalfw.runner.recorded import judged, rescored

    host = host_for(args)
    entries = list_runs(args.runs_dir, args.experiment, lambda r: judged(r, host)[0],
                        lambda stored: rescored(stored, host))
    for entry in entries:  # a record whose scores its statistics do not give: said once
        if "damaged" in entry and entry["damaged"].startswith("the recorded score"):
            warn(f"{entry['path']}: {entry['damaged']}")
    if args.format == "json":
        write_json(entries)
        return 0
    if not entries:
        print(f"no runs in {args.runs_dir}")
        return 0
    rows = [_runs_table.row(e) for e in entries]
    print("\n".join(_runs_table.table(rows, terminal_width(args.width))))
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
