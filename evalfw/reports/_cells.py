"""Table cells with intervals and significance markers, shared by every reporter.

A record with a ``significance`` section gives each corpus-level cell (system x test set x
analysed metric) an interval half-width and a marker::

    43.98 ±1.20 †

- ``±``: the half-width of the system's *own* interval (its score's uncertainty); whether
  two systems differ is the paired test's question, not whether their intervals overlap;
- ``†``: significantly better than the baseline, ``‡``: significantly worse (p <= alpha, the
  adjusted p when a correction was applied; "better" in the metric's direction: a higher BLEU,
  a lower TER), by the *marking* test: the configured one, or with ``method: both`` the
  ``primary`` one (the other is reported beside it, unmarked);
- ``°``: the baseline itself; no marker: *inconclusive* (the test could not tell the systems
  apart, which is not evidence that they are equal; the smallest difference it could have
  told apart is its minimum detectable difference, :meth:`Significance.verdict`).

Numbers get as many decimals as the metric's scale needs (:func:`places`): 2 on a 0-100 scale,
4 on a 0-1 scale, so a difference of 0.004 BLEU on 0-1 does not print as ``+0.00``. The scale
and the unit of bucket lengths come from the record (the metric entry's ``score_scale`` and
``length_unit``, the bucket table's ``quantity`` and ``unit``), with fallbacks for records
written before they were kept. A p-value at its floor (no resample as extreme) prints as
``<0.0010``: it is only known to be below ``1/(n + 1)``.

:func:`evalfw.reports._legend.legend` says all this in words (with the test, resampling unit,
trials, threshold, correction, family and family size actually used), so a table pasted into
a paper explains itself. Reporters only read the record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evalfw.metrics.scales import places

BETTER, WORSE, BASELINE = "†", "‡", "°"
NOT = "·"  # not significant by one of several tests
LATEX_MARKS = {BETTER: r"$^{\dagger}$", WORSE: r"$^{\ddagger}$", BASELINE: r"$^{\circ}$", "": ""}
METHOD_WORDS = {"bootstrap": "paired bootstrap resampling",
                "ar": "paired approximate randomization"}
#: what a verdict says when the resampled differences did not vary
NO_VARIANCE = "no test (no variance)"


#: what the built-in bucketers measure, for records that do not say
_QUANTITIES = {"ref-length": "reference length", "hyp-length": "hypothesis length"}


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
    #: the marking test's marker (one entry; the baseline's is ``°``)
    markers: tuple[str, ...] = ()
    delta_lower: float | None = None
    delta_upper: float | None = None


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
        self.scales.update({m["name"]: m["score_scale"] for m in record.get("metrics", [])
                            if "score_scale" in m})
        self.length_units = {m["name"]: m["length_unit"] for m in record.get("metrics", [])
                             if "length_unit" in m}
        #: display labels (``label:`` of a metric entry, ``system_labels:``) by name
        self.metric_labels: dict[str, str] = {m["name"]: m["label"] for m in record.get("metrics", [])
                              if m.get("label")}
        self.system_labels: dict[str, str] = {s["name"]: s["label"] for t in record.get("test_sets", [])
                              for s in t.get("systems", []) if s.get("label")}

    def metric_label(self, name: str) -> str:
        """What tables show for metric ``name``: its label, else the name."""
        return self.metric_labels.get(name, name)

    def system_label(self, name: str) -> str:
        """What tables show for system ``name``: its label, else the name."""
        return self.system_labels.get(name, name)

    def places(self, metric: str) -> int:
        """Decimals for scores and differences of ``metric`` (by its scale)."""
        return places(self.scales.get(metric, 100))

    def length_axis(self, table: Mapping[str, Any]) -> str:
        """What a bucket table's buckets measure, with the unit: ``reference length
        (characters)``; a label bucket's column (``domain``)."""
        buckets = table.get("buckets") or {}
        bucketer = str((buckets.get("bucketer") or {}).get("name", ""))
        quantity = buckets.get("quantity") or _QUANTITIES.get(bucketer, "length")
        if buckets.get("column"):  # label buckets: what the labels are
            return str(buckets["column"])
        unit = buckets.get("unit") or self.length_units.get(table.get("metric", ""))
        return f"{quantity} ({unit})" if unit else str(quantity)

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
        """The marking test: the one whose p-values carry the marks (and charts follow)."""
        if self.settings.get("method") == "both":
            return str(self.settings.get("primary", "bootstrap"))
        return "ar" if self.settings.get("method") == "ar" else "bootstrap"

    @property
    def secondary(self) -> str | None:
        """With two tests, the one reported without marks."""
        return next((m for m in self.methods if m != self.method), None)

    @property
    def methods(self) -> tuple[str, ...]:
        """Every configured test, in the order the analysis ran them."""
        method = self.settings.get("method")
        return ("bootstrap", "ar") if method == "both" else \
            ("ar",) if method == "ar" else ("bootstrap",)

    def comparison(self, system: str, test_set: str, metric: str,
                   method: str) -> Mapping[str, Any] | None:
        table = self.tables.get((test_set, metric))
        if table is None:
            return None
        return next((c for c in table["comparisons"] if c["system"] == system
                     and c["method"] == method), None)

    def _marker(self, comp: Mapping[str, Any] | None, metric: str) -> str:
        if comp is None or not significant(comp, self.alpha):
            return ""
        return BETTER if self.better(metric, comp["delta"]) else WORSE

    def cell(self, system: str, test_set: str, metric: str) -> CellSignificance | None:
        table = self.tables.get((test_set, metric))
        if table is None:
            return None
        interval = next((i for i in table["intervals"] if i["system"] == system), None)
        comp = self.comparison(system, test_set, metric, self.method)
        marker = BASELINE if system == table["baseline"] else self._marker(comp, metric)
        return CellSignificance(
            interval["ci"] if interval else None, interval["lower"] if interval else None,
            interval["upper"] if interval else None, marker,
            comp["p_value"] if comp else None, comp.get("p_adjusted") if comp else None,
            comp["delta"] if comp else None, (marker,),
            comp.get("delta_lower") if comp else None, comp.get("delta_upper") if comp else None)

    def marker_text(self, cell: CellSignificance, latex: bool = False) -> str:
        """The cell's marker (LaTeX: a superscript)."""
        return LATEX_MARKS[cell.marker] if latex else cell.marker

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
            return text + self.marker_text(cell, latex=True)
        # unmarked cells keep the marker's width so right-aligned numbers line up
        return f"{text} {self.marker_text(cell).ljust(1)}"

    def test_words(self, method: str) -> str:
        """``paired bootstrap resampling with 1000 resamples`` (the test as run)."""
        s = self.settings
        trials = s.get("samples") if method == "bootstrap" else s.get("ar_trials")
        unit = "resamples" if method == "bootstrap" else "trials"
        return f"{METHOD_WORDS[method]} with {trials} {unit}"

    def trials(self, method: str) -> int:
        return int(self.settings.get("samples" if method == "bootstrap" else "ar_trials") or 1)

    def unit(self, table: Mapping[str, Any], method: str) -> str:
        """What ``method`` resampled or swapped in ``table`` (records without it: segments)."""
        resampling = table.get("resampling") or {}
        return str(resampling.get("bootstrap" if method == "bootstrap" else "ar", "segment"))

    def mdd(self, comp: Mapping[str, Any]) -> float | None:
        """The minimum detectable difference at the threshold the comparison had to pass
        (``alpha / m`` in a corrected family of ``m``, else ``alpha``)."""
        if self.adjusted_name and comp.get("mdd_adjusted") is not None:
            return float(comp["mdd_adjusted"])
        value = comp.get("mdd")
        return None if value is None else float(value)

    def verdict(self, comp: Mapping[str, Any], metric: str, marking: bool = True) -> str:
        """``better``, ``worse`` or ``inconclusive (could detect ≥0.92)`` (a secondary test:
        ``significant`` / ``not significant``, it carries no mark)."""
        if comp.get("zero_variance"):
            return NO_VARIANCE
        if significant(comp, self.alpha):
            if not marking:
                return "significant"
            return "better" if self.better(metric, comp["delta"]) else "worse"
        if not marking:
            return "not significant"
        mdd = self.mdd(comp)
        if mdd is None:
            return "inconclusive"
        return f"inconclusive (could detect ≥{mdd:.{self.places(metric)}f})"

    def p_text(self, comp: Mapping[str, Any] | None, key: str = "p_value") -> str:
        """A stored p-value with four decimals; at its floor ``<0.0010`` (``-`` if none)."""
        value = comp.get(key) if comp else None
        if value is None or comp is None:
            return "-"
        return p_format(float(value), float(comp["p_value"]), int(comp.get("n") or 0), key)

    @property
    def correction(self) -> str:
        return str(self.settings.get("correction"))

    @property
    def family(self) -> str:
        """Which comparisons were corrected together; a record without the setting was
        corrected across its whole run."""
        return str(self.settings.get("family", "run"))

    @property
    def adjusted_name(self) -> str | None:
        """What the adjusted p-values are called (``Holm``), None when nothing was adjusted."""
        return CORRECTION_NAMES.get(self.correction)

    def family_sizes(self) -> dict[tuple[str, str], int]:
        """(test set, metric) -> how many comparisons against the baseline were corrected
        together with that table's (its family's size; without a correction, the table's
        comparisons), by the marking test."""
        method = self.method
        out = {}
        for key, table in self.tables.items():
            recorded = [f["size"] for f in table.get("families", ())
                        if f["kind"] == "comparisons" and f["method"] == method]
            if recorded and self.adjusted_name:
                out[key] = recorded[0]
                continue
            # a record without families (written before they were recorded) or without a
            # correction: count the comparisons the family setting groups
            scope = self.family if self.adjusted_name else "table"
            members = [t for t in self.tables.values() if scope == "run" or t is table
                       or scope == "test_set" and t["test_set"] == table["test_set"]]
            out[key] = sum(c["method"] == method for t in members for c in t["comparisons"])
        return out

    def sizes_text(self, sizes: Mapping[tuple[str, str], int]) -> str:
        """``8 comparisons in de-en, en-de; 12 in en-ja`` (``8 comparisons`` when every
        family has 8)."""
        by_size: dict[int, list[str]] = {}
        for (test_set, _), size in sizes.items():
            names = by_size.setdefault(size, [])
            if test_set not in names:
                names.append(test_set)
        if len(by_size) == 1:
            return f"{next(iter(by_size))} comparisons"
        return "; ".join(f"{size}{' comparisons' if i == 0 else ''} in {', '.join(names)}"
                         for i, (size, names) in enumerate(by_size.items()))

    def correction_words(self) -> str:
        """Which multiple-comparison correction the p-values got, and where, in words."""
        name = self.adjusted_name
        if name is not None:
            return f"{name}-adjusted {FAMILY_WORDS.get(self.family, (self.family,))[0]}"
        if self.correction == "none":
            return "no multiple-comparison correction"
        return f"correction {self.correction}"

    def family_words(self) -> str:
        """The correction's family and its size(s), as a legend sentence."""
        sizes = self.sizes_text(self.family_sizes())
        name = self.adjusted_name
        if name is None:
            return f"Multiple comparisons: not corrected; {sizes} per table."
        scope, family = FAMILY_WORDS.get(self.family, (self.family, self.family))
        return (f"Multiple comparisons: {name} correction {scope}, a family being "
                f"{family}: {sizes}.")


def p_format(value: float, raw: float, n: int, key: str = "p_value") -> str:
    """A p-value with four decimals; ``<`` before it when its raw p-value is at the floor of
    ``n`` resamples (then the true p is only known to be below it: ``<0.0010``; an adjusted
    p-value at its family's floor likewise)."""
    text = f"{value:.4f}"
    if n and raw <= 1 / (n + 1) and value < 1.0:  # no resample as extreme: count 0
        return f"<{text}"
    return text


#: what the adjusted p-values of each correction are called
CORRECTION_NAMES = {"holm": "Holm", "bonferroni": "Bonferroni"}
#: each family setting: where the correction applies, and what one family holds
FAMILY_WORDS = {
    "table": ("within each table", "one test set x metric x test"),
    "test_set": ("within each test set", "all metrics of one test set, one test"),
    "run": ("across the run", "all test sets and metrics, one test"),
}


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (for text mode)."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def significant(c: Mapping[str, Any], alpha: float) -> bool:
    """Whether a stored comparison is significant at ``alpha`` (adjusted p when corrected;
    never when its resampled differences did not vary), as the analysis decides it
    (:meth:`evalfw.analysis.results.ComparisonResult.significant`)."""
    p = c.get("p_adjusted")
    return (c["p_value"] if p is None else p) <= alpha and not c.get("zero_variance", False)
