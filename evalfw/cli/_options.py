"""Options and helpers shared by the commands: the plugin host of a command, ``--format``,
``--runs-dir``."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost

DEFAULT_FORMAT = "table"


def add_runs_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs-dir", type=Path, default=Path("runs"), metavar="DIR",
                        help="where experiments are stored (default: runs)")


def add_plugins_dir(parser: argparse.ArgumentParser, what: str = "load") -> None:
    parser.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                        help=f"{what} the local plugin files of DIR (repeatable)")


def add_json(parser: argparse.ArgumentParser) -> None:
    """``--json``: the same as ``--format json`` (both are accepted by every printing command)."""
    parser.add_argument("--json", dest="format", action="store_const", const="json",
                        help="machine-readable output (the same as --format json)")


def add_format(parser: argparse.ArgumentParser, choices: tuple[str, ...] | None = None,
               default: str = DEFAULT_FORMAT) -> None:
    """``--format/-f`` (a reporter's name, or one of ``choices``) and ``--json``."""
    if choices is None:
        parser.add_argument("--format", "-f", default=default, metavar="NAME",
                            help="report writer: table (default), json, csv, markdown, latex, "
                            "html, or a reporter plugin's name")
    else:
        parser.add_argument("--format", "-f", choices=choices, default=default,
                            help=f"output: {' or '.join(choices)} (default: {default})")
    add_json(parser)


def write_json(data: Any) -> None:
    """``data`` as JSON on standard output, always valid UTF-8: text that cannot be encoded
    (a file name with a byte that is not UTF-8) is written as a ``\\uXXXX`` escape."""
    write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


def write(text: str) -> None:
    """Text on standard output; characters the stream cannot encode become escapes instead
    of an error or invalid bytes."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    sys.stdout.write(text.encode(encoding, "backslashreplace").decode(encoding))


def warn(text: str) -> None:
    """``evalfw: warning: <text>`` on stderr, the text as :func:`evalfw.names.shown` prints
    it (a name in it never drives the terminal)."""
    from evalfw.names import shown

    sys.stderr.write(f"evalfw: warning: {shown(text)}\n")


def write_lines(lines: list[str]) -> None:
    """Lines of text that hold names and paths, each as :func:`evalfw.names.shown` prints
    it: a control or bidi character in a name never reaches the terminal raw."""
    from evalfw.names import shown

    write("".join(shown(line) + "\n" for line in lines))


def terminal_width(given: int | None = None) -> int | None:
    """The width to fit printed tables to: ``given`` (``--width``), else ``$COLUMNS``, else
    the terminal's when standard output is one; ``None`` (no limit) for pipes and files."""
    if given is not None:
        return given
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def add_width(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--width", type=int, default=None, metavar="N",
                        help="fit the table to N columns (default: $COLUMNS, else the "
                             "terminal's width; no limit when output is not a terminal)")


def render(host: PluginHost, name: str, record: Mapping[str, Any],
           width: int | None = None) -> str:
    """Render ``record`` with reporter ``name`` (unknown names fail with suggestions); the
    terminal table is fitted to ``width`` or :func:`terminal_width`."""
    fitted = terminal_width(width)
    options = {"width": max(20, fitted)} if name == "table" and fitted is not None else {}
    text: str = host.component("reporter", name, options).text(record)
    return text


def host_for(args: argparse.Namespace) -> PluginHost:
    """The command's one plugin host, built on first use from the global switches
    (``--disable-plugin``, ``--no-plugin-autoload``) and the command's ``--plugins-dir``, then
    passed to everything the command calls."""
    host = getattr(args, "_host", None)
    if host is None:
        from evalfw.host.host import PluginHost

        host = PluginHost.create(
            disabled=getattr(args, "disable_plugin", None) or (),
            autoload=False if getattr(args, "no_plugin_autoload", False) else None,
            plugin_dirs=getattr(args, "plugins_dir", None) or ())
        args._host = host
    return host
