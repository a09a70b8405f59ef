"""Metrics that travel to other processes (cluster workers) as their definitions.

A metric holds its components (tokenizers, smoothing) in read-only mappings that do not
pickle. :func:`make_portable` teaches ``pickle`` to send each registered metric class as
``(class, definition)``; the receiving process rebuilds it with
:meth:`~evalfw.metrics.base.Metric.from_definition` and a plugin host of its own, as
``verify`` rebuilds a recorded metric. The class travels by reference, so the receiving
process must be able to import it (evalfw's metrics, installed plugin packages).
"""

from __future__ import annotations

import copyreg
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric

_process_host: PluginHost | None = None


def rebuild(cls: type[Metric], definition: Mapping[str, Any]) -> Metric:
    """A metric unpickled here, built with this process's plugin host (made once)."""
    global _process_host
    if _process_host is None:
        from evalfw.host.host import PluginHost

        _process_host = PluginHost.create()
    return cls.from_definition(definition, _process_host)


def _reduce(metric: Metric) -> tuple[Any, ...]:
    from evalfw.plugin.choices import plain

    return rebuild, (type(metric), plain(metric.definition()))


def make_portable(host: PluginHost) -> None:
    """Register every metric class of ``host`` with ``pickle`` (idempotent)."""
    registry = host.registry("metric")
    for name in registry.names():
        copyreg.pickle(registry.get(name), _reduce)


__all__ = ["make_portable", "rebuild"]
