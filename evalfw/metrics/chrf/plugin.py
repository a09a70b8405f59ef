"""The built-in ``chrf`` metric, registered through the same hook as any metric plugin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric


@hookimpl
def evalfw_register_metrics() -> list[type[Metric]]:
    # imported when metrics are first asked for: scoring with BLEU alone never loads it
    from evalfw.metrics.chrf.metric import Chrf

    return [Chrf]


__all__ = ["evalfw_register_metrics"]
