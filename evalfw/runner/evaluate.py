"""Scoring a config: read every input once, index references once, score every cell.

For each test set the references (and source, and systems) are read and checked to be
aligned before anything is scored, so a bad file fails the run early. Metrics whose
statistics would be identical (same tokenizer, case, counter and orders) share one reference
index and one set of per-segment statistics per system: the expensive part, tokenizing and
counting, is done once. The statistics of each (test set, system, index) are a *cell*, stored
in the segments file under ``c<i>``; sentence-level scores under ``s<j>``.
"""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from evalfw.runner import cache as stats_cache
from evalfw.metrics.bleu import engine
from evalfw.metrics.bleu.spec import BleuSpec, resolve_spec
from evalfw.errors import ConfigError, InputError
from evalfw.io.text import DataWarning, TextFile, check_same_length, read_segments

if TYPE_CHECKING:
    from evalfw.metrics.bleu.stats import ReferenceIndex, SegmentStats
    from evalfw.config import ExperimentConfig, TestSetConfig
    from evalfw.host.host import PluginHost

#: progress(done, total, label)
Progress = Callable[[int, int, str], None]
#: BleuScore.to_json keys that belong to the spec, not to one result
_SPEC_KEYS = ("name", "signature", "sacrebleu_signature")


@dataclass
class Evaluation:
    """Everything a record needs from scoring."""

    inputs: list[dict[str, Any]] = field(default_factory=list)
    test_sets: list[dict[str, Any]] = field(default_factory=list)
    specs: list[dict[str, Any]] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[DataWarning] = field(default_factory=list)
    arrays: dict[str, np.ndarray] = field(default_factory=dict)
    cells: dict[str, dict[str, str]] = field(default_factory=dict)
    sentence_arrays: int = 0

    def add_cell(self, test_set: str, system: str, stats: SegmentStats) -> str:
        key = f"c{len(self.cells)}"
        self.cells[key] = {"test_set": test_set, "system": system}
        for name, arr in stats.to_arrays().items():
            self.arrays[f"{key}.{name}"] = arr
        return key

    def add_sentence_scores(self, scores: np.ndarray) -> str:
        key = f"s{self.sentence_arrays}"
        self.sentence_arrays += 1
        self.arrays[key] = scores
        return key


def index_key(spec: BleuSpec) -> tuple[Any, ...]:
    """What the reference index and per-segment statistics depend on."""
    return (spec.tokenizer.describe(), spec.lowercase, spec.counter.describe(),
            spec.count_orders)


def _read_test_set(ts: TestSetConfig, ev: Evaluation) -> tuple[list[TextFile], list[TextFile]]:
    if not ts.references:
        raise InputError(f"test set '{ts.name}' has no references; list at least one file")
    names = [n for n, _ in ts.systems]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise InputError(f"test set '{ts.name}': system name '{dup}' is given twice; "
                         "system names must be unique")
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
    ev.test_sets.append({
        "name": ts.name, "langs": ts.langs, "segments": len(refs[0].lines),
        "source": source.path if source else None, "references": [f.path for f in refs],
        "systems": [{"name": n, "path": f.path} for n, f in zip(names, systems)],
        **({"tokenizer": ts.tokenizer} if ts.tokenizer is not None else {}),
    })
    return refs, systems


# Work shared with forked worker processes (--jobs): set before the pool starts, read-only.
_SHARED: dict[str, Any] = {}


def _stats_job(job: tuple[int, tuple[Any, ...]]) -> dict[str, np.ndarray]:
    system, key = job
    spec, index = _SHARED["indexes"][key]
    return engine.segment_stats(spec, _SHARED["systems"][system], index).to_arrays()


def _all_stats(jobs: list[tuple[int, tuple[Any, ...]]], n_jobs: int,
               tick: Callable[[], None]) -> list[SegmentStats]:
    from evalfw.metrics.bleu.stats import SegmentStats

    if n_jobs > 1 and len(jobs) > 1 and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(min(n_jobs, len(jobs))) as pool:
            out = []
            for arrays in pool.imap(_stats_job, jobs):
                out.append(SegmentStats.from_arrays(arrays))
                tick()
            return out
    out = []
    for job in jobs:
        out.append(SegmentStats.from_arrays(_stats_job(job)))
        tick()
    return out


def resolve_specs(cfg: ExperimentConfig, host: PluginHost,
                  ts: TestSetConfig) -> dict[str, BleuSpec]:
    """Each metric's spec on ``ts`` (its tokenizer applies where a metric sets none)."""
    specs: dict[str, BleuSpec] = {}
    for metric in cfg.metrics:
        try:
            specs[metric.name] = resolve_spec(host, metric.options_for(ts))
        except ConfigError as exc:
            raise type(exc)(f"metric '{metric.name}' on test set '{ts.name}': {exc}") from exc
    return specs


def score_test_set(cfg: ExperimentConfig, ts: TestSetConfig, specs: dict[str, BleuSpec],
                   ev: Evaluation, progress: Progress | None, n_jobs: int, done: list[int],
                   total: int, store: stats_cache.StatsCache | None = None) -> None:
    refs, systems = _read_test_set(ts, ev)
    nrefs = len(refs)
    indexes: dict[tuple[Any, ...], tuple[BleuSpec, ReferenceIndex]] = {}
    for metric in cfg.metrics:
        spec = specs[metric.name]
        key = index_key(spec)
        if key not in indexes:
            indexes[key] = (spec, None)  # type: ignore[assignment]  # built below if needed
        ev.specs.append({
            "test_set": ts.name, "metric": metric.name, "nrefs": nrefs,
            "components": spec.to_json(), "signature": spec.signature(nrefs),
            "sacrebleu_signature": spec.foreign_signature(nrefs),
        })
    keys = list(indexes)
    jobs = [(s, k) for s in range(len(systems)) for k in keys]
    # statistics cache: reuse cells of unchanged inputs and counting recipes
    hits, cache_keys = stats_cache.cached_cells(
        store, jobs, lambda k: indexes[k][0], [f.sha256 for f in systems],
        [f.sha256 for f in refs])
    for key in {k for s, k in jobs if (s, k) not in hits}:
        spec = indexes[key][0]
        indexes[key] = (spec, engine.index_references(spec, [f.lines for f in refs]))

    def tick() -> None:
        done[0] += 1
        if progress:
            progress(done[0], total, ts.name)

    _SHARED.update(indexes=indexes, systems=[f.lines for f in systems])
    todo = [job for job in jobs if job not in hits]
    try:
        fresh = dict(zip(todo, _all_stats(todo, n_jobs, tick)))
    finally:
        _SHARED.clear()
    for job in hits:
        tick()
    for job, stats in fresh.items():
        if store is not None:
            store.store(cache_keys[job], stats)
    all_stats = [hits[job] if job in hits else fresh[job] for job in jobs]
    cells = {}
    for (s, key), stats in zip(jobs, all_stats):
        cells[(s, key)] = (ev.add_cell(ts.name, ts.systems[s][0], stats), stats)
    for s, (name, _) in enumerate(ts.systems):
        for metric in cfg.metrics:
            spec = specs[metric.name]
            cell, stats = cells[(s, index_key(spec))]
            base = {"test_set": ts.name, "system": name, "metric": metric.name}
            for level in metric.levels:
                row = _corpus_row(spec, stats) if level == "corpus" else \
                    _sentence_row(spec, stats, ev)
                ev.results.append({**base, "level": level, **row, "segments": cell})


def _corpus_row(spec: BleuSpec, stats: SegmentStats) -> dict[str, Any]:
    score = engine.corpus_score(spec, stats)
    row = {k: v for k, v in score.to_json().items() if k not in _SPEC_KEYS}
    row["precision_scale"] = score.precision_scale
    return row


def _sentence_row(spec: BleuSpec, stats: SegmentStats, ev: Evaluation) -> dict[str, Any]:
    scores = engine.sentence_scores(spec, stats)
    values = np.array([float(s.score) for s in scores], dtype=np.float64)
    return {
        "score": math.fsum(values.tolist()) / len(values), "n": len(values),
        "min": float(values.min()), "max": float(values.max()),
        "score_scale": scores[0].score_scale, "sentence_scores": ev.add_sentence_scores(values),
    }


def evaluate(cfg: ExperimentConfig, host: PluginHost, *, progress: Progress | None = None,
             jobs: int = 1, cache: bool = True) -> Evaluation:
    """Score every test set x system x metric of ``cfg`` (reusing cached per-segment
    statistics of unchanged inputs unless ``cache`` is false)."""
    store = stats_cache.for_runs(cfg.output_dir) if cache else None
    ev = Evaluation()
    # every spec is resolved before any file is read: a bad metric fails fast
    plans = [(ts, resolve_specs(cfg, host, ts)) for ts in cfg.test_sets]
    total = sum(len(ts.systems) * len({index_key(s) for s in specs.values()})
                for ts, specs in plans)
    done = [0]
    for ts, specs in plans:
        score_test_set(cfg, ts, specs, ev, progress, jobs, done, total, store)
    return ev
