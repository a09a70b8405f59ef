"""Scoring a config: read every input once, prepare references once, score every cell.

For each test set the references (and source, and systems) are read and checked to be
aligned before anything is scored, so a bad file fails the run early. Every metric of the
config is built for the test set; metrics whose statistics would be identical (equal
``statistics_key()``, e.g. BLEU variants that differ only in smoothing) share one computation
per system, and metrics with equal ``references_key()`` share one reference preparation. The
statistics of each (test set, system, statistics key) are a *cell*, stored in the segments
file under ``c<i>``; sentence-level scores under ``s<j>``. The statistics jobs (one per system
and statistics key) run on an :class:`~evalfw.executors.base.Executor`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from evalfw.errors import ConfigError, InputError
from evalfw.io.labels import LabelTable, read_labels
from evalfw.io.scores import ScoreFile, read_scores
from evalfw.io.text import DataWarning, TextFile, check_same_length, read_segments
from evalfw.metrics.base import SegmentContext
from evalfw.metrics.boundary import BoundaryError, place
from evalfw.metrics.segment_limit import check_segment_lengths
from evalfw.runner import cache as stats_cache
from evalfw.runner._checks import build_checks, excluded_lines, run_checks
from evalfw.runner._conclusions import Conclusions
from evalfw.runner._jobs import TestSetWork, check_alike, resources_of, run_jobs
from evalfw.runner._judgements import Judged, id_ranges, mqm_texts, read_judgements
from evalfw.runner._judgements import digest as judgements_digest
from evalfw.runner._judgements import rows as judgement_rows

if TYPE_CHECKING:
    import numpy as np

    from evalfw.checks.base import Check
    from evalfw.config import ExperimentConfig, MetricConfig, TestSetConfig
    from evalfw.executors.base import Executor
    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric

#: progress(done, total, label)
Progress = Callable[[int, int, str], None]


@dataclass
class Evaluation:
    """Everything a record needs from scoring, and the metrics that scored it."""

    inputs: list[dict[str, Any]] = field(default_factory=list)
    test_sets: list[dict[str, Any]] = field(default_factory=list)
    specs: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[DataWarning] = field(default_factory=list)
    arrays: dict[str, np.ndarray] = field(default_factory=dict)
    cells: dict[str, dict[str, str]] = field(default_factory=dict)
    sentence_arrays: int = 0
    #: (test set, metric name in the config) -> the metric as built for that test set
    metrics: dict[tuple[str, str], Metric] = field(default_factory=dict)
    #: messages about the statistics cache (unusable entries, a cache that cannot be written)
    cache_notes: list[str] = field(default_factory=list)
    #: the checks run, and per test set what they flagged (the record's ``checks`` entries)
    checks: list[Check] = field(default_factory=list)
    flags: list[dict[str, Any]] = field(default_factory=list)
    #: test set -> what its conclusions are drawn from (``on_flag`` applied to its flags)
    conclusions: dict[str, Conclusions] = field(default_factory=dict)
    #: test set -> its documents file as read (test sets that name one)
    documents: dict[str, LabelTable] = field(default_factory=dict)
    #: the record's judgements section (human scores of the test sets)
    judgements: list[dict[str, Any]] = field(default_factory=list)
    #: the texts of test sets built from MQM files: test set -> role -> lines
    derived: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add_judgement(self, rows: np.ndarray) -> str:
        key = f"j{sum(1 for k in self.arrays if k.startswith('j'))}"
        self.arrays[key] = rows
        return key

    def add_cell(self, test_set: str, system: str, stats: np.ndarray) -> str:
        key = f"c{len(self.cells)}"
        self.cells[key] = {"test_set": test_set, "system": system}
        self.arrays[key] = stats
        return key

    def add_sentence_scores(self, scores: np.ndarray) -> str:
        key = f"s{self.sentence_arrays}"
        self.sentence_arrays += 1
        self.arrays[key] = scores
        return key

    def statistics(self, test_set: str, metric: str, level: str | None = "corpus",
                   concluded: bool = True) -> dict[str, np.ndarray]:
        """System -> statistics rows of ``metric``'s results on ``test_set`` (at ``level``;
        None: any level), in result order: the rows the conclusions are drawn from (the
        config's ``on_flag`` applied; row k stands for segment ``segment_numbers()[k]``), or
        with ``concluded=False`` every segment's rows as the metric computed them."""
        out: dict[str, np.ndarray] = {}
        conclusions = self.conclusions.get(test_set) if concluded else None
        for row in self.results:
            if (row["test_set"], row["metric"]) == (test_set, metric) \
                    and row["system"] not in out and level in (None, row["level"]):
                stats = self.arrays[row["segments"]]
                out[row["system"]] = stats if conclusions is None else conclusions.statistics(
                    self.metrics[(test_set, metric)], row["system"], stats)
        return out

    def segment_numbers(self, test_set: str, segments: int) -> np.ndarray:
        """The 0-based segment of each row :meth:`statistics` gives for ``test_set``."""
        conclusions = self.conclusions.get(test_set)
        if conclusions is None:
            import numpy as np

            return np.arange(segments)
        return conclusions.segment_numbers(segments)


def build_metric(host: PluginHost, config: MetricConfig, ts: TestSetConfig) -> Metric:
    """Metric ``config`` as it applies to test set ``ts`` (its default tokenizer applies to a
    metric that takes a tokenizer and chooses none)."""
    cls = host.registry("metric").get(config.metric)
    try:
        return host.metric(config.metric, config.options_for(ts, cls))
    except ConfigError as exc:
        raise type(exc)(f"metric '{config.name}' on test set '{ts.name}': {exc}") from exc


def build_metrics(cfg: ExperimentConfig, host: PluginHost,
                  ts: TestSetConfig) -> dict[str, Metric]:
    """Every metric of the config on ``ts``, by its name in the config."""
    return {m.name: build_metric(host, m, ts) for m in cfg.metrics}


@dataclass
class TestSetInputs:
    """What was read for one test set."""

    __test__ = False  # not a pytest test class despite the name

    references: list[TextFile]
    systems: list[TextFile]
    source: TextFile | None
    #: per system: scores name -> the system's score file
    scores: list[dict[str, ScoreFile]]
    #: the test set's human judgements
    judged: list[Judged] = field(default_factory=list)
    #: the systems' names
    names: list[str] = field(default_factory=list)

    def context(self, ts: TestSetConfig, system: int) -> SegmentContext:
        """What a metric that wants context knows about system ``system``'s segments."""
        name = ts.systems[system][0]
        return SegmentContext(
            test_set=ts.name, system=name, langs=ts.langs,
            source=self.source.lines if self.source else None,
            scores={n: f.scores for n, f in self.scores[system].items()},
            judgements={j.config.name: j.segments[name] for j in self.judged
                        if j.segments is not None and name in j.segments})

    def context_digest(self, system: int) -> str:
        """What the context adds to a cache key: the source's and score files' sha256, and
        the system's judgements."""
        parts = [self.source.sha256 if self.source else "",
                 *(f"{n}:{f.sha256}" for n, f in sorted(self.scores[system].items()))]
        judged = judgements_digest(self.judged, self.names[system]) if self.judged else ""
        return "|".join(parts + ([judged] if judged else []))


def _read_test_set(ts: TestSetConfig, ev: Evaluation) -> TestSetInputs:
    if not ts.references:
        raise InputError(f"test set '{ts.name}' has no references; list at least one file")
    names = [n for n, _ in ts.systems]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise InputError(f"test set '{ts.name}': system name '{dup}' is given twice; "
                         "system names must be unique")
    mqm = None
    segment_ids = None
    source: TextFile | None
    if ts.mqm is not None:  # the texts of an MQM file
        mqm, source, reference, systems = mqm_texts(ts)
        refs: list[TextFile] = [reference]
        segment_ids = mqm.segment_ids
        ev.inputs.append({**mqm.read.facts(), "role": "mqm", "test_set": ts.name})
        ev.derived[ts.name] = {"source": source.lines, "references": [reference.lines],
                               "systems": {n: f.lines for n, f in zip(names, systems)}}
    else:
        refs = [read_segments(p) for p in ts.references]
        source = read_segments(ts.source) if ts.source is not None else None
        systems = [read_segments(p, check_tokenized=True) for _, p in ts.systems]
        check_same_length([*refs, *([source] if source else []), *systems],
                          f"test set '{ts.name}'")
        roles = [*(("reference", f, None) for f in refs),
                 *((("source", source, None),) if source else ()),
                 *(("system", f, n) for f, n in zip(systems, names))]
        for role, f, system in roles:
            entry = {**f.facts(), "role": role, "test_set": ts.name}
            if system is not None:
                entry["system"] = system
            ev.inputs.append(entry)
            ev.warnings.extend(f.warnings)
    segments = len(refs[0].lines)
    scores: list[dict[str, ScoreFile]] = [{} for _ in systems]
    for name, column, files in ts.segment_scores:
        for s, (system, path) in enumerate(files):
            found = read_scores(path, column, segments=segments)
            scores[s][name] = found
            ev.inputs.append({**found.facts(), "role": "scores", "test_set": ts.name,
                              "system": system, "scores": name})
    judged = read_judgements(ts, segment_ids, segments, mqm)
    for j in judged:
        ev.inputs.append({**j.facts, "role": "judgements", "test_set": ts.name,
                          "judgements": j.config.name})
        for entry in j.entry["systems"]:
            if j.segments is not None:
                entry["segments"] = ev.add_judgement(judgement_rows(j.segments[entry["system"]]))
        ev.judgements.append(j.entry)
    extra: dict[str, Any] = {}
    if ts.documents is not None:
        what = f"the documents of test set '{ts.name}'"
        table = read_labels(ts.documents, segments, what)
        table.column(None, what)  # a document id per segment, checked before any scoring
        if ts.strata is not None:
            table.column(ts.strata, f"the strata of test set '{ts.name}'")
        ev.documents[ts.name] = table
        ev.inputs.append({**table.facts(), "role": "documents", "test_set": ts.name})
        extra = {"documents": table.path,
                 **({"strata": ts.strata} if ts.strata is not None else {})}
    if ts.mqm is not None and segment_ids is not None:
        extra["mqm"] = {"file": mqm.read.path if mqm else str(ts.mqm.file),
                        "reference": ts.mqm.reference, "segment_ids": id_ranges(segment_ids)}
    if ts.human_systems:
        extra["human_systems"] = list(ts.human_systems)
    ev.test_sets.append({
        "name": ts.name, "langs": ts.langs, "segments": segments,
        "source": source.path if source else None, "references": [f.path for f in refs],
        "systems": [{"name": n, "path": f.path} for n, f in zip(names, systems)],
        **({"tokenizer": ts.tokenizer} if ts.tokenizer is not None else {}),
        **extra,
    })
    return TestSetInputs(refs, systems, source, scores, judged, names)


@dataclass
class _Started:
    """A test set whose inputs are read and whose statistics jobs are submitted."""

    ts: TestSetConfig
    metrics: dict[str, Metric]
    nrefs: int
    jobs: list[tuple[int, Hashable]]
    hits: dict[tuple[int, Hashable], Any]
    keys: dict[tuple[int, Hashable], str]
    todo: list[tuple[int, Hashable]]
    results: Iterator[np.ndarray]


def start_test_set(cfg: ExperimentConfig, ts: TestSetConfig, metrics: dict[str, Metric],
                   ev: Evaluation, executor: Executor, tick: Callable[[str], None],
                   store: stats_cache.StatsCache | None = None) -> _Started:
    """Read the inputs, record the specs, hand the statistics jobs to ``executor`` and run
    the output checks (while a pool computes the statistics)."""
    inputs = _read_test_set(ts, ev)
    refs, systems = inputs.references, inputs.systems
    check_segment_lengths([*refs, *systems], metrics.values())
    nrefs = len(refs)
    by_key: dict[Hashable, Metric] = {}
    for config in cfg.metrics:
        metric = metrics[config.name]
        ev.metrics[(ts.name, config.name)] = metric
        by_key.setdefault(metric.statistics_key(), metric)
        ev.specs.append({
            "test_set": ts.name, "metric": config.name, "nrefs": nrefs,
            "definition": metric.definition(), "signature": metric.signature(nrefs),
            "sacrebleu_signature": metric.foreign_signature(nrefs),
            **({"resources": needs} if (needs := resources_of(metric)) else {}),
        })
    jobs = [(s, key) for s in range(len(systems)) for key in by_key]
    keys, hits = _cached(store, jobs, by_key, inputs)
    todo = [job for job in jobs if job not in hits]
    # the source and score columns travel to workers only for metrics that read them
    wants = any(m.wants_context for m in by_key.values())
    work = TestSetWork([f.lines for f in systems], by_key, {},
                       [inputs.context(ts, s) if wants else
                        SegmentContext(ts.name, ts.systems[s][0], ts.langs)
                        for s in range(len(systems))],
                       [f.lines for f in refs], "|".join(f.sha256 for f in refs),
                       [(os.path.abspath(p), f.sha256) for (_, p), f in zip(ts.systems, systems)],
                       [(os.path.abspath(p), f.sha256) for p, f in zip(ts.references, refs)],
                       # an MQM test set's texts are not files of their own: they travel
                       bool(getattr(executor, "shared_fs", False)) and ts.mqm is None)
    # serially, each preparation once, here; a pool's workers prepare what they need
    # themselves (a kept pool gets the work pickled, without preparations), off the client
    if not executor.remote and executor.parallelism < 2:
        for _, key in todo:
            work.prepared_for(by_key[key])
    labels: dict[Hashable, list[str]] = {}
    for config in cfg.metrics:
        labels.setdefault(metrics[config.name].statistics_key(), []).append(config.name)

    def name(job: tuple[Any, ...]) -> str:
        return (f"test set '{ts.name}', system '{ts.systems[job[0]][0]}', metric "
                + ", ".join(f"'{label}'" for label in labels[job[1]]))

    results = run_jobs(executor, todo, work, len(refs[0].lines), lambda _: tick(ts.name), name)
    if ev.checks:
        entry = run_checks(ev.checks, ts, inputs, store)
        if cfg.on_flag == "exclude":
            entry["excluded"] = excluded_lines(entry)
        ev.flags.append(entry)
        ev.conclusions[ts.name] = Conclusions.of(cfg.on_flag, entry)
    return _Started(ts, metrics, nrefs, jobs, hits, keys, todo, results)


def finish_test_set(cfg: ExperimentConfig, started: _Started, ev: Evaluation,
                    tick: Callable[[str], None], store: stats_cache.StatsCache | None = None
                    ) -> None:
    """Collect the statistics in job order, cache them and add the cells and results."""
    ts, metrics, nrefs, jobs, hits = (started.ts, started.metrics, started.nrefs, started.jobs,
                                      started.hits)
    rows: dict[tuple[int, Hashable], np.ndarray] = {}
    for job, stats in zip(started.todo, started.results):
        rows[job] = stats
        if store is not None:
            store.store(started.keys[job], stats)
    for _ in hits:
        tick(ts.name)
    rows.update(hits)  # every job is a hit or was computed
    for key, metric in metrics_by_key(metrics).items():  # every system's rows alike
        check_alike(metric, [rows[job] for job in jobs if job[1] == key])
    cells = {job: ev.add_cell(ts.name, ts.systems[job[0]][0], rows[job]) for job in jobs}
    conclusions = ev.conclusions.get(ts.name, Conclusions())
    for s, (name, _) in enumerate(ts.systems):
        for config in cfg.metrics:
            metric = metrics[config.name]
            cell = cells[(s, metric.statistics_key())]
            stats = ev.arrays[cell]
            concluded = conclusions.statistics(metric, name, stats)
            base = {"test_set": ts.name, "system": name, "metric": config.name}
            for level in config.levels:
                try:
                    row = _corpus_row(metric, concluded, nrefs) if level == "corpus" else \
                        _sentence_row(metric, stats, concluded, ev)
                except BoundaryError as exc:
                    raise exc.located(place(ts.name, name)) from exc.__cause__
                ev.results.append({**base, "level": level, **row, "segments": cell})


def metrics_by_key(metrics: dict[str, Metric]) -> dict[Hashable, Metric]:
    """One metric per statistics key (the first of the config's that has it)."""
    out: dict[Hashable, Metric] = {}
    for metric in metrics.values():
        out.setdefault(metric.statistics_key(), metric)
    return out


def _cached(store: stats_cache.StatsCache | None, jobs: list[tuple[int, Hashable]],
            by_key: dict[Hashable, Metric], inputs: TestSetInputs
            ) -> tuple[dict[tuple[int, Hashable], str], dict[tuple[int, Hashable], Any]]:
    """Cache keys of the jobs and the statistics already cached (none without a cache); a
    metric that reads the context keys on the source and score files too."""
    if store is None:
        return {}, {}
    digests = [f.sha256 for f in inputs.references]

    def key(job: tuple[int, Hashable]) -> str:
        system, stats_key = job
        metric = by_key[stats_key]
        hyp = inputs.systems[system].sha256
        if metric.wants_context:
            hyp += "|" + inputs.context_digest(system)
        return stats_cache.stats_key(metric, hyp, digests)

    keys = {job: key(job) for job in jobs}
    hits = {}
    for job, cache_key in keys.items():
        found = store.load(cache_key, by_key[job[1]], len(inputs.references[0].lines))
        if found is not None:
            hits[job] = found
    store.hits += len(hits)
    store.misses += len(keys) - len(hits)
    return keys, hits


def _corpus_row(metric: Metric, stats: np.ndarray, nrefs: int) -> dict[str, Any]:
    return metric.record_fields(metric.result(stats, nrefs))


def _sentence_row(metric: Metric, stats: np.ndarray, concluded: np.ndarray,
                  ev: Evaluation) -> dict[str, Any]:
    """The mean, count and range of the concluded rows' sentence scores; the stored sentence
    scores are every segment's own."""
    values = metric.sentence_scores(stats)
    shown = values if concluded is stats else metric.sentence_scores(concluded)
    return {
        "score": math.fsum(shown.tolist()) / len(shown) if len(shown) else 0.0,
        "n": len(shown), "min": float(shown.min()) if len(shown) else 0.0,
        "max": float(shown.max()) if len(shown) else 0.0,
        "score_scale": metric.resolve_scale([stats]),
        "sentence_scores": ev.add_sentence_scores(values),
    }


def evaluate(cfg: ExperimentConfig, host: PluginHost, *, progress: Progress | None = None,
             executor: Executor | None = None, cache: bool = True,
             finished: Callable[[TestSetConfig, Evaluation], None] | None = None
             ) -> Evaluation:
    """Score every test set x system x metric of ``cfg`` (reusing cached per-segment
    statistics of unchanged inputs unless ``cache`` is false) on ``executor`` (default:
    this process). ``finished(ts, evaluation)`` hears, in this thread, as soon as every
    cell of test set ``ts`` is in the evaluation (while later test sets' jobs may still
    run), in config order; its exception fails the run as the statistics' own would."""
    store = stats_cache.for_runs(cfg.output_dir) if cache else None
    ev = Evaluation(checks=build_checks(cfg, host))
    # every metric is built before any file is read: a bad metric fails fast
    plans = [(ts, build_metrics(cfg, host, ts)) for ts in cfg.test_sets]
    if cfg.on_flag == "penalise":
        check_penalisable(cfg, plans)
    total = sum(len(ts.systems) * len({m.statistics_key() for m in metrics.values()})
                for ts, metrics in plans)
    done = [0]

    def tick(label: str) -> None:
        done[0] += 1
        if progress:
            progress(done[0], total, label)

    if executor is None:
        executor = host.component("executor", "serial")
    if executor.streams:
        # a cluster or a run's pool gets every test set's jobs at once (each list of the
        # record keeps its order: the results are collected test set after test set)
        try:
            started = [start_test_set(cfg, ts, metrics, ev, executor, tick, store)
                       for ts, metrics in plans]
            for one in started:
                finish_test_set(cfg, one, ev, tick, store)
                if finished is not None:
                    finished(one.ts, ev)
        except BaseException:  # Ctrl-C or a failure: the later test sets' tasks stop too
            executor.cancel()
            raise
    else:  # one test set's texts in memory at a time
        for ts, metrics in plans:
            finish_test_set(cfg, start_test_set(cfg, ts, metrics, ev, executor, tick, store),
                            ev, tick, store)
            if finished is not None:
                finished(ts, ev)
    if store is not None:
        ev.cache_notes = list(store.problems)
    resolve_scales(cfg, ev)
    return ev


def check_penalisable(cfg: ExperimentConfig,
                      plans: list[tuple[TestSetConfig, dict[str, Metric]]]) -> None:
    """``on_flag: penalise`` needs every metric to say what its worst is."""
    for _, metrics in plans:
        for label, metric in metrics.items():
            if not metric.penalisable:
                raise ConfigError(
                    f"{cfg.path or '<config>'}: on_flag: penalise scores a flagged segment as "
                    f"the metric's worst, but metric '{label}' ({metric.name}) declares none "
                    "(worst_statistics, or worst_score for a mean of segment scores); use "
                    "on_flag: keep or exclude")


def resolve_scales(cfg: ExperimentConfig, ev: Evaluation) -> None:
    """One scale per metric entry: a metric that declares none gets it inferred from the
    segment scores of every system on every test set, so its rows share their decimals
    (:mod:`evalfw.metrics.scales`)."""
    for config in cfg.metrics:
        rows = [r for r in ev.results if r["metric"] == config.name]
        metric = ev.metrics[(rows[0]["test_set"], config.name)] if rows else None
        if metric is None or metric.score_scale is not None:
            continue
        cells = dict.fromkeys(r["segments"] for r in rows)
        scale = metric.resolve_scale(ev.arrays[c] for c in cells)
        for ts in cfg.test_sets:  # later results (analysis, reports) carry the same scale
            ev.metrics[(ts.name, config.name)].settle_scale(scale)
        for row in rows:
            row["score_scale"] = scale
