"""The built-in reporters, registered through the same hook as any reporter plugin.

The hook imports them when reporters are first asked for, so scoring code that never writes a
report never loads them (nor MLflow, which its reporter imports only when a run is published).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalfw.plugin import hookimpl

if TYPE_CHECKING:
    from evalfw.reports.base import Reporter


@hookimpl
def evalfw_register_reporters() -> list[type[Reporter]]:
    from evalfw.reports.mlflow_reporter import MlflowReporter
    from evalfw.reports.reporters import (
        CsvReporter,
        HtmlReporter,
        JsonReporter,
        LatexReporter,
        MarkdownReporter,
        TableReporter,
    )

    return [TableReporter, JsonReporter, CsvReporter, MarkdownReporter, LatexReporter,
            HtmlReporter, MlflowReporter]


__all__ = ["evalfw_register_reporters"]
