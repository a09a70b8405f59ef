"""``evalfw plugins``: list loaded plugins, their distributions and the components they provide."""

from __future__ import annotations

import argparse
import importlib
import warnings
from typing import TYPE_CHECKING, Any, cast

from evalfw.cli._options import add_format, add_plugins_dir, write_json, write_lines

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric

HELP = "list plugins, their distributions and versions, and the components each provides"
EPILOG = """examples:
  evalfw plugins            third-party plugins (entry points and plugin directories)
  evalfw plugins --all      built-in plugins too, with every component
  evalfw plugins --json     machine-readable
  evalfw plugins --plugins-dir plugins/local

The last lines list evalfw's compiled kernels, each "compiled" or the fallback that computes
the same numbers without it (EVALFW_NATIVE=0 switches them off).
"""


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--all", action="store_true", help="include built-in plugins")
    add_format(p, ("table", "json"))
    add_plugins_dir(p, "also load")


def describe(host: Any, include_builtin: bool) -> list[dict[str, Any]]:
    rows = []
    registries = host.registries  # built first: a plugin whose classes are refused is broken
    loaded = {info.name for info in host.plugins}
    refused = {info.name: info.error for info in host.broken if info.name in loaded}
    for info in [*host.plugins, *(b for b in host.broken if b.name not in loaded)]:
        if info.source == "builtin" and not include_builtin:
            continue
        row = info.to_json()
        if info.name in refused:
            row["error"] = refused[info.name]
        row["status"] = "error" if "error" in row else "ok"
        if "error" not in row or info.name in refused:  # what it provides besides
            comps = host.components_of(info.name)
            row["components"] = comps
            conflicts = [f"{kind} '{name}'" for kind, reg in registries.items()
                         for name, entries in reg.conflicts.items()
                         if any(e.plugin.name == info.name for e in entries)]
            if conflicts and row["status"] == "ok":
                row["status"] = "conflict"
                row["conflicts"] = conflicts
            problem = import_problem(registries, info.name)
            if problem and row["status"] == "ok":
                row["status"] = "error"
                row["error"] = problem
        rows.append(row)
    return rows


def import_problem(registries: dict[str, Any], plugin: str) -> str | None:
    """The first module a component of ``plugin`` declares in ``imports`` that fails to
    import (a broken or incomplete install of its stack), with the error; or None."""
    for kind, reg in registries.items():
        for entry in reg:
            if entry.plugin.name != plugin:
                continue
            for module in getattr(entry.cls, "imports", ()):
                try:
                    with warnings.catch_warnings():  # a stack's deprecation notes are not ours
                        warnings.simplefilter("ignore")
                        importlib.import_module(module)
                except Exception as exc:  # whatever the stack raises is what the user must see
                    return (f"{kind.replace('_', ' ')} '{entry.name}' cannot import {module}: "
                            f"{type(exc).__name__}: {exc}")
    return None


def execute(args: argparse.Namespace) -> int:
    from evalfw.cli._options import host_for

    host = host_for(args)
    rows = describe(host, args.all)
    if args.format == "json":
        write_json(rows)
        return 0
    lines = [] if rows else ["no third-party plugins installed (use --all to list the "
                             "built-in ones)"]
    for row in rows:
        origin = (f"{row['distribution']} {row['version']}" if row.get("distribution")
                  else row.get("path") or row["source"])
        lines.append(f"{row['name']}  [{origin}]  {row['status']}")
        if row.get("error"):
            lines.append(f"    error: {row['error']}")
        for kind, names in row.get("components", {}).items():
            lines.append(f"    {kind}: {', '.join(names)}")
        for c in row.get("conflicts", []):
            lines.append(f"    conflict: {c} is also provided by another plugin")
    for name in host.registry("metric").names():
        # the metric registry holds Metric subclasses only (checked when they register)
        text = cast("type[Metric]", host.registry("metric").get(name)).implementation()
        if text:
            lines.append(f"{name} statistics: {text}")
    write_lines(lines)
    print_kernels()
    return 0


def print_kernels() -> None:
    """One line per compiled kernel: compiled, or which fallback computes and why."""
    from evalfw import kernels

    print("compiled kernels:")
    for kernel in kernels.KERNELS:
        print(f"    {kernel.computes}: {kernels.status(kernel)}  [{kernel.module}]")


__all__ = ["configure", "describe", "EPILOG", "execute", "HELP", "import_problem", "print_kernels"]
