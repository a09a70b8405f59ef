"""A table's ranking, WMT style: clusters of systems from the all-pairs tests of the marking
test (corrected within their family), and each system's bootstrap rank interval
(:mod:`evalfw.analysis.ranking`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from evalfw.analysis.ranking import clusters
from evalfw.analysis.results import is_significant

if TYPE_CHECKING:
    from evalfw.runner._settings import Settings

__all__ = ["ranking"]


def ranking(table: dict[str, Any], s: Settings, higher_is_better: bool) -> dict[str, Any]:
    """The ranking of ``table`` (its ``ranks`` are taken out of it): systems best first, each
    with its cluster and rank interval, and the clusters."""
    scores: dict[str, float] = {i["system"]: i["score"] for i in table["intervals"]}
    order = sorted(table["systems"], key=lambda name: scores[name], reverse=higher_is_better)
    tests: dict[frozenset[str], Mapping[str, Any]] = {
        frozenset((c["system"], c["baseline"])): c for c in table["pairs"]
        if c["method"] == s.marking}

    def better(a: str, b: str) -> bool:
        c = tests.get(frozenset((a, b)))
        if c is None or not is_significant(c, s.alpha):
            return False
        return scores[a] != scores[b] and (scores[a] > scores[b]) == higher_is_better

    groups = clusters(order, better)
    cluster = {name: k + 1 for k, group in enumerate(groups) for name in group}
    ranks = {r["system"]: r for r in table.pop("ranks")}
    return {"method": s.marking, "alpha": s.alpha, "level": s.confidence,
            "clusters": groups,
            "systems": [{"system": name, "score": scores[name], "cluster": cluster[name],
                         "rank": ranks[name]["rank"], "rank_lower": ranks[name]["lower"],
                         "rank_upper": ranks[name]["upper"]} for name in order]}
