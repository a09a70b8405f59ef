"""A record narrowed to some test sets and metrics, for ``evalfw show --test-set/--metric``.

The narrowed record is for rendering only (it is never stored): results, signatures, test
sets, metric definitions, significance tables and drill-down entries outside the selection
are dropped, everything else is kept as it was. Unknown names are errors that list the
record's names.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from evalfw.errors import RecordError, suggest

__all__ = ["select"]


def _check(kind: str, asked: Sequence[str], known: list[str], option: str) -> None:
    for name in asked:
        if name not in known:
            raise RecordError(f"{option} {name}: the run has no {kind} '{name}'"
                              f"{suggest(name, known)}; its {kind}s are: {', '.join(known)}")


def select(record: Mapping[str, Any], test_sets: Sequence[str] = (),
           metrics: Sequence[str] = ()) -> dict[str, Any]:
    """``record`` with only ``test_sets`` and ``metrics`` (all when empty)."""
    known_ts = [t["name"] for t in record["test_sets"]]
    known_m = [m["name"] for m in record["metrics"]]
    _check("test set", test_sets, known_ts, "--test-set")
    _check("metric", metrics, known_m, "--metric")
    ts, ms = set(test_sets or known_ts), set(metrics or known_m)
    out = copy.deepcopy(dict(record))

    def keep(item: Mapping[str, Any]) -> bool:
        return item.get("test_set", next(iter(ts))) in ts and item.get("metric",
                                                                       next(iter(ms))) in ms

    out["test_sets"] = [t for t in out["test_sets"] if t["name"] in ts]
    out["metrics"] = [m for m in out["metrics"] if m["name"] in ms]
    out["results"] = [r for r in out["results"] if keep(r)]
    out["specs"] = [s for s in out.get("specs", []) if keep(s)]
    section = out.get("significance")
    if section:
        section["tables"] = [t for t in section.get("tables", []) if keep(t)]
        if isinstance(section.get("drilldown"), list):
            section["drilldown"] = [d for d in section["drilldown"]
                                    if d.get("test_set", next(iter(ts))) in ts]
    return out
