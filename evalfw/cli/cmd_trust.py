"""``evalfw trust``: show and edit the per-user list of what ``evalfw verify`` may read
(:mod:`evalfw.runner.trust_list`)."""

from __future__ import annotations

import argparse
import os
from collections import Counter

from evalfw.cli._options import add_format, write_json, write_lines

HELP = "show or edit what `evalfw verify` may read: files your runs read, directories you trust"
EPILOG = """examples:
  evalfw trust list                         # directories, and the files runs read per folder
  evalfw trust list --json                  # every entry
  evalfw trust add ../shared/data/wmt22     # trust everything under a directory
  evalfw trust remove ../shared/data/wmt22  # forget it (and every file noted under it)

`evalfw run` adds the files it read (config, sources, references, systems, score files), so
`evalfw verify` of your own runs passes from where you ran them, wherever the data lies. A
record from elsewhere naming other files is still refused; plugin code is never trusted this
way (give --plugins-dir to verify). The list is $EVALFW_CONFIG_DIR/trusted-paths.json, else
$XDG_CONFIG_HOME/evalfw/, else ~/.config/evalfw/.
"""


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="trust_action", metavar="list | add | remove")
    for name, text, takes_path in (
            ("list", "show the trust list", False),
            ("add", "trust every file under DIR", True),
            ("remove", "remove PATH and every file noted under it", True)):
        p = sub.add_parser(name, help=text, description=text, epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show tracebacks for errors")
        if takes_path:
            p.add_argument("path", metavar="DIR" if name == "add" else "PATH")
        else:
            add_format(p, ("table", "json"))
    parser.set_defaults(trust_action="list", format="table")


def execute(args: argparse.Namespace) -> int:
    from evalfw.runner import trust_list

    if args.trust_action == "add":
        write_lines([f"trusted: {trust_list.add_directory(args.path)}"])
        return 0
    if args.trust_action == "remove":
        removed = trust_list.remove(args.path)
        if not removed:
            write_lines([f"nothing removed: {trust_list.real(args.path)} is not in the trust "
                         f"list {trust_list.list_path()}"])
        write_lines([f"removed: {path}" for path in removed])
        return 0
    found = trust_list.read()
    if args.format == "json":
        write_json({"path": str(trust_list.list_path()), **found.to_json()})
        return 0
    lines = [f"trust list: {trust_list.list_path()}"]
    lines += [f"  directory {d}" for d in found.directories]
    per_folder = Counter(os.path.dirname(f) for f in found.files)
    lines += [f"  {n} file{'s' if n != 1 else ''} read by runs in {folder}"
              for folder, n in sorted(per_folder.items())]
    if len(lines) == 1:
        lines.append("  (empty: runs add the files they read; `evalfw trust add DIR` adds a "
                     "directory)")
    write_lines(lines)
    return 0


__all__ = ["configure", "EPILOG", "execute", "HELP"]
