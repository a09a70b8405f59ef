"""Built-in reporter ``html``: the self-contained HTML report of a run (one file, inline CSS
and SVG, no network). ``reports: [html]`` in a config writes ``report-html.html`` into the
version directory; ``evalfw show RUN --format html`` prints it. See :mod:`evalfw.reports.html`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evalfw.components import Reporter
from evalfw.plugin import hookimpl


class HtmlReporter(Reporter):
    name = "html"
    description = ("self-contained HTML page: results table with intervals and significance "
                   "markers, SVG charts, worst-segment drill-down, provenance")
    extension = "html"

    def render(self, record: Mapping[str, Any]) -> str:
        from evalfw.reports.html import render  # local: the page code loads only when used

        return render(record)


@hookimpl
def evalfw_register_reporters() -> list[type[Reporter]]:
    return [HtmlReporter]
