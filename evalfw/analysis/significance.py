"""Public API of the significance analyses: bootstrap intervals and paired tests.

Everything works from per-segment statistics (the rows of
:meth:`evalfw.metrics.base.Metric.segment_statistics`, one array per system, segments aligned)
and the :class:`~evalfw.metrics.base.Metric` that computed them; nothing is re-tokenized. Any
metric works; a metric that scores worse when higher (TER) is tested the same way, only the
reading of "better" changes. Two modes:

``mode="sacrebleu"``
    sacreBLEU 2.6.0's numbers for the same seed (``--confidence``, ``--paired-bs``,
    ``--paired-ar``); ``seed=None`` reads ``$SACREBLEU_SEED`` (default 12345, ``none`` =
    unseeded). Needs a metric that reproduces sacreBLEU's resampling arithmetic
    (``Metric.sacrebleu_resampling``). See :mod:`evalfw.analysis.sacrebleu_mode`.
``mode="default"``
    exact float64 statistics, bounded memory, percentile intervals, two-sided tests, shared
    resamples for all systems; ``seed=None`` means 12345 and ``"none"`` draws a fresh seed,
    which is recorded in the results. See :mod:`evalfw.analysis._default_mode`.

Examples::

    stats = {"base": base_stats, "new": new_stats}          # statistics rows per system
    out = paired_analysis(stats, "base", metric, method="bootstrap", n=1000, seed=1)
    out.baseline.ci, out.comparisons[0].p_value
    paired_test(stats, "base", metric, method="ar", mode="sacrebleu")  # list[ComparisonResult]
    confidence_interval(stats["new"], metric, n=1000, mode="sacrebleu").to_json()
    apply_correction(comparisons_of_one_family, "holm")     # multiple-comparison correction
    p_value_resolution("bootstrap", 1000, 12, "holm", 0.05)  # can 1000 resamples reach alpha?
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.analysis import _default_mode as dm
from evalfw.analysis import resampling as rs
from evalfw.analysis import sacrebleu_mode as sm
from evalfw.analysis.ranking import RankInterval, rank_intervals
from evalfw.analysis.results import METHODS, MODES, ComparisonResult, ConfidenceResult
from evalfw.analysis.units import Units, bootstrap_units, widening
from evalfw.errors import ConfigError, InputError, suggest

if TYPE_CHECKING:
    from evalfw.analysis._blocks import Mapper
    from evalfw.metrics.base import Metric

#: statistics rows of one system (n_segments, k)
Stats = np.ndarray

DEFAULT_SEED = 12345
DEFAULT_N = sm.DEFAULT_N


@dataclass(frozen=True)
class PairedOutcome:
    """A paired test of every system against a baseline (or of all pairs).

    ``baseline`` is the baseline's bootstrap interval (paired bootstrap only, else None);
    ``intervals`` the intervals of every system (default-mode bootstrap: one shared run).
    """

    method: str
    mode: str
    n: int
    seed: int | None
    baseline: ConfidenceResult | None
    comparisons: tuple[ComparisonResult, ...]
    intervals: tuple[ConfidenceResult, ...] = ()
    #: every pair's test (:func:`all_pairs`, or :func:`bootstrap_analysis` with ``pairs``)
    pairs: tuple[ComparisonResult, ...] = ()
    #: every system's bootstrap rank interval (:func:`bootstrap_analysis` with ``ranks``)
    ranks: tuple[RankInterval, ...] = ()
    #: what was resampled or swapped: ``segment`` or ``document``
    unit: str = "segment"

    def to_json(self) -> dict[str, Any]:
        return {
            "method": self.method, "mode": self.mode, "n": self.n, "seed": self.seed,
            "unit": self.unit,
            "baseline": self.baseline.to_json() if self.baseline else None,
            "comparisons": [c.to_json() for c in self.comparisons],
            "intervals": [c.to_json() for c in self.intervals],
            "pairs": [c.to_json() for c in self.pairs],
            "ranks": [r.to_json() for r in self.ranks],
        }


def _check(mode: str, method: str | None = None) -> None:
    if mode not in MODES:
        raise ConfigError(f"significance mode '{mode}' is unknown{suggest(mode, MODES)}; "
                          f"choose one of: {', '.join(MODES)}")
    if method is not None and method not in METHODS:
        raise ConfigError(f"paired test method '{method}' is unknown{suggest(method, METHODS)}; "
                          f"choose one of: {', '.join(METHODS)}")


def default_seed(seed: int | str | None) -> int:
    """Default-mode seed: None -> 12345; 'none' -> a fresh random seed (recorded)."""
    if seed is None:
        return DEFAULT_SEED
    if isinstance(seed, str) and seed.strip().lower() == "none":
        return secrets.randbits(63)
    try:
        return int(seed)
    except (TypeError, ValueError):
        raise ConfigError(f"seed: expected an integer or 'none', got {seed!r}") from None


def _n(n: int | None, method: str) -> int:
    n = DEFAULT_N[method] if n is None or n == 0 else n
    if not isinstance(n, int) or n < 1:
        raise ConfigError(f"number of samples must be a positive integer, got {n!r}")
    return n


def _named(metric: Metric, stats_by_system: Mapping[str, Stats],
           units: Units | None = None) -> list[tuple[str, rs.Columns]]:
    """Each system's resampling rows: its segments, or its documents (``units``)."""
    named = [(name, rs.columns(metric, st)) for name, st in stats_by_system.items()]
    if units is None:
        return named
    segments = rs.check_aligned(named)
    if segments != units.segments:
        raise InputError(f"the documents name {units.segments} segments, the systems have "
                         f"{segments}")
    return [(name, units.group(cols)) for name, cols in named]


def _draw(units: Units | None) -> rs.Draw:
    return rs.draw_indices if units is None else units.draw()


def _sacrebleu_units(units: Units | None) -> None:
    if units is not None:
        raise ConfigError("significance mode 'sacrebleu' resamples segments, as sacreBLEU "
                          "does; resampling documents needs mode 'default'")


def confidence_intervals(stats_by_system: Mapping[str, Stats], metric: Metric,
                         n: int = 1000, seed: int | str | None = None, mode: str = "default",
                         level: float = 0.95, progress: dm.Progress | None = None,
                         executor: Mapper | None = None,
                         units: Units | None = None) -> list[ConfidenceResult]:
    """Bootstrap interval of each system's score (sacreBLEU mode: each as ``--confidence``).
    ``executor``: where default-mode blocks of resamples run (the numbers do not change);
    ``units``: resample whole documents (:mod:`evalfw.analysis.units`)."""
    _check(mode)
    n = _n(n, "bootstrap")
    if mode == "sacrebleu":
        _sacrebleu_units(units)
        seed_s = sm.read_seed(seed)
        return [sm.confidence(metric, cols, n, seed_s, system=name)
                for name, cols in _named(metric, stats_by_system)]
    return list(bootstrap_analysis(stats_by_system, None, metric, n, seed, level, progress,
                                   executor, units).intervals)


def confidence_interval(stats: Stats, metric: Metric, n: int = 1000,
                        seed: int | str | None = None, mode: str = "default",
                        level: float = 0.95, system: str = "system") -> ConfidenceResult:
    """Bootstrap interval of one system's score."""
    return confidence_intervals({system: stats}, metric, n, seed, mode, level)[0]


def bootstrap_analysis(stats_by_system: Mapping[str, Stats], baseline: str | None,
                       metric: Metric, n: int | None = None,
                       seed: int | str | None = None, level: float = 0.95,
                       progress: dm.Progress | None = None, executor: Mapper | None = None,
                       units: Units | None = None, pairs: bool = False,
                       ranks: bool = False) -> PairedOutcome:
    """Default mode: one stream of bootstrap resamples shared by every system, and all that
    follows from it: every system's interval, the paired bootstrap of every other system
    against ``baseline`` (None: none), of every pair (``pairs``; the later-listed system of
    each pair against the earlier one) and every system's rank interval (``ranks``)."""
    if baseline is not None and baseline not in stats_by_system:
        raise ConfigError(f"baseline '{baseline}' is not among the systems"
                          f"{suggest(baseline, stats_by_system)}: {', '.join(stats_by_system)}")
    n = _n(n, "bootstrap")
    value = default_seed(seed)
    named = _named(metric, stats_by_system, units)
    unit = bootstrap_units(units)
    matrix = dm.bootstrap_matrix(metric, named, n, np.random.default_rng(value), progress,
                                 executor, _draw(units))
    observed = dm.corpus_scores(metric, named)
    if units is not None:  # few documents: the small-sample widening (analysis.units)
        centre = np.asarray(observed, dtype=np.float64)[None, :]
        matrix = centre + widening(units.count, level) * (matrix - centre)
    intervals = dm.confidence(named, matrix, observed, level, value)
    names = [name for name, _ in named]

    def test(j: int, i: int) -> ComparisonResult:
        return dm.bootstrap_comparison(names[j], names[i], matrix[:, j], matrix[:, i],
                                       observed[j], observed[i], level, value, unit)

    b = names.index(baseline) if baseline is not None else -1
    comps = tuple(test(k, b) for k in range(len(names)) if k != b) if b >= 0 else ()
    tested = tuple(test(j, i) for i, j in combinations(range(len(names)), 2)) if pairs else ()
    higher = bool(getattr(metric, "higher_is_better", True))
    ranked = tuple(rank_intervals(names, observed, matrix, higher, level)) if ranks else ()
    return PairedOutcome("bootstrap", "default", n, value, intervals[b] if b >= 0 else None,
                         comps, tuple(intervals), tested, ranked, unit)


def paired_analysis(stats_by_system: Mapping[str, Stats], baseline: str, metric: Metric,
                    method: str = "bootstrap", n: int | None = None,
                    seed: int | str | sm.SacreSeed | None = None, mode: str = "default",
                    level: float = 0.95, progress: dm.Progress | None = None,
                    executor: Mapper | None = None,
                    units: Units | None = None) -> PairedOutcome:
    """Paired test of every other system against ``baseline`` (a key of ``stats_by_system``);
    ``executor`` and ``units`` as in :func:`confidence_intervals`; in mode ``sacrebleu``
    ``seed`` may be a :class:`~evalfw.analysis.sacrebleu_mode.SacreSeed` already read."""
    _check(mode, method)
    if baseline not in stats_by_system:
        raise ConfigError(f"baseline '{baseline}' is not among the systems"
                          f"{suggest(baseline, stats_by_system)}: {', '.join(stats_by_system)}")
    n = _n(n, method)
    if mode == "sacrebleu":
        _sacrebleu_units(units)
        named = _named(metric, stats_by_system)
        base = next(item for item in named if item[0] == baseline)
        others = [item for item in named if item[0] != baseline]
        seed_s = seed if isinstance(seed, sm.SacreSeed) else sm.read_seed(seed)
        if method == "ar":
            comps = sm.paired_ar(metric, base, others, n, seed_s)
            return PairedOutcome(method, mode, n, seed_s.value, None, tuple(comps))
        bl, comps = sm.paired_bootstrap(metric, base, others, n, seed_s)
        return PairedOutcome(method, mode, n, seed_s.value, bl, tuple(comps))
    if isinstance(seed, sm.SacreSeed):
        raise ConfigError("a sacreBLEU seed is for mode 'sacrebleu'")
    if method == "bootstrap":
        return bootstrap_analysis(stats_by_system, baseline, metric, n, seed, level, progress,
                                  executor, units)
    value = default_seed(seed)
    ar_units = units if units is not None and units.ar == "document" else None
    named = _named(metric, stats_by_system, ar_units)
    base = next(item for item in named if item[0] == baseline)
    others = [item for item in named if item[0] != baseline]
    comps = dm.ar_comparisons(metric, [(o, base) for o in others], n,
                              np.random.default_rng(value), value, progress, executor,
                              bootstrap_units(ar_units))
    return PairedOutcome(method, mode, n, value, None, tuple(comps),
                         unit=bootstrap_units(ar_units))


def with_deltas(tests: Sequence[ComparisonResult],
                bootstrap: Sequence[ComparisonResult]) -> tuple[ComparisonResult, ...]:
    """``tests`` (approximate randomization, say) with the interval and spread of each pair's
    difference taken from the paired bootstrap of the same pair (default mode: the same
    resamples as the intervals), so every test shows its difference's interval."""
    by_pair = {(b.system, b.baseline): b for b in bootstrap}
    out = []
    for c in tests:
        b = by_pair.get((c.system, c.baseline))
        out.append(c if b is None else replace(c, delta_lower=b.delta_lower,
                                               delta_upper=b.delta_upper, se=b.se))
    return tuple(out)


def paired_test(stats_by_system: Mapping[str, Stats], baseline: str, metric: Metric,
                method: str = "bootstrap", n: int | None = None, seed: int | str | None = None,
                mode: str = "default", level: float = 0.95) -> list[ComparisonResult]:
    """:func:`paired_analysis`, comparisons only."""
    return list(paired_analysis(stats_by_system, baseline, metric, method, n, seed, mode,
                                level).comparisons)


def all_pairs(stats_by_system: Mapping[str, Stats], metric: Metric,
              method: str = "bootstrap", n: int | None = None, seed: int | str | None = None,
              level: float = 0.95, progress: dm.Progress | None = None,
              executor: Mapper | None = None, units: Units | None = None) -> PairedOutcome:
    """Every pair of systems (default mode): the later-listed system of each pair is tested
    against the earlier one, all on one shared stream of resamples or masks; the outcome's
    ``comparisons`` (and ``pairs``) are the pairs' tests."""
    _check("default", method)
    n = _n(n, method)
    if method == "bootstrap":
        out = bootstrap_analysis(stats_by_system, None, metric, n, seed, level, progress,
                                 executor, units, pairs=True)
        return replace(out, comparisons=out.pairs)
    value = default_seed(seed)
    ar_units = units if units is not None and units.ar == "document" else None
    named = _named(metric, stats_by_system, ar_units)
    pairs = list(combinations(range(len(named)), 2))
    comps = tuple(dm.ar_comparisons(metric, [(named[j], named[i]) for i, j in pairs], n,
                                    np.random.default_rng(value), value, progress, executor,
                                    bootstrap_units(ar_units)))
    return PairedOutcome(method, "default", n, value, None, comps, pairs=comps,
                         unit=bootstrap_units(ar_units))


__all__ = [
    "all_pairs", "bootstrap_analysis", "confidence_interval", "confidence_intervals",
    "DEFAULT_N", "DEFAULT_SEED", "with_deltas",
    "default_seed", "paired_analysis", "paired_test", "PairedOutcome", "Stats",
]
