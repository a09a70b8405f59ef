"""Families of a run's paired tests: which p-values a correction adjusts together, their
sizes, and whether the resamples asked for can reach alpha in them.

A family never mixes kinds of tests (comparisons against the baseline, all pairs, bucket
tests) nor test methods (bootstrap and approximate randomization test the same hypotheses,
so pooling them would count each twice). Within that, ``significance.family`` decides:

- ``table`` (the default): one test set x one metric, the comparisons one table shows;
- ``test_set``: every analysed metric of one test set;
- ``run``: every test set and metric of the run.

:func:`correct` fills ``p_adjusted`` and writes each table's families (kind, method,
family, correction, size) into it; :func:`planned_limits` predicts the families from the
config before anything is resampled, so :func:`warning` can say at once when the resamples
cannot reach alpha (:mod:`evalfw.analysis.resolution`); :func:`limits` gives the same facts from
the families as run, for the record.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from math import comb
from typing import TYPE_CHECKING, Any

from evalfw.analysis.power import detectable
from evalfw.analysis.resolution import Resolution, describe, p_value_resolution
from evalfw.analysis.results import adjust

if TYPE_CHECKING:
    from evalfw.config import ExperimentConfig
    from evalfw.runner._settings import Settings

__all__ = ["correct", "family_key", "KINDS", "limits", "planned_limits", "SCOPE", "warning"]

#: kinds of paired tests in a table, each corrected on its own
KINDS = ("comparisons", "pairs", "buckets")
#: what one family holds, in words (stderr and the record's warning)
SCOPE = {"table": "one test set x metric x test", "test_set": "one test set x test",
         "run": "the whole run, one test"}
#: where a run asks for more resamples or trials
SETTING = {"bootstrap": "significance.samples: {}", "ar": "significance.ar_trials: {}"}

Key = tuple[str, ...]


def family_key(family: str, kind: str, method: str, test_set: str, metric: str) -> Key:
    """The family a test of ``kind`` and ``method`` on ``test_set`` x ``metric`` belongs to."""
    scope = {"table": (test_set, metric), "test_set": (test_set,), "run": ()}[family]
    return (kind, method, *scope)


def _tests(table: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(kind, comparison) of every paired test stored in ``table``."""
    for kind in ("comparisons", "pairs"):
        for c in table[kind]:
            yield kind, c
    for bucket in (table.get("buckets") or {}).get("results", []):
        for c in bucket["comparisons"]:
            yield "buckets", c


def correct(tables: Sequence[dict[str, Any]], correction: str, family: str,
            alpha: float = 0.05) -> None:
    """Adjust every family's p-values by ``correction`` (``p_adjusted``, in place), give each
    test with a standard error its minimum detectable difference at 80 % power (``mdd``: at
    ``alpha``; ``mdd_adjusted``: at ``alpha / m`` in a corrected family of ``m``, the
    threshold its smallest p-value must pass) and store each table's ``families``: for every
    kind and method it has, the family and its size."""
    groups: dict[Key, list[dict[str, Any]]] = {}
    for table in tables:
        for kind, c in _tests(table):
            key = family_key(family, kind, c["method"], table["test_set"], table["metric"])
            groups.setdefault(key, []).append(c)
    for items in groups.values():
        adjusted = adjust([c["p_value"] for c in items], correction)
        for c, value in zip(items, adjusted or ()):
            c["p_adjusted"] = value
        for c in items:
            se = c.get("se")
            c["mdd"] = None if se is None else detectable(se, alpha)
            c["mdd_adjusted"] = None if se is None or adjusted is None else \
                detectable(se, alpha, tests=len(items))
    for table in tables:
        present = dict.fromkeys((kind, c["method"]) for kind, c in _tests(table))
        table["families"] = [
            {"kind": kind, "method": method, "family": family, "correction": correction,
             "size": len(groups[family_key(family, kind, method, table["test_set"],
                                           table["metric"])])}
            for kind, method in present]


def _limits(sizes: Mapping[tuple[str, str], int], s: Settings) -> list[dict[str, Any]]:
    """One entry per (kind, method): the limit in its largest family."""
    return [{"kind": kind, "family": s.family,
             **p_value_resolution(method, s.trials(method), size, s.correction, s.alpha).to_json()}
            for (kind, method), size in sizes.items()]


def _largest(families: Iterable[tuple[Key, int]]) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for key, size in families:
        kind, method = key[0], key[1]
        out[(kind, method)] = max(out.get((kind, method), 0), size)
    return out


def planned_limits(cfg: ExperimentConfig, s: Settings, metrics: Sequence[str],
                   buckets: Mapping[tuple[str, str], int] | None = None
                   ) -> list[dict[str, Any]]:
    """The limits of the comparisons and all-pairs tests the config asks for, from the number
    of systems alone (before anything is scored or resampled); with ``buckets`` (test set,
    metric -> bucket tests, known once the segments are bucketed) the bucket tests' only."""
    sizes: dict[Key, int] = {}

    def add(kind: str, method: str, test_set: str, metric: str, count: int) -> None:
        if count:
            key = family_key(s.family, kind, method, test_set, metric)
            sizes[key] = sizes.get(key, 0) + count

    for ts in cfg.test_sets:
        for metric in metrics:
            if buckets is not None:
                add("buckets", s.marking, ts.name, metric, buckets.get((ts.name, metric), 0))
                continue
            for method in s.methods:
                add("comparisons", method, ts.name, metric, len(ts.systems) - 1)
                if s.all_pairs:
                    add("pairs", method, ts.name, metric, comb(len(ts.systems), 2))
    return _limits(_largest(sizes.items()), s)


def limits(tables: Sequence[Mapping[str, Any]], s: Settings) -> list[dict[str, Any]]:
    """The limits of the families as run (after :func:`correct`), buckets included."""
    families = (((f["kind"], f["method"]), f["size"]) for t in tables
                for f in t.get("families", ()) if f["size"])
    return _limits(_largest(families), s)


def warning(entries: Sequence[Mapping[str, Any]],
            setting: Mapping[str, str] = SETTING) -> str | None:
    """One sentence for every kind and method whose resamples cannot reach alpha (None when
    all can): what the smallest p-value is and how many resamples or trials would do
    (``setting``: where to ask for them, per method, ``{}`` standing for the number)."""
    parts = []
    for e in entries:
        limit = Resolution(**{k: e[k] for k in Resolution.__dataclass_fields__})
        if limit.reachable:
            continue
        what = {"comparisons": "", "pairs": "all-pairs tests: ",
                "buckets": "bucket tests: "}[e["kind"]]
        parts.append(what + describe(limit, SCOPE[e["family"]], setting[limit.method]))
    if not parts:
        return None
    return "significance is out of reach: " + "; ".join(parts)
