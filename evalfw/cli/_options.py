"""Options and helpers shared by the commands: the plugin host of a command, ``--format``,
``--runs-dir``."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost

DEFAULT_FORMAT = "table"


def add_runs_dir(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs-dir", type=Path, default=Path("runs"), metavar="DIR",
                        help="where experiments are stored (default: runs)")


def add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", "-f", default=DEFAULT_FORMAT, metavar="NAME",
                        help="report writer: table (default), json, csv, markdown, latex, or a "
                        "reporter plugin's name")


def render(host: PluginHost, name: str, record: Mapping[str, Any]) -> str:
    """Render ``record`` with reporter ``name`` (unknown names fail with suggestions)."""
    return host.component("reporter", name, {}).render(record)


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
