"""``evalfw schema``: print the experiment config's JSON Schema, including plugin components."""

from __future__ import annotations

import argparse

from evalfw.cli._options import add_format, add_plugins_dir, host_for, write_json

HELP = "print the JSON Schema (draft 2020-12) of experiment configs, for editors"
EPILOG = """examples:
  evalfw schema > experiment.schema.json
  evalfw schema --plugins-dir plugins/local
  evalfw schema --static

The schema lists every installed component by name with its options, so an editor can
complete and check `tokenizer:`, `smoothing: {name: ..., ...}` and the like. Point the YAML
language server at it with `# yaml-language-server: $schema=experiment.schema.json`.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    add_plugins_dir(parser, "also describe")
    add_format(parser, ("json",), "json")
    parser.add_argument("--static", action="store_true",
                        help="print only the shipped schema, without plugin knowledge")


def execute(args: argparse.Namespace) -> int:
    from evalfw.config import combined_schema, static_schema

    if args.static:
        schema = static_schema()
    else:
        schema = combined_schema(host_for(args))
    write_json(schema)
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
