"""The meta-evaluation section of a record as reports read it: names of the statistics, the
legend that states every choice behind a conclusion, and flat rows (for CSV and pandas).

Everything here reads ``record["meta_evaluation"]`` (written by
:mod:`evalfw.runner.meta`); nothing is recomputed.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

#: how statistics are named in tables, by their key in the record
LABELS = {"accuracy": "pairwise accuracy", "pearson": "Pearson r", "spearman": "Spearman rho",
          "kendall": "Kendall tau-b", "acc_eq": "acc_eq", "tau_b": "tau-b", "tau_c": "tau-c"}
#: a level and grouping as tables name them
GROUPS = {("system", None): "System level", ("segment", "item"): "Segment level, grouped by item",
          ("segment", "none"): "Segment level, ungrouped"}
#: the columns of :func:`statistic_rows`
COLUMNS = ("test_set", "human", "level", "grouping", "statistic", "metric", "value", "lower",
           "upper", "resamples", "cluster", "beats", "epsilon", "ties", "items", "pairs",
           "segments", "confidence")
TEST_COLUMNS = ("test_set", "level", "grouping", "statistic", "better", "worse", "delta",
                "p_value", "p_adjusted", "significant", "correction", "family_size", "trials")
DELTA_COLUMNS = ("test_set", "metric", "low", "high", "pairs", "agreed", "share", "at_least_pairs",
                 "at_least_agreed", "at_least_share")
HUMAN_COLUMNS = ("test_set", "human", "unit", "system", "score", "lower", "upper", "used",
                 "reference", "human_system")


def units(record: Mapping[str, Any]) -> list[str]:
    """A line naming the metrics that declare a unit (human judgements), with their
    direction, or nothing."""
    found = [f"{m['name']}: {m['unit']}, "
             f"{'higher' if m.get('higher_is_better', True) else 'lower'} is better"
             for m in record.get("metrics", ()) if m.get("unit")]
    return [f"Units: {'; '.join(found)}."] if found else []


def section(record: Mapping[str, Any]) -> Mapping[str, Any] | None:
    return record.get("meta_evaluation")


def groups(table: Mapping[str, Any]) -> Iterator[tuple[tuple[str, str | None],
                                                       list[Mapping[str, Any]]]]:
    """The table's statistics, by (level, grouping), in the order they were computed."""
    seen: dict[tuple[str, str | None], list[Mapping[str, Any]]] = {}
    for stat in table["statistics"]:
        seen.setdefault((stat["level"], stat.get("grouping")), []).append(stat)
    yield from seen.items()


def beats(stat: Mapping[str, Any], metric: str) -> list[str]:
    """The metrics ``metric`` is significantly better than on this statistic."""
    return [t["worse"] for t in stat.get("tests") or () if t["better"] == metric
            and t["significant"]]


def share(agreed: int, pairs: int) -> float | None:
    return agreed / pairs if pairs else None


def pct(value: float | None) -> str:
    """A share in whole percent; one strictly between 0 and 1 gets the decimals that keep it
    off 0 % and 100 % (a tie threshold that leaves 3 of 41,262 pairs untied is "99.99 %",
    not "100 %")."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    places = 0
    while 0 < value < 1 and places < 12 and round(100 * value, places) in (0, 100):
        places += 1
    return f"{100 * value:.{places}f} %"


def human_direction(table: Mapping[str, Any]) -> str:
    better = "higher" if table.get("human_higher_is_better", True) else "lower"
    return f"{table.get('unit', 'human score')}, {better} is better"


def facts(stat: Mapping[str, Any]) -> str:
    """What a statistic was computed over."""
    level, grouping = stat["level"], stat.get("grouping")
    if level == "system":
        return f"{stat['items']} systems, {stat['pairs']:,} pairs"
    if grouping == "item":
        return (f"{stat['segments']:,} segments with 2+ judged systems, {stat['items']:,} "
                f"judged items, {stat['pairs']:,} pairs")
    return f"{stat['items']:,} judged items, {stat['pairs']:,} pairs"


def legend(meta: Mapping[str, Any]) -> list[str]:
    """Every choice that changes a conclusion, as sentences."""
    s = meta["settings"]
    level = f"{100 * s['confidence']:g} %"
    lines = []
    if s["samples"]:
        lines.append(f"Intervals: {level} percentile bootstrap, {s['samples']:,} resamples of "
                     "the segments (the same resamples for every metric and statistic).")
        fixed = [t["test_set"] for t in meta["tables"] if t.get("human_level") == "system"]
        if fixed:
            lines.append(f"The human scores of {', '.join(fixed)} are system-level only: the "
                         "bootstrap resamples the metrics' segments and keeps the human scores "
                         "as they are, so these intervals leave out the human side's "
                         "uncertainty.")
    else:
        lines.append("No intervals (samples: 0).")
    correction = {"holm": "Holm", "bonferroni": "Bonferroni", "none": "no"}[s["correction"]]
    if s["permutations"]:
        lines.append(
            f"Tests between metrics: one-sided paired permutation test (PERM-BOTH, each "
            f"judged item's two z-scored metric scores swapped at random), {s['permutations']:,} "
            f"trials per pair of metrics; {correction} correction within each statistic "
            f"(its family: every pair of metrics); significant when the adjusted p <= "
            f"{s['alpha']:g}. Clusters (#1, #2, ...) as in WMT's metrics task: a metric starts "
            "a new cluster when a metric of the current cluster is significantly better; "
            "metrics in one cluster are not shown to differ. Ungrouped segment-level "
            "statistics have intervals only.")
    else:
        lines.append("No tests between metrics (permutations: 0).")
    lines.append("acc_eq: pairwise accuracy with ties (Deutsch et al. 2023): the share of pairs "
                 "ordered as the humans order them, a tie counting only where both sides tie; "
                 "the metric's tie threshold epsilon (in its units) is chosen among every "
                 "pair's difference to maximise it (kept from the full data in the ungrouped "
                 "bootstrap); 'ties' is the share of pairs it makes metric ties. Grouped by "
                 "item: per segment across systems, then averaged.")
    excluded = sorted({s_ for t in meta["tables"] for s_ in t.get("excluded", [])})
    if excluded and not s["include_human"]:
        lines.append(f"Left out: {', '.join(excluded)} (human translations or no human score; "
                     "include_human: true keeps human translations).")
    return lines


def _number(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def statistic_rows(meta: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per test set x statistic x metric (:data:`COLUMNS`); ``beats`` lists the
    metrics it is significantly better than."""
    out = []
    conf = meta["settings"]["confidence"]
    for table in meta["tables"]:
        for stat in table["statistics"]:
            for m in stat["metrics"]:
                out.append({
                    "test_set": table["test_set"], "human": table["human"],
                    "level": stat["level"], "grouping": stat.get("grouping"),
                    "statistic": stat["statistic"], "metric": m["metric"],
                    "value": m["value"], "lower": m.get("lower"), "upper": m.get("upper"),
                    "resamples": m.get("resamples"), "cluster": m.get("cluster"),
                    "beats": ";".join(beats(stat, m["metric"])) if "tests" in stat else None,
                    "epsilon": m.get("epsilon"), "ties": m.get("ties"),
                    "items": stat.get("items"), "pairs": stat.get("pairs"),
                    "segments": m.get("segments", stat.get("segments")), "confidence": conf})
    return out


def test_rows(meta: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per test between two metrics (:data:`TEST_COLUMNS`)."""
    s = meta["settings"]
    return [{"test_set": table["test_set"], "level": stat["level"],
             "grouping": stat.get("grouping"), "statistic": stat["statistic"],
             **{k: t[k] for k in ("better", "worse", "delta", "p_value", "p_adjusted",
                                  "significant")},
             "correction": s["correction"], "family_size": stat.get("family_size"),
             "trials": s["permutations"]}
            for table in meta["tables"] for stat in table["statistics"]
            for t in stat.get("tests") or ()]


def delta_rows(meta: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per metric x |delta| bin (:data:`DELTA_COLUMNS`)."""
    out = []
    for table in meta["tables"]:
        for d in table.get("deltas", ()):
            for b, a in zip(d["bins"], d["at_least"], strict=True):
                out.append({"test_set": table["test_set"], "metric": d["metric"],
                            "low": b["low"], "high": b["high"], "pairs": b["pairs"],
                            "agreed": b["agreed"], "share": share(b["agreed"], b["pairs"]),
                            "at_least_pairs": a["pairs"], "at_least_agreed": a["agreed"],
                            "at_least_share": share(a["agreed"], a["pairs"])})
    return out


def human_rows(meta: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per judged system (:data:`HUMAN_COLUMNS`)."""
    out = []
    for table in meta["tables"]:
        refs, humans = set(table.get("references", ())), set(table.get("human_systems", ()))
        for h in table.get("human_scores", ()):
            out.append({"test_set": table["test_set"], "human": table["human"],
                        "unit": table.get("unit"), "system": h["system"], "score": h["score"],
                        "lower": h.get("lower"), "upper": h.get("upper"), "used": h["used"],
                        "reference": h["system"] in refs,
                        "human_system": h["system"] in humans})
    return out


#: the flat tables a meta-evaluation has, by name
TABLES = {"statistics": (COLUMNS, statistic_rows), "tests": (TEST_COLUMNS, test_rows),
          "deltas": (DELTA_COLUMNS, delta_rows), "human": (HUMAN_COLUMNS, human_rows)}


def csv_text(meta: Mapping[str, Any], table: str = "statistics") -> str:
    """One of :data:`TABLES` as CSV, floats at full precision."""
    columns, rows = TABLES[table]
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    for row in rows(meta):
        writer.writerow([csv_cell(row.get(c)) for c in columns])
    return buf.getvalue()


def csv_cell(value: Any) -> str:
    """A CSV cell: floats as repr (every digit), nothing as empty, and a text that a
    spreadsheet would run as a formula (=, +, -, @ first) quoted with a leading '."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def order(stat: Mapping[str, Any], names: Sequence[str]) -> list[Mapping[str, Any]]:
    """The statistic's metrics in the order of ``names``."""
    by = {m["metric"]: m for m in stat["metrics"]}
    return [by[n] for n in names if n in by]


__all__ = ["beats", "COLUMNS", "csv_cell", "csv_text", "DELTA_COLUMNS", "delta_rows",
           "facts", "groups", "GROUPS", "HUMAN_COLUMNS", "human_direction", "human_rows",
           "LABELS", "legend", "order", "pct", "section", "share", "statistic_rows", "TABLES",
           "TEST_COLUMNS", "test_rows", "units"]
