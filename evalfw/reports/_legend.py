"""The legend under every significance table (terminal, Markdown, LaTeX caption, HTML, the
notebook): every choice that changes a conclusion, said where the conclusion is shown.

It names the intervals (whose own interval, at what level, how many resamples, of segments or
of whole documents within strata), the marks (the marking test, its resamples, alpha, the
correction and family), what no mark means ("inconclusive", with the smallest differences the
tests could have detected), the paired differences and their unadjusted intervals, the
secondary test, the p-value resolution, the buckets too small to test, the ranking rule, and
the run's warnings (resamples that cannot reach alpha; what sacreBLEU's paired bootstrap
costs in sacreBLEU mode).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from evalfw.reports._cells import (
    BASELINE,
    BETTER,
    LATEX_MARKS,
    METHOD_WORDS,
    WORSE,
    Significance,
    latex_escape,
)

__all__ = ["legend", "units_words"]

_TESTS = {"bootstrap": "paired bootstrap", "ar": "approximate randomization"}


def units_words(sig: Significance, method: str = "bootstrap") -> str:
    """What ``method`` resampled (or swapped), over the record's tables: ``segments``, or
    ``whole documents (181 in en-zh, within 4 strata by domain)``, naming the test sets that
    differ."""
    by_set: dict[str, str] = {}
    for (test_set, _), table in sig.tables.items():
        r = table.get("resampling") or {}
        if sig.unit(table, method) != "document":
            by_set.setdefault(test_set, "segments")
            continue
        strata = r.get("strata")
        within = f", within {strata['count']} strata by {strata['column']}" if strata else ""
        wider = f", spread ×{r['widening']:.2f} for their number" \
            if method == "bootstrap" and r.get("widening") else ""
        by_set.setdefault(test_set, f"whole documents ({r.get('documents')} in {test_set}"
                                    f"{within}{wider})")
    kinds = list(dict.fromkeys(by_set.values()))
    if not kinds:
        return "segments"
    if kinds == ["segments"]:
        return "segments"
    documents = [k for k in kinds if k != "segments"]
    rest = [t for t, k in by_set.items() if k == "segments"]
    return "; ".join(documents) + (f"; segments in {', '.join(rest)}" if rest else "")


def _mdd_ranges(sig: Significance) -> list[str]:
    """Per metric, the range of minimum detectable differences of the marking test's
    comparisons (``0.92–1.31 (sacrebleu)``)."""
    out = []
    for metric in dict.fromkeys(m for _, m in sig.tables):
        values = [v for (_, m), t in sig.tables.items() if m == metric
                  for c in t["comparisons"] if c["method"] == sig.method
                  and not c.get("zero_variance") for v in [sig.mdd(c)] if v is not None]
        if values:
            places = sig.places(metric)
            low, high = f"{min(values):.{places}f}", f"{max(values):.{places}f}"
            out.append(f"{low if low == high else f'{low}–{high}'} ({metric})")
    return out


def _floor(sig: Significance) -> str | None:
    """``1/201 = 0.005 with 200 resamples`` when some shown p-value is at its floor (no
    resample as extreme), else None."""
    for t in sig.tables.values():
        for c in t["comparisons"]:
            n = c.get("n")
            if n and c["p_value"] <= 1 / (n + 1):
                unit = "resamples" if c["method"] == "bootstrap" else "trials"
                return f"1/{n + 1} = {1 / (n + 1):.4g} with {n} {unit}"
    return None


def _resolution(sig: Significance) -> str | None:
    """The recommendation when the marking test's resamples are coarse near the threshold."""
    for entry in sig.section.get("resolution", ()):
        if entry.get("kind") == "comparisons" and entry.get("method") == sig.method \
                and entry.get("reachable") and entry.get("sufficient") is False:
            unit = "resamples" if sig.method == "bootstrap" else "trials"
            m = entry["size"] if entry.get("correction") != "none" else 1
            threshold = entry["alpha"] / m
            return (f"p-value resolution: with {entry['n']} {unit} a p-value near the "
                    f"threshold {threshold:.4g} moves by resampling chance; "
                    f"{entry['recommended']} {unit} (20 × {m} / {entry['alpha']:g}) are "
                    "recommended.")
    return None


def _buckets(sig: Significance) -> list[str]:
    tables = [t["buckets"] for t in sig.tables.values() if t.get("buckets")]
    if not tables:
        return []
    out = []
    minimum = next((b["min_segments"] for b in tables if "min_segments" in b), None)
    if minimum is not None:
        out.append(f"Buckets of fewer than {minimum} segments show scores only: too few "
                   "segments for an interval, a test or a mark.")
    if any(b.get("descriptive") for b in tables):
        out.append("Buckets by hypothesis length depend on the baseline's own output, so "
                   "they are descriptive: no tests.")
    return out


def _ranking(sig: Significance) -> list[str]:
    ranked = [t["ranking"] for t in sig.tables.values() if t.get("ranking")]
    if not ranked:
        return []
    level = ranked[0].get("level", 0.95)
    tail = (1 - level) / 2 * 100
    return [f"Ranking: WMT-style clusters, a boundary wherever every system above is "
            f"significantly better than every system below ({_TESTS[ranked[0]['method']]} "
            f"of all pairs, {sig.correction_words()}); rank interval: the {tail:g}–"
            f"{100 - tail:g} % range of each system's rank over the bootstrap resamples."]


def legend(sig: Significance, latex: bool = False) -> list[str]:
    """Sentences explaining the intervals, markers and differences (empty without an
    analysis): see the module docstring."""
    if not sig:
        return []
    s = sig.settings
    esc: Callable[[str], str] = latex_escape if latex else str
    marks = LATEX_MARKS if latex else {m: m for m in (BETTER, WORSE, BASELINE)}
    pm, le, alpha, ge, pct = (r"$\pm$", r"$\le$", r"$\alpha$", r"$\ge$", r"\%") if latex \
        else ("±", "≤", "α", "≥", "%")
    seed = sig.section.get("seed")
    marking = sig.test_words(sig.method)
    level = esc(sig.level_text)
    lines = [
        f"{pm}: half-width of each system's own {level} bootstrap confidence interval "
        f"({s.get('samples')} resamples of {esc(units_words(sig))}, seed {seed}, "
        f"{esc(str(s.get('mode')))} mode); whether two systems differ is the paired test's "
        "question, not whether their intervals overlap.",
        f"{marks[BASELINE]}: the baseline, {esc(str(s.get('baseline')))}.",
        f"{marks[BETTER]}: significantly better, {marks[WORSE]}: significantly worse than the "
        f"baseline (p {le} {sig.alpha:g} by {esc(marking)}, {esc(sig.correction_words())}); "
        f"no mark: inconclusive at {alpha} = {sig.alpha:g}, the test could not tell the "
        "systems apart, which does not show that they are equal.",
    ]
    detectable = _mdd_ranges(sig)
    at = f"{alpha}/m" if sig.adjusted_name else alpha
    if detectable:
        lines.append(
            f"Minimum detectable difference (MDD): the true difference a test would detect "
            f"with 80 {pct} power (two-sided, at {at}); here {esc(', '.join(detectable))}. An "
            f"inconclusive comparison could detect {ge} its MDD, and says so.")
    delta, minus = (r"$\Delta$", "-") if latex else ("Δ", "−")
    lines.append(
        f"{delta} (delta): each system's paired difference from the baseline (system {minus} "
        f"baseline), with its {level} bootstrap interval, unadjusted for multiple comparisons.")
    if sig.secondary is not None:
        lines.append(f"Primary test: {esc(METHOD_WORDS[sig.method])} (it carries the marks); "
                     f"{esc(sig.test_words(sig.secondary))} is reported beside it as a "
                     "secondary test, without marks.")
    if "ar" in sig.methods and any((t.get("resampling") or {}).get("documents")
                                   for t in sig.tables.values()):
        swaps = units_words(sig, "ar")
        lines.append(f"Approximate randomization swaps {esc(swaps)} between the two systems"
                     + (" (valid under its null hypothesis whatever the documents)."
                        if swaps == "segments" else "."))
    floor = _floor(sig)
    if floor:
        less = r"$<$" if latex else "<"
        lines.append(f"{less} before a p-value: no resample or trial was as extreme as the "
                     f"observed difference, so the p-value is only known to be below 1/(n + 1) "
                     f"({esc(floor)}), the test's resolution.")
    note = _resolution(sig)
    if note:
        lines.append(esc(note))
    lines += [esc(x) for x in _buckets(sig)]
    lines += [esc(x) for x in _ranking(sig)]
    lines.append(esc(sig.family_words()))
    lines += [f"Warning: {esc(w)}." for w in _warnings(sig.section)]
    if latex:  # typographic characters pdfLaTeX reads without packages
        return [x.replace("–", "--").replace("×", r"$\times$") for x in lines]
    return lines


def _warnings(section: Mapping[str, Any]) -> Iterable[str]:
    for key in ("resolution_warning", "sacrebleu_warning"):
        if section.get(key):
            yield str(section[key])
