"""The grid view of a run record that the text reporters draw: systems in rows, (test set,
metric[, level]) in columns in config order, each cell a score with its interval and markers.

Imported when a grid is rendered, not when the reporters are registered: a scoring process
that never writes a table should not pay for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evalfw.reports._cells import Significance, places


@dataclass(frozen=True)
class Column:
    test_set: str
    metric: str
    level: str
    both_levels: bool
    #: what the header shows for the metric: its display label, else its name
    shown: str = ""

    @property
    def label(self) -> str:
        name = self.shown or self.metric
        return f"{name} ({self.level})" if self.both_levels or self.level != "corpus" \
            else name


class Grid:
    """Systems x (test set, metric, level) view of a record's results."""

    def __init__(self, record: Mapping[str, Any], decimals: int | None = None) -> None:
        self.record = record
        self.decimals = decimals
        self.significance = Significance(record)  # intervals and markers, if analysed
        levels = {m["name"]: m["levels"] for m in record.get("metrics", [])}
        self.columns: list[Column] = []
        self.systems: list[str] = []
        self.cells: dict[tuple[str, Column], Mapping[str, Any]] = {}
        for r in record["results"]:
            col = Column(r["test_set"], r["metric"], r["level"],
                         len(levels.get(r["metric"], ())) > 1,
                         self.significance.metric_label(r["metric"]))
            if col not in self.columns:
                self.columns.append(col)
            if r["system"] not in self.systems:
                self.systems.append(r["system"])
            self.cells[(r["system"], col)] = r
        # columns in config order (test sets, then metrics, then levels), whatever the row order
        ts_order = {t["name"]: i for i, t in enumerate(record.get("test_sets", []))}
        m_order = {name: i for i, name in enumerate(levels)}
        self.columns.sort(key=lambda c: (ts_order.get(c.test_set, len(ts_order)),
                                         m_order.get(c.metric, len(m_order)),
                                         c.level != "corpus"))

    def system(self, name: str) -> str:
        """What a row shows for system ``name``: its display label, else the name."""
        return self.significance.system_label(name)

    def systems_in(self, columns: list[Column]) -> list[str]:
        """The systems that have a result in any of ``columns`` (a table of one test set
        leaves out the systems that test set does not have)."""
        return [s for s in self.systems if any((s, c) in self.cells for c in columns)]

    def value(self, system: str, col: Column, latex: bool = False) -> str:
        r = self.cells.get((system, col))
        if r is None:
            return "-"
        digits = self.decimals if self.decimals is not None else places(r.get("score_scale"))
        text = f"{r['score']:.{digits}f}"
        if col.level != "corpus":
            return text
        return self.significance.decorate(text, system, col.test_set, col.metric, digits, latex)

    def test_set_groups(self) -> list[tuple[str, int]]:
        """(test set, number of columns) in column order."""
        groups: list[tuple[str, int]] = []
        for col in self.columns:
            if groups and groups[-1][0] == col.test_set:
                groups[-1] = (col.test_set, groups[-1][1] + 1)
            else:
                groups.append((col.test_set, 1))
        return groups


def title(record: Mapping[str, Any]) -> str:
    return f"{record['experiment']} {record['version']} ({record['created']})"
