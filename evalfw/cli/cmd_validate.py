"""``evalfw validate``: check a config (schema, plugins, requirements, files) without scoring."""

from __future__ import annotations

import argparse

from evalfw.cli._options import add_format, host_for, write_json
from evalfw.config import add_set_option, load_config

HELP = "check an experiment config without scoring anything"
EPILOG = """examples:
  evalfw validate configs/wmt.yaml
  evalfw validate configs/wmt.yaml --set data_root=../shared/data/wmt22
  evalfw validate configs/wmt.yaml --set metrics[0].max_order=3

Checks YAML syntax, the schema, component names and options, `requires:`, and that every
data file exists (files are not read). Prints `ok: EXPERIMENT (N test sets, M metrics)`.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", metavar="CONFIG", help="experiment config (YAML)")
    add_set_option(parser)
    add_format(parser, ("table", "json"))


def execute(args: argparse.Namespace) -> int:
    config, _host = load_config(args.config, overrides=args.overrides, host=host_for(args))
    if args.format == "json":
        write_json({"ok": True, "config": args.config, "experiment": config.experiment,
                    "test_sets": [t.name for t in config.test_sets],
                    "metrics": [m.name for m in config.metrics]})
    else:
        print(f"ok: {config.summary()}")
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
