"""The per-metric flags of ``evalfw score``, derived from each registered metric class's
``cli_flags`` (see :mod:`evalfw.metrics.flags`): one argument group per metric, added once the
command's plugin host is known (a metric from ``--plugins-dir`` brings its flags too)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from evalfw.errors import PluginError
from evalfw.metrics.flags import ResolvedFlag, metric_flags

if TYPE_CHECKING:
    from evalfw.plugin.protocols import Components


def _checked(convert: Callable[[str], Any]) -> Callable[[str], Any]:
    """argparse reports ``ArgumentTypeError`` with its message (a ValueError's is dropped)."""
    def run(text: str) -> Any:
        try:
            return convert(text)
        except (TypeError, ValueError) as exc:
            expected = {int: "an integer", float: "a number"}.get(convert)  # type: ignore[call-overload]
            message = f"expected {expected}, got {text!r}" if expected else str(exc)
            raise argparse.ArgumentTypeError(message or f"invalid value {text!r}") from None
    run.__name__ = getattr(convert, "__name__", "value")
    return run


def _flags(host: Components) -> list[tuple[str, list[ResolvedFlag]]]:
    """Each metric's flags: the built-in metrics' first, so a plugin's flag that clashes with
    one of theirs is the one refused."""
    registry = host.registry("metric")
    out = []
    for name in sorted(registry.names(), key=lambda n: (not _builtin(host, n), n)):
        cls = registry.get(name)
        try:
            flags = metric_flags(cls)
        except Exception as exc:  # a plugin's malformed declaration: name the plugin
            raise PluginError(f"{_provider(host, name)}: metric '{name}' declares unusable "
                              f"cli_flags: {exc}") from None
        if flags:
            out.append((name, flags))
    return out


def _builtin(host: Components, name: str) -> bool:
    return getattr(host.registry("metric").entry(name).plugin, "source", "") == "builtin"


def _provider(host: Components, name: str) -> str:
    plugin = host.registry("metric").entry(name).plugin
    return str(getattr(plugin, "provider", "a plugin"))


def add_metric_flags(parser: argparse.ArgumentParser, host: Components) -> None:
    """Add every registered metric's flags (once per parser)."""
    if getattr(parser, "_metric_flags_added", False):
        return
    parser._metric_flags_added = True  # type: ignore[attr-defined]
    owners: dict[str, str] = {}
    for name, flags in _flags(host):
        group = parser.add_argument_group(f"{name} options (with -m {name})")
        for f in flags:
            taken = next((owners[n] for n in f.names if n in owners), None)
            if taken is not None:
                raise PluginError(f"{_provider(host, name)}: metric '{name}' declares flag "
                                  f"{f.long}, which metric '{taken}' has already; rename it "
                                  "with MetricFlag(flag=...)")
            owners.update(dict.fromkeys(f.names, name))
            kwargs: dict[str, Any] = {"dest": f.dest, "default": None, "help": f.help}
            if f.switch:
                kwargs.update(action="store_const", const=True)
            else:
                kwargs.update(type=_checked(f.convert or str), metavar=f.option.upper())
            try:
                group.add_argument(*f.names, **kwargs)
            except (argparse.ArgumentError, ValueError) as exc:
                raise PluginError(f"{_provider(host, name)}: metric '{name}' declares flag "
                                  f"{f.long}, which evalfw score cannot offer ({exc}); rename "
                                  "it with MetricFlag(flag=...)") from None


def metric_options(args: argparse.Namespace, host: Components, name: str) -> dict[str, Any]:
    """The options the command line gives metric ``name`` (flags not given are left out)."""
    cls = host.registry("metric").get(name)
    out = {}
    for f in metric_flags(cls):
        value = getattr(args, f.dest, None)
        if value is not None:
            out[f.option] = value
    return out


def warn_unused(args: argparse.Namespace, host: Components, selected: list[str]) -> None:
    """Flags of metrics not selected with ``-m`` have no effect (sacreBLEU ignores them
    silently); say so on standard error."""
    for name, flags in _flags(host):
        if name in selected:
            continue
        for f in flags:
            if getattr(args, f.dest, None) is not None:
                sys.stderr.write(f"evalfw: warning: {f.long} has no effect: metric {name} is "
                                 f"not selected (add it with -m {name})\n")


__all__ = ["add_metric_flags", "metric_options", "warn_unused"]
