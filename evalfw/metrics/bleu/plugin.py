"""The built-in ``bleu`` metric, registered through the same hook as any metric plugin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric


@hookimpl
def evalfw_register_metrics() -> list[type[Metric]]:
    from evalfw.metrics.bleu.metric import Bleu

    return [Bleu]


__all__ = ["evalfw_register_metrics"]
