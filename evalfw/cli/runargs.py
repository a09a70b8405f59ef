"""Options and helpers shared by the commands that read stored runs (run, show, verify, runs)."""

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


def default_host() -> PluginHost:
    from evalfw.api import default_host as host

    return host()
