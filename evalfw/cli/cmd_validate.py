"""``evalfw validate``: check a config (schema, plugins, requirements, names, files) without
scoring (:mod:`evalfw.runner.validate`)."""

from __future__ import annotations

import argparse

from evalfw.cli._options import add_format, host_for, warn, write_json
from evalfw.config import add_set_option

HELP = "check an experiment config without scoring anything"
EPILOG = """examples:
  evalfw validate configs/wmt.yaml
  evalfw validate configs/wmt.yaml --set data_root=../shared/data/wmt22
  evalfw validate configs/wmt.yaml --set metrics[0].max_order=3

Checks what `evalfw run` checks before scoring: YAML syntax, the schema, component names and
options, `requires:`, every metric built for every test set, the reporters, the significance
block (the baseline is a system of every test set, with a did-you-mean) and every input file
read as the run reads it (UTF-8, the files of a test set aligned line by line). Prints
`ok: EXPERIMENT (N test sets, M metrics)`, then what was checked and what was not (no segment
is scored); data warnings go to stderr. Exit 2 with `evalfw: error: ...` on the first problem.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", metavar="CONFIG", help="experiment config (YAML)")
    add_set_option(parser)
    add_format(parser, ("table", "json"))


def execute(args: argparse.Namespace) -> int:
    from evalfw.runner.validate import validate

    found = validate(args.config, args.overrides, host=host_for(args))
    for warning in found.warnings:
        warn(str(warning))
    if found.resolution_warning:
        warn(str(found.resolution_warning))
    if args.format == "json":
        write_json({**found.to_json(), "config": args.config})
    else:
        print(f"ok: {found.config.summary()}")
        for line in found.checked:
            print(f"  checked: {line}")
        for line in found.not_checked:
            print(f"  not checked: {line}")
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
