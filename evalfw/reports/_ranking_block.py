"""Rankings as rows, for the text reporters: per test set x metric with all-pairs tests, the
systems best first with their WMT-style cluster, score, rank and bootstrap rank interval
(the record's ``ranking``; :mod:`evalfw.analysis.ranking` says how both are made)."""

from __future__ import annotations

from evalfw.reports._cells import Significance

__all__ = ["rank_span", "tables"]


def rank_span(lower: int, upper: int) -> str:
    """``1–3``, or ``2`` when the interval is one rank."""
    return str(lower) if lower == upper else f"{lower}–{upper}"


def tables(sig: Significance) -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, header, rows) per ranked table, in record order."""
    out = []
    for (test_set, metric), table in sig.tables.items():
        ranking = table.get("ranking")
        if not ranking:
            continue
        places = sig.places(metric)
        level = f"{ranking.get('level', 0.95):.0%}"
        head = ["cluster", "system", "score", "rank", f"{level} rank interval"]
        body = [[str(r["cluster"]), r["system"], f"{r['score']:.{places}f}", str(r["rank"]),
                 rank_span(r["rank_lower"], r["rank_upper"])] for r in ranking["systems"]]
        caption = (f"Ranking of {test_set} {metric}: {len(ranking['clusters'])} cluster(s) "
                   "from the all-pairs tests, rank intervals over the bootstrap resamples:")
        out.append((caption, head, body))
    return out
