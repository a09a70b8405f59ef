"""The paired tests of a run as rows: every system against the baseline, per test set and
analysed metric, with the paired difference and its interval, the p-value of *every*
configured test (bootstrap and approximate randomization when ``method: both``), adjusted
p-values beside them when a correction was applied, and the result of the marking test
(``better``, ``worse`` or ``inconclusive (could detect ≥0.92)``). The terminal and Markdown
reporters print these under the results grid, so no test the config asked for is hidden
behind the cell markers, and no reader has to compare two systems' own intervals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from evalfw.reports._cells import Significance

__all__ = ["delta_interval", "header", "heading", "rows", "TITLE"]

TITLE = "Paired tests against the baseline"
SHORT = {"bootstrap": "boot", "ar": "AR"}
WORDS = {"bootstrap": "paired bootstrap", "ar": "approximate randomization"}


def header(sig: Significance) -> list[str]:
    out = ["test set", "metric", "system", "delta", f"{sig.level_text} interval"]
    for method in sig.methods:
        out.append(f"p {SHORT[method]}")
        if sig.adjusted_name:
            out.append(sig.adjusted_name)
    out.append("result")
    return out


def heading(sig: Significance) -> str:
    """The block's title line, saying what each p column is."""
    parts = [f"p {SHORT[m]}: {WORDS[m]}" + (" (primary)" if m == sig.method and
                                              sig.secondary else "")
             + (" (secondary, no marks)" if m == sig.secondary else "") for m in sig.methods]
    if sig.adjusted_name:
        parts.append(f"{sig.adjusted_name}: the adjusted p")
    parts.append("interval: of the difference, unadjusted")
    return f"{TITLE} ({'; '.join(parts)}):"


def delta_interval(comp: Mapping[str, Any] | None, places: int) -> str:
    """``[+0.12, +1.30]`` (``-`` when the test has none)."""
    if comp is None or comp.get("delta_lower") is None:
        return "-"
    return f"[{comp['delta_lower']:+.{places}f}, {comp['delta_upper']:+.{places}f}]"


def rows(sig: Significance) -> list[list[str]]:
    """One row per (test set, metric, system other than the baseline), in record order."""
    out = []
    for (test_set, metric), table in sig.tables.items():
        places = sig.places(metric)
        for system in table["systems"]:
            if system == table["baseline"]:
                continue
            comps = {m: sig.comparison(system, test_set, metric, m) for m in sig.methods}
            marking = comps.get(sig.method)
            first = marking or next((c for c in comps.values() if c is not None), None)
            delta = "-" if first is None else f"{first['delta']:+.{places}f}"
            row = [test_set, sig.metric_label(metric), sig.system_label(system), delta,
                   delta_interval(first, places)]
            for method in sig.methods:
                row.append(sig.p_text(comps[method], "p_value"))
                if sig.adjusted_name:
                    row.append(sig.p_text(comps[method], "p_adjusted"))
            row.append("-" if marking is None else sig.verdict(marking, metric))
            out.append(row)
    return out
