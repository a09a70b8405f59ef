"""The built-in ``chrf`` metric, registered through the same hook as any metric plugin."""

from __future__ import annotations

from evalfw.metrics.base import Metric
from evalfw.metrics.chrf.metric import Chrf
from evalfw.plugin import hookimpl


@hookimpl
def evalfw_register_metrics() -> list[type[Metric]]:
    return [Chrf]


__all__ = ["evalfw_register_metrics"]
