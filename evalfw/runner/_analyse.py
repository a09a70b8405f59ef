"""A run's significance analysis: intervals, paired tests, Holm, buckets, from the statistics.

When a config has a ``significance:`` block (its keys and defaults are in the config schema),
the runner calls :func:`prepare` before scoring (so a bad baseline, metric or bucketer fails
before any text is read) and :func:`analyse` after scoring. The analysis only uses the
per-segment statistics the scoring produced; no text is re-tokenized. For every test set x
analysed metric (corpus level) it stores in ``record["significance"]["tables"]``:

- ``intervals``: a bootstrap interval of every system's score;
- ``comparisons``: paired tests of every other system against the baseline (bootstrap, AR or
  both); ``pairs``: every pair of systems when ``all_pairs`` is set;
- ``buckets``: per bucket (by reference length by default) every system's interval and paired
  tests against the baseline.

With ``correction: holm`` (the default in mode ``default``; mode ``sacrebleu`` defaults to
``none``, as sacreBLEU corrects nothing) the p-values are adjusted across *all* comparisons of
the run made with the same method (every test set, metric and system). The all-pairs tests and the bucket
tests are families of their own, so asking for them never changes the main table's markers.
The seed is the config's seed and is recorded, so ``evalfw verify`` reproduces every number.
Drill-down texts and sentence exports are :mod:`evalfw.runner._drilldown`.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from evalfw.analysis.buckets import bucketed_analysis
from evalfw.analysis import significance as sig
from evalfw.analysis.results import ComparisonResult, ConfidenceResult, apply_holm
from evalfw.errors import ConfigError, EvalfwError, suggest
from evalfw.runner import _side_by_side as side_by_side
from evalfw.runner._evaluate import build_metrics

if TYPE_CHECKING:
    import numpy as np

    from evalfw.analysis.bucketing import Bucketer
    from evalfw.config import ExperimentConfig
    from evalfw.executors.base import Executor
    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric, SegmentLengths
    from evalfw.runner._evaluate import Evaluation, Progress
    from evalfw.runner._side_by_side import Share

KEY = "significance"


def defaults() -> dict[str, Any]:
    """The ``significance`` keys' defaults, read from the config schema (written once)."""
    from evalfw.config.schema import static_schema

    props = static_schema()["properties"][KEY]["properties"]
    return {k: v["default"] for k, v in props.items() if "default" in v}


@dataclass(frozen=True)
class Settings:
    """The ``significance:`` block with defaults filled in."""

    baseline: str
    method: str = "bootstrap"
    samples: int = 1000
    ar_trials: int = 10000
    confidence: float = 0.95
    alpha: float = 0.05
    mode: str = "default"
    correction: str = "holm"
    all_pairs: bool = False
    metrics: tuple[str, ...] | None = None
    buckets: Any = False
    sentence_export: tuple[str, ...] = ()
    worst_segments: int = 5
    drilldown_metric: str | None = None

    @classmethod
    def from_config(cls, block: Mapping[str, Any]) -> Settings:
        data = {**defaults(), **dict(block)}
        # resolved here and stored in the record's settings, so a record says which correction
        # its p-values got whatever the default was when it was written
        data.setdefault("correction", "holm" if data["mode"] == "default" else "none")
        metrics = data.get("metrics")
        return cls(**{**data, "metrics": tuple(metrics) if metrics else None,
                      "sentence_export": tuple(data["sentence_export"])})

    @property
    def methods(self) -> tuple[str, ...]:
        """Test methods to run; the first one decides the table markers."""
        return ("bootstrap", "ar") if self.method == "both" else (self.method,)

    def trials(self, method: str) -> int:
        return self.samples if method == "bootstrap" else self.ar_trials

    def to_json(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["metrics"] = list(self.metrics) if self.metrics else None
        out["sentence_export"] = list(self.sentence_export)
        return out


@dataclass
class Plan:
    """What :func:`prepare` checked: settings, the analysed metrics, the bucketer, the seed."""

    settings: Settings
    metrics: list[str]
    bucketer: Bucketer | None
    seed: int
    tables: list[dict[str, Any]] = field(default_factory=list)


def _where(cfg: ExperimentConfig, key: str) -> str:
    return f"{cfg.path or '<config>'}: significance.{key}"


def prepare(cfg: ExperimentConfig, host: PluginHost) -> Plan | None:
    """Check the ``significance`` block against the config and plugins; ``None`` without one."""
    if not cfg.significance:
        return None
    s = Settings.from_config(cfg.significance)
    for ts in cfg.test_sets:
        names = [n for n, _ in ts.systems]
        if s.baseline not in names:
            raise ConfigError(
                f"{_where(cfg, 'baseline')}: system '{s.baseline}' is not in test set "
                f"'{ts.name}'{suggest(s.baseline, names)}; its systems are: {', '.join(names)}")
    corpus = [m.name for m in cfg.metrics if "corpus" in m.levels]
    for name in s.metrics or ():
        if name not in corpus:
            raise ConfigError(f"{_where(cfg, 'metrics')}: '{name}' is not a metric with a "
                              f"corpus level{suggest(name, corpus)}; choose from: "
                              f"{', '.join(corpus) or 'none'}")
    metrics = list(s.metrics or corpus)
    if s.mode == "sacrebleu":
        _check_sacrebleu_mode(cfg, host, s, metrics)
    bucketer = None
    if s.buckets is not False:
        choice = {"name": s.buckets} if isinstance(s.buckets, str) else dict(s.buckets)
        name = choice.pop("name", None) or "ref-length"
        try:
            bucketer = host.component("bucketer", name, choice)
        except EvalfwError as exc:
            raise type(exc)(f"{_where(cfg, 'buckets')}: {exc}") from exc
    return Plan(s, metrics, bucketer, cfg.seed)


def _check_sacrebleu_mode(cfg: ExperimentConfig, host: PluginHost, s: Settings,
                          metrics: Sequence[str]) -> None:
    from evalfw.analysis import sacrebleu_mode as sm

    if s.all_pairs:
        raise ConfigError(f"{_where(cfg, 'all_pairs')}: all-pairs tests exist in mode 'default' "
                          "only; set significance.mode: default or all_pairs: false")
    if cfg.seed == 0:
        raise ConfigError(f"{_where(cfg, 'mode')}: sacreBLEU's paired tests treat seed 0 as "
                          "'unseeded', so the numbers could not be verified; choose a "
                          "non-zero seed")
    for ts in cfg.test_sets:
        built = build_metrics(cfg, host, ts)
        for name in metrics:
            try:
                sm.check_metric(built[name])
            except ConfigError as exc:
                raise ConfigError(f"{_where(cfg, 'mode')}: metric '{name}': {exc}; or list "
                                  "the metrics to analyse in significance.metrics") from None


# ----------------------------------------------------------------------------- analysis


def _ticker(progress: Progress | None, label: str) -> Callable[[int, int], None] | None:
    if progress is None:
        return None
    return lambda done, total: progress(done, total, label)


def _paired_intervals(out: sig.PairedOutcome) -> tuple[ConfidenceResult, ...]:
    """sacreBLEU-mode paired bootstrap: the intervals ``--paired-bs`` prints (the baseline's
    and each system's, from the paired resamples)."""
    if out.baseline is None:
        return ()
    return (out.baseline, *(ConfidenceResult(c.system, c.score, c.mean, c.ci, c.lower, c.upper,
                                             c.n, out.baseline.level, c.seed, c.mode)
                            for c in out.comparisons))


def analyse_table(plan: Plan, metric: Metric, stats: Mapping[str, np.ndarray],
                  test_set: str, label: str, progress: Progress | None = None,
                  lengths: Callable[[], SegmentLengths] | None = None,
                  executor: Executor | Share | None = None) -> dict[str, Any]:
    """Intervals, paired tests, all pairs and buckets of one test set x metric (``label``:
    its name in the config). ``lengths`` gives the baseline's segment lengths for buckets when
    the metric reports none; ``executor`` runs blocks of resamples (buckets run here)."""
    s = plan.settings
    if executor is not None and not executor.remote and executor.parallelism < 2:
        executor = None  # one job at a time here: the blocks as before, without any hand-over
    ordered = {s.baseline: stats[s.baseline], **{k: v for k, v in stats.items()
                                                  if k != s.baseline}}
    where = f"significance {test_set}/{label}"
    comparisons: list[ComparisonResult] = []
    intervals = ()
    for method in s.methods:
        out = sig.paired_analysis(ordered, s.baseline, metric, method, s.trials(method),
                                  plan.seed, s.mode, s.confidence,
                                  _ticker(progress, f"{where} {method}"), executor)
        comparisons += out.comparisons
        intervals = intervals or out.intervals or _paired_intervals(out)
    if not intervals:  # AR alone: intervals as sacreBLEU's `--confidence` computes them
        intervals = tuple(sig.confidence_intervals(
            ordered, metric, s.samples, plan.seed, s.mode, s.confidence,
            _ticker(progress, f"{where} intervals"), executor))
    pairs: list[ComparisonResult] = []
    if s.all_pairs:
        for method in s.methods:
            pairs += sig.all_pairs(ordered, metric, method, s.trials(method), plan.seed,
                                   s.confidence, _ticker(progress, f"{where} pairs"),
                                   executor).comparisons
    buckets = None
    if plan.bucketer is not None:
        seg_lengths = metric.lengths(ordered[s.baseline])
        if seg_lengths is None:
            if lengths is None:
                raise ConfigError(f"metric '{label}' reports no segment lengths to bucket by")
            seg_lengths = lengths()
        results = bucketed_analysis(ordered, s.baseline, metric, plan.bucketer, seg_lengths,
                                    s.methods[0], s.trials(s.methods[0]), plan.seed, s.mode,
                                    s.confidence)
        buckets = {"bucketer": {"name": plan.bucketer.name, "version": plan.bucketer.version,
                                **dict(plan.bucketer.options)},
                   "results": [b.to_json() for b in results]}
    return {"test_set": test_set, "metric": label, "baseline": s.baseline,
            "segments": len(ordered[s.baseline]), "systems": list(ordered),
            "intervals": [i.to_json() for i in intervals],
            "comparisons": [c.to_json() for c in comparisons],
            "pairs": [c.to_json() for c in pairs], "buckets": buckets}


def correct(tables: list[dict[str, Any]]) -> None:
    """Holm across the run: one family per method for the main comparisons and all pairs,
    one per method for the bucket comparisons. Fills ``p_adjusted`` in place."""
    families: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for table in tables:
        for key in ("comparisons", "pairs"):
            for c in table[key]:
                families.setdefault((key, c["method"]), []).append(c)
        for bucket in (table["buckets"] or {}).get("results", []):
            for c in bucket["comparisons"]:
                families.setdefault(("bucket", c["method"]), []).append(c)
    for items in families.values():
        results = [ComparisonResult(**c) for c in items]
        for c, adjusted in zip(items, apply_holm(results)):
            c["p_adjusted"] = adjusted.p_adjusted


@dataclass(frozen=True)
class Analysis:
    """The record's ``significance`` section and the files to store beside the record."""

    section: dict[str, Any]
    files: dict[str, str]


def analyse(plan: Plan, cfg: ExperimentConfig, host: PluginHost, ev: Evaluation,
            progress: Progress | None = None, executor: Executor | None = None) -> Analysis:
    """Everything of the module docstring, plus drill-down texts and sentence exports
    (resampling blocks on ``executor``, with the same numbers)."""
    from evalfw.runner import _drilldown as drilldown

    if progress is not None and executor is not None and executor.remote:
        progress = side_by_side.serialised(progress)  # tables may report from several threads
    # NLTK-compatible metrics warn about every zero count as NLTK does; thousands of resamples
    # and segments would repeat the warnings the scoring already showed once
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        calls = [side_by_side.named(functools.partial(
            analyse_table, plan, ev.metrics[(ts.name, label)], ev.statistics(ts.name, label),
            ts.name, label, progress,
            lambda ts=ts: drilldown.text_lengths(ts, ev, plan.settings.baseline)),
            f"the significance table of test set '{ts.name}', metric '{label}'")
            for ts in cfg.test_sets for label in plan.metrics]
        tables = side_by_side.each(calls, executor)
        if plan.settings.correction == "holm":
            correct(tables)
        plan.tables = tables
        files, exports = drilldown.sentence_exports(ev, cfg, plan.settings.sentence_export)
        worst = drilldown.worst_segments(
            ev, cfg, plan.settings.baseline,
            drilldown.drilldown_metric(cfg, plan.settings.drilldown_metric),
            plan.settings.worst_segments)
    section = {"settings": plan.settings.to_json(), "seed": plan.seed, "tables": tables,
               "drilldown": worst, "exports": exports}
    return Analysis(section, files)


def with_files(render: Callable[[Mapping[str, Any]], Mapping[str, str]],
               files: Mapping[str, str]) -> Callable[[Mapping[str, Any]], dict[str, str]]:
    """The store's ``extras`` callback plus the analysis' files (sentence exports)."""
    return lambda record: {**files, **render(record)}
