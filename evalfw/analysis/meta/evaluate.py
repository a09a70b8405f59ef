"""The meta-evaluation of one test set: every metric against one human score, at system and
segment level, with bootstrap intervals, permutation tests, Holm, clusters and agreement by
|delta|, as the JSON-shaped section a record stores (:func:`meta_evaluate`).

Bootstrap: the test set's segments are drawn with replacement ``samples`` times (the same
draws for every metric, every statistic and the human scores); a system-level resample
rescores every system's corpus score from its resampled statistics rows and its human score
from the resampled judgements (system-level-only human scores stay as they are), a
segment-level one reweights the segments. Intervals are percentile intervals of the resamples
whose statistic is defined. Permutation tests (:mod:`~evalfw.analysis.meta.permute`) run for
every pair of metrics on the system-level statistics and the segment-level statistics grouped
by item, corrected within each statistic's family of metric pairs; ungrouped segment-level
statistics get intervals only (a trial would visit every pair of items again).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.analysis import resampling as rs
from evalfw.analysis.meta import grouped, ungrouped
from evalfw.analysis.meta.permute import Statistic, Tested, Trials, permutation_trials, swap_masks
from evalfw.analysis.meta.ranking import clusters, corrected, default_edges, delta_bins
from evalfw.analysis.meta.system import SYSTEM_STATISTICS, agreement, system_statistics

if TYPE_CHECKING:
    from evalfw.metrics.base import Metric

#: segment-level statistics, by grouping
SEGMENT_STATISTICS = ("acc_eq", "tau_b", "tau_c")
GROUPINGS = ("item", "none")


@dataclass(frozen=True)
class Settings:
    """What the meta-evaluation does (the config's ``meta_evaluation`` block)."""

    samples: int = 1000
    permutations: int = 1000
    confidence: float = 0.95
    alpha: float = 0.05
    correction: str = "holm"
    levels: tuple[str, ...] = ("system", "segment")
    groupings: tuple[str, ...] = GROUPINGS
    include_human: bool = False
    #: metric name -> |delta| bin edges in its units (default: by its scale)
    delta_bins: Mapping[str, Sequence[float]] | None = None


@dataclass(frozen=True, eq=False)
class Human:
    """One test set's human scores, in their own direction: per system (NaN: not judged) and,
    for segment-level judgements, per system and segment with the judged mask."""

    name: str
    higher_is_better: bool
    system: np.ndarray
    segment: np.ndarray | None = None
    judged: np.ndarray | None = None


@dataclass(frozen=True, eq=False)
class MetricRows:
    """One metric: its statistics rows per system (the test set's systems, in order)."""

    name: str
    metric: Metric
    rows: Sequence[np.ndarray]


def _sign(higher_is_better: bool) -> float:
    return 1.0 if higher_is_better else -1.0


def _interval(values: np.ndarray, level: float) -> dict[str, Any]:
    ok = values[np.isfinite(values)]
    if not len(ok):
        return {"lower": None, "upper": None, "resamples": 0}
    tail = (1.0 - level) / 2.0
    lower, upper = (float(q) for q in np.quantile(ok, [tail, 1.0 - tail]))
    return {"lower": lower, "upper": upper, "resamples": int(len(ok))}


def _number(value: float) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


@dataclass(frozen=True, eq=False)
class _Draws:
    counts: np.ndarray  # (samples, segments)
    last: np.ndarray  # each resample's last segment


def _draws(rng: np.random.Generator, samples: int, segments: int) -> _Draws:
    idx = rng.choice(segments, size=(samples, segments), replace=True)
    return _Draws(rs.count_matrix(idx, segments), idx[:, -1])


def _resampled_corpus(m: MetricRows, draws: _Draws) -> np.ndarray:
    out = np.empty((len(draws.counts), len(m.rows)))
    for k, rows in enumerate(m.rows):
        cols = rs.columns(m.metric, rows)
        sums = rs.exact_product(draws.counts, cols.sums)
        last = None if cols.last is None else cols.last[draws.last]
        out[:, k] = m.metric.score_rows(sums, last, cols.segments)
    return out


def _human_system(human: Human, draws: _Draws | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Human system scores (own direction) and their resamples."""
    if human.segment is None or human.judged is None:
        return human.system, None
    judged = human.judged.astype(np.float64)
    values = np.where(human.judged, human.segment, 0.0)
    if draws is None:
        return human.system, None
    num = (draws.counts[:, None, :] * values[None, :, :]).sum(axis=2)  # not BLAS: fixed bits
    den = draws.counts @ judged.T  # counts: exact whatever the order
    with np.errstate(invalid="ignore", divide="ignore"):
        return human.system, num / den


def _trials(stat: Statistic, x: Mapping[str, np.ndarray], names: Sequence[str],
            masks: np.ndarray) -> dict[tuple[str, str], Trials]:
    """The permutation trials of every pair of metrics (in config order)."""
    return {(a, b): permutation_trials(stat, x[a], x[b], masks)
            for i, a in enumerate(names) for b in names[i + 1:]}


def _tested(trials: Mapping[tuple[str, str], Trials], statistic: str, better: str,
            worse: str) -> Tested:
    if (better, worse) in trials:
        return trials[(better, worse)].test(statistic, True)
    return trials[(worse, better)].test(statistic, False)


def _tests(statistic: str, order: list[str], values: Mapping[str, float],
           trials: Mapping[tuple[str, str], Trials], settings: Settings) -> dict[str, Any]:
    """The family of one statistic: tests of every pair, corrected, and the clusters."""
    pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
    raw = [_tested(trials, statistic, a, b).p_value for a, b in pairs]
    adjusted = corrected(raw, settings.correction)
    index = {name: k for k, name in enumerate(order)}
    matrix = np.ones((len(order), len(order)))
    tests = []
    for (a, b), p, q in zip(pairs, raw, adjusted):
        matrix[index[a], index[b]] = q
        tests.append({"better": a, "worse": b, "delta": values[a] - values[b],
                      "p_value": p, "p_adjusted": q, "significant": q <= settings.alpha})
    return {"tests": tests, "family_size": len(pairs),
            "clusters": dict(zip(order, clusters(matrix, settings.alpha)))}


def _ordered(values: Mapping[str, float | None], names: Sequence[str]) -> list[str]:
    """Metrics best first (undefined last; ties in config order)."""
    return sorted(names, key=lambda n: (values[n] is None, -(values[n] or 0.0), names.index(n)))


def _entry(level: str, grouping: str | None, statistic: str, names: Sequence[str],
           values: Mapping[str, float | None], resampled: Mapping[str, np.ndarray] | None,
           extra: Mapping[str, Mapping[str, Any]], settings: Settings,
           trials: Mapping[tuple[str, str], Trials] | None, **facts: Any) -> dict[str, Any]:
    order = _ordered(values, names)
    family = _tests(statistic, order, {n: values[n] or 0.0 for n in names}, trials, settings) \
        if trials is not None else None
    metrics = []
    for name in order:
        row: dict[str, Any] = {"metric": name, "value": values[name]}
        if resampled is not None:
            row.update(_interval(resampled[name], settings.confidence))
        row.update(extra.get(name, {}))
        if family is not None:
            row["cluster"] = family["clusters"][name]
        metrics.append(row)
    out: dict[str, Any] = {"level": level, "grouping": grouping, "statistic": statistic,
                           **facts, "metrics": metrics}
    if family is not None:
        out.update(tests=family["tests"], family_size=family["family_size"])
    return out


def meta_evaluate(test_set: str, systems: Sequence[str], human_systems: Sequence[str],
                  human: Human, metrics: Sequence[MetricRows], settings: Settings,
                  seed: int, scales: Mapping[str, float | None] | None = None
                  ) -> dict[str, Any]:
    """The meta-evaluation section of one test set (see the module docstring)."""
    rng_boot, rng_perm = (np.random.default_rng([seed, k]) for k in (0, 1))
    segments = len(metrics[0].rows[0]) if metrics else 0
    draws = _draws(rng_boot, settings.samples, segments) if settings.samples else None
    keep = [k for k, s in enumerate(systems)
            if (settings.include_human or s not in human_systems) and np.isfinite(human.system[k])]
    used = [systems[k] for k in keep]
    statistics: list[dict[str, Any]] = []
    out: dict[str, Any] = {
        "test_set": test_set, "human": human.name,
        "human_level": "system" if human.segment is None else "segment", "systems": used,
        "excluded": [s for s in systems if s not in used], "statistics": statistics}
    human_sys, human_res = _human_system(human, draws)
    y = _sign(human.higher_is_better) * human_sys[keep]
    out["human_scores"] = [
        {"system": systems[k], "score": _number(human_sys[k]), "used": k in keep,
         **(_interval(human_res[:, k], settings.confidence) if human_res is not None else {})}
        for k in range(len(systems))]
    if "system" in settings.levels and len(keep) >= 2:
        statistics += _system_level(metrics, keep, y, human, human_res, draws, settings,
                                    rng_perm, out, scales or {})
    if "segment" in settings.levels and human.segment is not None and human.judged is not None:
        statistics += _segment_level(metrics, keep, human, draws, settings, rng_perm)
    return out


def _system_level(metrics: Sequence[MetricRows], keep: list[int], y: np.ndarray, human: Human,
                  human_res: np.ndarray | None, draws: _Draws | None, settings: Settings,
                  rng: np.random.Generator, out: dict[str, Any],
                  scales: Mapping[str, float | None]) -> list[dict[str, Any]]:
    names = [m.name for m in metrics]
    x = {m.name: _sign(m.metric.higher_is_better)
         * np.array([m.metric.score(m.rows[k]) for k in keep]) for m in metrics}
    observed = {n: {k: _number(float(v)) for k, v in system_statistics(x[n], y).items()}
                for n in names}
    resampled: dict[str, dict[str, np.ndarray]] = {}
    if draws is not None:
        ys = y if human_res is None else _sign(human.higher_is_better) * human_res[:, keep]
        for m in metrics:
            xs = _sign(m.metric.higher_is_better) * _resampled_corpus(m, draws)[:, keep]
            resampled[m.name] = system_statistics(xs, ys)
    trials = None
    if settings.permutations and len(metrics) > 1:
        masks = swap_masks(rng, settings.permutations, len(keep))

        def stat(rows: np.ndarray) -> dict[str, np.ndarray]:
            return system_statistics(rows, y)

        trials = _trials(stat, x, names, masks)
    entries = [
        _entry("system", None, s, names, {n: observed[n][s] for n in names},
               {n: resampled[n][s] for n in names} if resampled else None, {}, settings,
               trials, items=len(keep), pairs=len(keep) * (len(keep) - 1) // 2)
        for s in SYSTEM_STATISTICS]
    deltas = []
    for m in metrics:
        raw = np.array([m.metric.score(m.rows[k]) for k in keep])
        diff, agree = agreement(_sign(m.metric.higher_is_better) * raw, y)
        edges = (settings.delta_bins or {}).get(m.name) or default_edges(scales.get(m.name))
        deltas.append({"metric": m.name, **delta_bins(diff, agree, edges)})
    out["deltas"] = deltas
    return entries


def _segment_level(metrics: Sequence[MetricRows], keep: list[int], human: Human,
                   draws: _Draws | None, settings: Settings,
                   rng: np.random.Generator) -> list[dict[str, Any]]:
    assert human.segment is not None and human.judged is not None
    names = [m.name for m in metrics]
    judged = human.judged[keep]
    y = _sign(human.higher_is_better) * human.segment[keep][judged]
    x = {m.name: _sign(m.metric.higher_is_better)
         * np.stack([m.metric.sentence_scores(m.rows[k]) for k in keep])[judged]
         for m in metrics}
    entries: list[dict[str, Any]] = []
    items = int(judged.sum())
    if "item" in settings.groupings:
        pairs = grouped.Pairs.of(judged)
        values: dict[str, dict[str, float | None]] = {s: {} for s in SEGMENT_STATISTICS}
        resampled: dict[str, dict[str, np.ndarray]] = {s: {} for s in SEGMENT_STATISTICS}
        extra: dict[str, dict[str, dict[str, Any]]] = {s: {} for s in SEGMENT_STATISTICS}
        for m in metrics:
            st = grouped.PairStatus.of(pairs, x[m.name], y)
            cal = grouped.calibrate(pairs, st)
            values["acc_eq"][m.name] = _number(cal.value)
            extra["acc_eq"][m.name] = {"epsilon": cal.epsilon, "ties": _number(cal.ties),
                                       "segments": cal.segments}
            if draws is not None:
                resampled["acc_eq"][m.name] = grouped.resampled_calibration(pairs, st,
                                                                            draws.counts)
            for s, v in (("tau_b", "b"), ("tau_c", "c")):
                per = grouped.segment_taus(pairs, st, v)
                value, n = grouped.average(per)
                values[s][m.name] = _number(value)
                extra[s][m.name] = {"segments": n}
                if draws is not None:
                    resampled[s][m.name] = grouped.resampled_averages(per, draws.counts)
        trials = None
        if settings.permutations and len(metrics) > 1:
            masks = swap_masks(rng, settings.permutations, items)
            trials = _trials(grouped.GroupedStatistics(pairs, y), x, names, masks)
        for s in SEGMENT_STATISTICS:
            entries.append(_entry(
                "segment", "item", s, names, values[s],
                resampled[s] if draws is not None else None, extra[s], settings, trials,
                items=items, segments=int(pairs.used.sum()), pairs=int(len(pairs.row))))
    if "none" in settings.groupings:
        seg = np.flatnonzero(judged.ravel()) % judged.shape[1]
        values = {s: {} for s in SEGMENT_STATISTICS}
        resampled = {s: {} for s in SEGMENT_STATISTICS}
        extra = {s: {} for s in SEGMENT_STATISTICS}
        total_pairs = items * (items - 1) // 2
        for m in metrics:
            u = ungrouped.analyse(ungrouped.Items(x[m.name], y, seg, judged.shape[1]),
                                  draws is not None)
            values["acc_eq"][m.name] = _number(u.acc_eq)
            values["tau_b"][m.name] = _number(u.tau_b)
            values["tau_c"][m.name] = _number(u.tau_c)
            extra["acc_eq"][m.name] = {"epsilon": u.epsilon, "ties": _number(u.ties)}
            if draws is not None:
                res = ungrouped.resampled(u, draws.counts)
                for s in SEGMENT_STATISTICS:
                    resampled[s][m.name] = res[s]
        for s in SEGMENT_STATISTICS:
            entries.append(_entry("segment", "none", s, names, values[s],
                                  resampled[s] if draws is not None else None, extra[s],
                                  settings, None, items=items, pairs=total_pairs))
    return entries


__all__ = ["GROUPINGS", "Human", "meta_evaluate", "MetricRows", "SEGMENT_STATISTICS",
           "Settings"]
