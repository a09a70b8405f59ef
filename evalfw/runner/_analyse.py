"""A run's significance analysis: intervals, paired tests, Holm, buckets, from the statistics.

When a config has a ``significance:`` block (its keys and defaults are in the config schema),
the runner calls :func:`prepare` before scoring (so a bad baseline, metric or bucketer fails
before any text is read) and hands each test set to :class:`Analysing` once its statistics
are in (on a cluster or a run's pool its tables resample while later test sets are scored; the
correction waits for every table); :func:`analyse` does it all after scoring. The analysis
only uses the per-segment statistics the scoring produced; no text is re-tokenized. For
every test set x analysed metric (corpus level) it stores in
``record["significance"]["tables"]``:

- ``intervals``: a bootstrap interval of every system's score;
- ``comparisons``: paired tests of every other system against the baseline (bootstrap, AR or
  both); ``pairs``: every pair of systems when ``all_pairs`` is set;
- ``buckets``: per bucket (by reference length by default) every system's interval and paired
  tests against the baseline.

With ``correction: holm`` (the default in mode ``default``; mode ``sacrebleu`` defaults to
``none``, as sacreBLEU corrects nothing; ``bonferroni`` is the third choice) the p-values are
adjusted within each family: by default the comparisons of one table (one test set x one
metric x one test method), or ``family: test_set`` / ``run`` (:mod:`evalfw.runner._families`).
The all-pairs tests and the bucket tests are families of their own, so asking for them never
changes the main table's markers. Each table records its families and their sizes; the
section's ``resolution`` says, per kind of test and method, the smallest p-value the resamples
allow in the largest family, and ``resolution_warning`` says so in words when that cannot reach
alpha (given on stderr before resampling: :func:`planned_warning`). The seed is the config's
seed and is recorded, so ``evalfw verify`` reproduces every number. Drill-down texts and
sentence exports are :mod:`evalfw.runner._drilldown`.
"""

from __future__ import annotations

import copy
import functools
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evalfw.analysis.sacrebleu_mode import SACREBLEU_BOOTSTRAP
from evalfw.analysis.units import Units
from evalfw.errors import ConfigError, EvalfwError, suggest
from evalfw.io.labels import read_labels
from evalfw.runner import _families
from evalfw.runner import _side_by_side as side_by_side
from evalfw.runner._evaluate import build_metrics
from evalfw.runner._ranking import ranking
from evalfw.runner._settings import Plan, Settings
from evalfw.runner._table import analyse_table, bucket_tests, table_parts
from evalfw.runner.progress import StageWork

if TYPE_CHECKING:
    from evalfw.config import ExperimentConfig, TestSetConfig
    from evalfw.executors.base import Executor
    from evalfw.host.host import PluginHost
    from evalfw.runner._evaluate import Evaluation, Progress

__all__ = ["analyse", "Analysing", "Analysis", "analyse_table", "mode_warning", "Plan",
           "planned_warning", "prepare", "Settings", "with_files"]


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
        if names == [s.baseline] and s.method in ("ar", "both"):
            raise ConfigError(
                f"{_where(cfg, 'method')}: test set '{ts.name}' has no system but the baseline "
                f"'{s.baseline}', and approximate randomization only compares systems with "
                "it; add a system to the test set, or use method: bootstrap for the "
                "baseline's confidence interval alone")
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
        if bucketer.reads_labels and cfg.bucket_labels is None:
            bare = [ts.name for ts in cfg.test_sets if ts.documents is None]
            if bare:
                raise ConfigError(
                    f"{_where(cfg, 'buckets')}: bucketer '{name}' reads its column from each "
                    f"test set's documents file, and test set '{bare[0]}' names none; add "
                    "documents: FILE to it, or give the labels as buckets.file")
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
    named = [ts.name for ts in cfg.test_sets if ts.documents is not None]
    if named:
        raise ConfigError(f"{_where(cfg, 'mode')}: mode sacrebleu resamples segments, as "
                          f"sacreBLEU does, but test set '{named[0]}' names its documents; use "
                          "mode default, which resamples whole documents, or remove documents:")
    for ts in cfg.test_sets:
        built = build_metrics(cfg, host, ts)
        for name in metrics:
            try:
                sm.check_metric(built[name])
            except ConfigError as exc:
                raise ConfigError(f"{_where(cfg, 'mode')}: metric '{name}': {exc}; or list "
                                  "the metrics to analyse in significance.metrics") from None


def _units(ts: TestSetConfig, ev: Evaluation, s: Settings) -> Units | None:
    """The documents (and strata) of ``ts`` as resampling units (None: none named)."""
    table = ev.documents.get(ts.name)
    if table is None or s.mode != "default":
        return None
    where = f"{table.path} (the documents of test set '{ts.name}')"
    strata = table.column(ts.strata, where) if ts.strata is not None else None
    return Units.from_ids(table.column(None, where), strata, s.ar_unit, where)


# ----------------------------------------------------------------------------- analysis


@dataclass(frozen=True)
class Analysis:
    """The record's ``significance`` section and the files to store beside the record."""

    section: dict[str, Any]
    files: dict[str, str]


class Analysing:
    """A run's significance tables, added test set by test set as each one's statistics are
    in (:meth:`add`) and finished together (:meth:`finish`: Holm over complete families, the
    drill-down, the section). On an executor that streams, each table starts resampling when
    added, while later test sets' statistics still compute; elsewhere every table runs in
    :meth:`finish`, one after the other, as a separate stage. Used with ``with`` (inside the
    executor's): leaving on an exception cancels every table."""

    def __init__(self, plan: Plan, cfg: ExperimentConfig, executor: Executor | None = None,
                 progress: Progress | None = None) -> None:
        s = plan.settings
        self.plan, self.cfg = plan, cfg
        count = len(cfg.test_sets) * len(plan.metrics)
        # counted from the start; shown once the significance stage has the bar
        self.work = StageWork(progress, count * sum(
            size for _, size in table_parts(s, plan.bucketer is not None)), held=True) \
            if progress is not None else None
        self.tables = side_by_side.SideBySide(executor, count)
        #: (test set, metric) -> bucket tests of its table, for the bucket tests' warning
        self.counts: dict[tuple[str, str], int] = {}

    def add(self, ts: TestSetConfig, ev: Evaluation) -> None:
        """Start (or queue) the tables of ``ts``, whose statistics are all in ``ev``."""
        from evalfw.runner import _drilldown as drilldown

        s = self.plan.settings
        lengths = functools.cache(lambda: drilldown.text_lengths(ts, ev, s.baseline))
        units = _units(ts, ev, s)
        labels = self._labels(ts, ev)
        for label in self.plan.metrics:
            metric, stats = ev.metrics[(ts.name, label)], ev.statistics(ts.name, label)
            if metric.score_scale is None and self.tables.pool is not None:
                # the run settles its scale once every test set is scored, in this thread,
                # perhaps while a table's thread pickles it: the table gets its own (the
                # analysis does not read the scale)
                metric = copy.copy(metric)
            reference = functools.cache(functools.partial(drilldown.reference_lengths, ts, ev,
                                                          metric))
            if self.plan.bucketer is not None:
                self.counts[(ts.name, label)] = bucket_tests(self.plan, metric, stats, label,
                                                             lengths, labels, reference)
            self.tables.submit(side_by_side.named(
                functools.partial(analyse_table, self.plan, metric, stats, ts.name, label,
                                  self.work, lengths, units=units, labels=labels,
                                  reference=reference, strata=ts.strata),
                f"the significance table of test set '{ts.name}', metric '{label}'"))

    def _labels(self, ts: TestSetConfig, ev: Evaluation) -> Callable[[], list[str]] | None:
        """The per-segment labels of a label bucketer on ``ts``: a column of
        ``buckets.file`` (read here, recorded as an input) or of the test set's documents."""
        bucketer = self.plan.bucketer
        if bucketer is None or not bucketer.reads_labels:
            return None
        column = str(bucketer.options["column"])
        what = f"the bucket labels of test set '{ts.name}'"
        table = ev.documents.get(ts.name)
        if self.cfg.bucket_labels is not None:
            segments = next(t["segments"] for t in ev.test_sets if t["name"] == ts.name)
            table = read_labels(self.cfg.bucket_labels, segments, what)
            ev.inputs.append({**table.facts(), "role": "labels", "test_set": ts.name})
        assert table is not None  # prepare() checked that every test set has one
        values = table.column(column, what)
        return lambda: values

    @property
    def started(self) -> int:
        """Tables already resampling (on an executor that streams)."""
        return self.tables.started

    def finish(self, ev: Evaluation, warn: Callable[[str], None] | None = None) -> Analysis:
        """Every table's result, corrected, with the drill-down and exports. ``warn`` hears
        when bucket tests cannot reach alpha, once every table's buckets are known (before
        any resampling, unless the executor streams: tables resample already)."""
        from evalfw.runner import _drilldown as drilldown

        plan, cfg, s = self.plan, self.cfg, self.plan.settings
        # NLTK-compatible metrics warn about every zero count as NLTK does; thousands of
        # resamples and segments would repeat the warnings the scoring already showed once
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            if plan.bucketer is not None:
                text = _families.warning(_families.planned_limits(cfg, s, plan.metrics,
                                                                  self.counts))
                if text and warn is not None:
                    warn(text)
            if self.work is not None:
                self.work.release()
            # the drill-down and the exports read the statistics only: a thread computes
            # them while this one waits on the resampling (its workers, or GIL-free numpy)
            extras = ThreadPoolExecutor(1, thread_name_prefix="evalfw-drilldown")
            with extras:
                exported = extras.submit(drilldown.sentence_exports, ev, cfg,
                                         s.sentence_export)
                worst_rows = extras.submit(
                    drilldown.worst_segments, ev, cfg, s.baseline,
                    drilldown.drilldown_metric(cfg, s.drilldown_metric), s.worst_segments)
                results = self.tables.results()
                _families.correct(results, s.correction, s.family, s.alpha)
                for table in results:
                    if "ranks" in table:
                        metric = ev.metrics[(table["test_set"], table["metric"])]
                        table["ranking"] = ranking(table, s, bool(metric.higher_is_better))
                plan.tables = results
                files, exports = exported.result()
                worst = worst_rows.result()
        limits = _families.limits(results, s)
        section = {"settings": s.to_json(), "seed": plan.seed, "tables": results,
                   "resolution": limits, "drilldown": worst, "exports": exports}
        text = _families.warning(limits)
        if text and s.mode != "sacrebleu":  # sacreBLEU mode: the warning goes to stderr only
            section["resolution_warning"] = text
        costly = mode_warning(plan)
        if costly:
            section["sacrebleu_warning"] = costly
        return Analysis(section, files)

    def __enter__(self) -> Analysing:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.tables.__exit__(*exc)


def analyse(plan: Plan, cfg: ExperimentConfig, host: PluginHost, ev: Evaluation,
            progress: Progress | None = None, executor: Executor | None = None,
            warn: Callable[[str], None] | None = None) -> Analysis:
    """Everything of the module docstring, plus drill-down texts and sentence exports
    (resampling blocks on ``executor``, with the same numbers), once every test set is
    scored. ``warn`` hears, before any resampling, when bucket tests cannot reach alpha
    (comparisons: :func:`planned_warning`)."""
    with Analysing(plan, cfg, executor, progress) as tables:
        for ts in cfg.test_sets:
            tables.add(ts, ev)
        return tables.finish(ev, warn)


def planned_warning(plan: Plan, cfg: ExperimentConfig) -> str | None:
    """Before scoring: the warning when the comparisons (or all pairs) the config asks for
    cannot reach alpha with its resamples and trials (None when they can)."""
    return _families.warning(_families.planned_limits(cfg, plan.settings, plan.metrics))


def mode_warning(plan: Plan) -> str | None:
    """The run's one line about its test when the test is known to find differences too
    often (sacreBLEU's paired bootstrap in mode sacrebleu), else None."""
    s = plan.settings
    return SACREBLEU_BOOTSTRAP if s.mode == "sacrebleu" and "bootstrap" in s.methods else None


def with_files(render: Callable[[Mapping[str, Any]], Mapping[str, str]],
               files: Mapping[str, str]) -> Callable[[Mapping[str, Any]], dict[str, str]]:
    """The store's ``extras`` callback plus the analysis' files (sentence exports)."""
    return lambda record: {**files, **render(record)}
