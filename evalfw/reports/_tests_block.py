"""The paired tests of a run as rows: every system against the baseline, per test set and
analysed metric, with the difference and the p-value of *every* configured test (bootstrap
and approximate randomization when ``method: both``), adjusted p-values beside them when a
correction was applied. The terminal and Markdown reporters print these under the results
grid, so no test the config asked for is hidden behind the cell markers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evalfw.reports._cells import Significance

__all__ = ["TITLE", "header", "rows"]

TITLE = "Paired tests against the baseline"
SHORT = {"bootstrap": "boot", "ar": "AR"}


def header(sig: Significance) -> list[str]:
    out = ["test set", "metric", "system", "delta"]
    for method in sig.methods:
        out.append(f"p {SHORT[method]}")
        if sig.adjusted_name:
            out.append(sig.adjusted_name)
    return out


def _p(comp: Mapping[str, Any] | None, key: str) -> str:
    value = comp.get(key) if comp else None
    return "-" if value is None else f"{value:.4f}"


def rows(sig: Significance) -> list[list[str]]:
    """One row per (test set, metric, system other than the baseline), in record order."""
    out = []
    for (test_set, metric), table in sig.tables.items():
        places = sig.places(metric)
        for system in table["systems"]:
            if system == table["baseline"]:
                continue
            comps = [sig.comparison(system, test_set, metric, m) for m in sig.methods]
            first = next((c for c in comps if c is not None), None)
            delta = "-" if first is None else f"{first['delta']:+.{places}f}"
            row = [test_set, sig.metric_label(metric), sig.system_label(system), delta]
            for comp in comps:
                row.append(_p(comp, "p_value"))
                if sig.adjusted_name:
                    row.append(_p(comp, "p_adjusted"))
            out.append(row)
    return out
