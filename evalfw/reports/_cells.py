"""Table cells with intervals and significance markers, shared by every reporter.

A record with a ``significance`` section gives each corpus-level cell (system x test set x
analysed metric) an interval half-width and a marker::

    43.98 ±1.20 †

- ``†``: significantly better than the baseline, ``‡``: significantly worse (p <= alpha, the
  adjusted p when a correction was applied; the test is the first configured method; "better"
  in the metric's direction: a higher BLEU, a lower TER);
- ``°``: the baseline itself; no marker: not significantly different.

Numbers get as many decimals as the metric's scale needs (:func:`places`): 2 on a 0-100 scale,
4 on a 0-1 scale, so a difference of 0.004 BLEU on 0-1 does not print as ``+0.00``.

:func:`legend` says this in words (with the test, trials, threshold and correction actually
used), so a table pasted into a paper explains itself. Reporters only read the record.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

BETTER, WORSE, BASELINE = "†", "‡", "°"
LATEX_MARKS = {BETTER: r"$^{\dagger}$", WORSE: r"$^{\ddagger}$", BASELINE: r"$^{\circ}$", "": ""}
METHOD_WORDS = {"bootstrap": "paired bootstrap resampling",
                "ar": "paired approximate randomization"}


def places(scale: float | None) -> int:
    """Digits after the point for scores on a 0-``scale`` scale: 2 for 100, 4 for 1, and as
    many more as each factor of ten below 100 takes (never fewer than 0)."""
    if not scale or scale <= 0:
        return 2
    return max(0, 2 + round(math.log10(100.0 / scale)))


@dataclass(frozen=True)
class CellSignificance:
    """What one cell shows besides its score."""

    ci: float | None
    lower: float | None
    upper: float | None
    marker: str
    p_value: float | None
    p_adjusted: float | None
    delta: float | None


class Significance:
    """Lookup of a record's significance results by (system, test set, metric)."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        section = record.get("significance") or {}
        self.section = section
        self.settings: Mapping[str, Any] = section.get("settings", {})
        self.alpha = float(self.settings.get("alpha", 0.05))
        self.tables = {(t["test_set"], t["metric"]): t for t in section.get("tables", [])}
        self.higher_is_better = {m["name"]: bool(m.get("higher_is_better", True))
                                 for m in record.get("metrics", [])}
        self.scales = {r["metric"]: r.get("score_scale", 100)
                       for r in record.get("results", [])}

    def places(self, metric: str) -> int:
        """Decimals for scores and differences of ``metric`` (by its scale)."""
        return places(self.scales.get(metric, 100))

    def better(self, metric: str, delta: float) -> bool:
        """Whether a score difference ``delta`` (system - baseline) is an improvement under
        ``metric`` (its direction: higher BLEU, lower TER)."""
        return (delta > 0) == self.higher_is_better.get(metric, True)

    def __bool__(self) -> bool:
        return bool(self.tables)

    @property
    def level(self) -> float:
        """The interval level (sacreBLEU mode prints its 95% interval whatever is set)."""
        return 0.95 if self.settings.get("mode") == "sacrebleu" else \
            float(self.settings.get("confidence", 0.95))

    @property
    def level_text(self) -> str:
        return f"{self.level:.0%}"

    @property
    def method(self) -> str:
        return "ar" if self.settings.get("method") == "ar" else "bootstrap"

    def cell(self, system: str, test_set: str, metric: str) -> CellSignificance | None:
        table = self.tables.get((test_set, metric))
        if table is None:
            return None
        interval = next((i for i in table["intervals"] if i["system"] == system), None)
        comp = next((c for c in table["comparisons"] if c["system"] == system
                     and c["method"] == self.method), None)
        marker = ""
        if system == table["baseline"]:
            marker = BASELINE
        elif comp is not None and significant(comp, self.alpha):
            marker = BETTER if self.better(metric, comp["delta"]) else WORSE
        return CellSignificance(
            interval["ci"] if interval else None, interval["lower"] if interval else None,
            interval["upper"] if interval else None, marker,
            comp["p_value"] if comp else None, comp.get("p_adjusted") if comp else None,
            comp["delta"] if comp else None)

    def decorate(self, text: str, system: str, test_set: str, metric: str, places: int,
                 latex: bool = False) -> str:
        """``text`` (the formatted score) with ``±ci`` and the marker, when analysed."""
        cell = self.cell(system, test_set, metric)
        if cell is None:
            return text
        if cell.ci is not None:
            text += (r" {\small$\pm$" + f"{cell.ci:.{places}f}" + "}") if latex \
                else f" ±{cell.ci:.{places}f}"
        if latex:
            return text + LATEX_MARKS[cell.marker]
        # unmarked cells keep the marker's width so right-aligned numbers line up
        return f"{text} {cell.marker or ' '}"

    def legend(self, latex: bool = False) -> list[str]:
        """Sentences explaining the intervals and markers (empty without an analysis)."""
        if not self:
            return []
        s = self.settings
        trials = s.get("samples") if self.method == "bootstrap" else s.get("ar_trials")
        unit = "resamples" if self.method == "bootstrap" else "trials"
        test = f"{METHOD_WORDS[self.method]} with {trials} {unit}"
        corr = ", Holm-adjusted across the run" if s.get("correction") == "holm" else ""
        marks = (LATEX_MARKS if latex else {m: m for m in (BETTER, WORSE, BASELINE)})
        pm, le = (r"$\pm$", r"$\le$") if latex else ("±", "≤")
        seed = self.section.get("seed")
        baseline = latex_escape(str(s.get("baseline"))) if latex else s.get("baseline")
        return [
            f"{pm}: half-width of the {self.level_text} bootstrap confidence interval "
            f"({s.get('samples')} resamples, seed {seed}, {s.get('mode')} mode).".replace(
                "%", r"\%" if latex else "%"),
            f"{marks[BASELINE]}: the baseline, {baseline}.",
            f"{marks[BETTER]}: significantly better, {marks[WORSE]}: significantly worse than "
            f"the baseline (p {le} {self.alpha:g} by {test}{corr}); no mark: no significant "
            "difference.",
        ]


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (for text mode)."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def significant(c: Mapping[str, Any], alpha: float) -> bool:
    """Whether a stored comparison is significant at ``alpha`` (adjusted p when corrected)."""
    p = c.get("p_adjusted")
    return (c["p_value"] if p is None else p) <= alpha
