"""The built-in ``ter`` metric, registered through the same hook as any metric plugin."""

from __future__ import annotations

from evalfw.metrics.base import Metric
from evalfw.metrics.ter.metric import Ter
from evalfw.plugin import hookimpl


@hookimpl
def evalfw_register_metrics() -> list[type[Metric]]:
    return [Ter]


__all__ = ["evalfw_register_metrics"]
