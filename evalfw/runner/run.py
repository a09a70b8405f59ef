"""``evalfw.run``: run an experiment config, store a new version, return its record.

The record is assembled from the config, the inputs as read, the plugin host and the scores;
it is validated against the record schema, then stored atomically with its per-segment
statistics and the config's reports (:mod:`evalfw.records.store`). Nothing is written when
anything fails before the final rename.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalfw.io.text import display_path
from evalfw.records.document import SCHEMA_VERSION, SEGMENTS_FILE, SEGMENTS_FORMAT, plain
from evalfw.records.store import encode_segments, write_version
from evalfw.runner._checks import section as checks_section
from evalfw.runner._environment import environment, plugin_facts
from evalfw.runner._evaluate import Evaluation, Progress, evaluate
from evalfw.version import __version__

if TYPE_CHECKING:
    from evalfw.config import ExperimentConfig, MetricConfig, Override
    from evalfw.executors.base import Executor
    from evalfw.host.host import PluginHost
    from evalfw.plugin.choices import ComponentChoice
    from evalfw.runner.result import RunResult


@dataclass(frozen=True)
class RunOutcome:
    """A finished run: its record and where it was stored (``None`` when not stored)."""

    record: dict[str, Any]
    path: Path | None
    evaluation: Evaluation
    host: PluginHost
    #: what reporters that publish the run elsewhere said (e.g. the MLflow run they made)
    notes: tuple[str, ...] = ()


def load(config: Any, overrides: Iterable[str | Override] = (),
         host: PluginHost | None = None) -> tuple[ExperimentConfig, PluginHost]:
    """A config path, or an already loaded ExperimentConfig (then ``overrides`` must be empty
    and ``host`` given, since its plugins are part of what it means)."""
    from evalfw.config import ExperimentConfig, load_config

    if isinstance(config, ExperimentConfig):
        if tuple(overrides):
            from evalfw.errors import ConfigError

            raise ConfigError("overrides apply to a config path; pass the path, not a loaded "
                              "ExperimentConfig, together with overrides")
        if host is None:
            from evalfw.host.host import PluginHost

            host = PluginHost.create()
        return config, host
    return load_config(config, overrides, host=host)


def _file_sha256(path: Path | None) -> str | None:
    """The sha256 of the config file (read under the config's limits, as when it was
    loaded), or None."""
    from evalfw.errors import EvalfwError
    from evalfw.io.text import read_bytes
    from evalfw.limits import MAX_CONFIG_BYTES

    if path is None:
        return None
    try:
        return hashlib.sha256(read_bytes(path, str(path), limit=MAX_CONFIG_BYTES,
                                         variable=None)).hexdigest()
    except EvalfwError:
        return None


def _cwd_from(exp_dir: Path) -> str:
    """The working directory relative to a version directory (physical paths, so symbolic
    links on the way do not matter)."""
    version_dir = os.path.realpath(exp_dir / "v")
    try:
        return os.path.relpath(os.path.realpath(os.getcwd()), version_dir)
    except ValueError:  # another drive (Windows): verify must then run from the same place
        return "."


def build_record(cfg: ExperimentConfig, host: PluginHost, ev: Evaluation, segments: bytes,
                 argv: Sequence[str] | None, executor: Executor | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "evalfw_version": __version__,
        "experiment": cfg.experiment,
        "version": "00000000T000000Z-0",  # set by the store when the name is claimed
        "created": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
        "command": {
            "argv": list(argv) if argv is not None else None,
            "overrides": [o.to_json() for o in cfg.overrides],
            "cwd": _cwd_from(cfg.output_dir / cfg.experiment),
        },
        "config": {
            "path": display_path(cfg.path) if cfg.path is not None else None,
            "sha256": _file_sha256(cfg.path),
            "resolved": dict(cfg.raw),
            "resolved_sha256": cfg.sha256,
        },
        "seed": cfg.seed,
        "environment": environment(host, [m.metric for m in cfg.metrics]),
        "executor": executor.record_entry() if executor is not None else {"name": "serial"},
        "plugins": plugin_facts(host),
        "inputs": ev.inputs,
        "test_sets": _labelled(ev.test_sets, cfg.system_labels),
        "metrics": [metric_entry(cfg, ev, m) for m in cfg.metrics],
        "specs": ev.specs,
        "results": ev.results,
        "warnings": [w.to_json() for w in ev.warnings],
        "checks": checks_section(cfg, ev.checks, ev.flags),
        **({"judgements": ev.judgements} if ev.judgements else {}),
        "segments": {"file": SEGMENTS_FILE, "sha256": hashlib.sha256(segments).hexdigest(),
                     "format": SEGMENTS_FORMAT, "cells": ev.cells},
    }
    stored: dict[str, Any] = plain(record)
    return stored


def _labelled(test_sets: list[dict[str, Any]], labels: Mapping[str, str]
              ) -> list[dict[str, Any]]:
    """The test sets' entries, each system with its display label (``system_labels:``)."""
    return [{**t, "systems": [{**s, "label": labels[s["name"]]} if s["name"] in labels else s
                              for s in t["systems"]]} for t in test_sets]


def metric_entry(cfg: ExperimentConfig, ev: Evaluation, m: MetricConfig) -> dict[str, Any]:
    """A metric's record entry: its config, direction, scale (``score_scale_inferred`` when
    the metric declares none) and the unit of its lengths (test sets whose tokenizers differ
    give e.g. ``13a tokens or zh tokens``)."""
    built = [ev.metrics[(ts.name, m.name)] for ts in cfg.test_sets]
    scales = [r["score_scale"] for r in ev.results if r["metric"] == m.name]
    entry = {"name": m.name, "metric": m.metric, "levels": list(m.levels),
             "options": dict(m.options), "higher_is_better": built[0].higher_is_better,
             "score_scale": scales[0] if scales else built[0].resolve_scale([]),
             "length_unit": " or ".join(dict.fromkeys(b.length_unit for b in built))}
    if built[0].score_scale is None:
        entry["score_scale_inferred"] = True
    unit = getattr(built[0], "unit", None)
    if isinstance(unit, str):
        entry["unit"] = unit
    if m.label is not None:
        entry["label"] = m.label
    return entry


def report_files(host: PluginHost, cfg: ExperimentConfig) -> Any:
    """The ``extras`` callback of the store: each configured report, rendered from the
    record, as ``report-<name>.<extension>``."""
    reporters = [r for r in (host.component("reporter", c.name, c.options) for c in cfg.reports)
                 if r.writes_file]

    def render(record: Mapping[str, Any]) -> dict[str, str]:
        files = {f"report-{r.name}.{r.extension}": r.text(record) for r in reporters}
        if record.get("meta_evaluation") and any(r.name == "csv" for r in reporters):
            from evalfw.reports._meta import csv_text

            files["meta-evaluation.csv"] = csv_text(record["meta_evaluation"])
        return files

    return render


def publish(host: PluginHost, cfg: ExperimentConfig, path: Path,
            record: Mapping[str, Any]) -> tuple[str, ...]:
    """Let each configured reporter that publishes (e.g. ``mlflow``) send the stored version;
    their notes, in config order."""
    from evalfw.errors import EvalfwError, PluginError
    from evalfw.reports.base import Reporter

    notes = []
    for choice in cfg.reports:
        reporter = host.component("reporter", choice.name, choice.options)
        if type(reporter).publish is Reporter.publish:
            continue
        try:
            note = reporter.publish(path, record)
        except EvalfwError as exc:
            raise type(exc)(f"the run is stored in {path}, but reporter '{reporter.name}' "
                            f"could not publish it: {exc}") from exc
        except Exception as exc:
            raise PluginError(f"the run is stored in {path}, but reporter '{reporter.name}' "
                              f"failed: {type(exc).__name__}: {exc}") from exc
        if note:
            notes.append(note)
    return tuple(notes)


def choose_executor(host: PluginHost, jobs: int | None = None,
                    choice: ComponentChoice | None = None) -> Executor:
    """The config's ``executor:`` choice when it makes one, else ``auto`` (serial or a pool,
    by the work) without ``jobs``, ``serial`` for one job at a time and the ``processes``
    pool with ``jobs`` workers."""
    executor: Executor
    if choice is not None:
        executor = host.component("executor", choice.name, dict(choice.options))
    elif jobs is None:
        executor = host.component("executor", "auto")
    elif jobs > 1:
        executor = host.component("executor", "processes", {"workers": jobs})
    else:
        executor = host.component("executor", "serial")
    return executor


def run_experiment(config: Any, overrides: Iterable[str | Override] = (), *,
                   host: PluginHost | None = None, progress: Progress | None = None,
                   argv: Sequence[str] | None = None, jobs: int | None = None,
                   executor: Executor | None = None, store: bool = True,
                   cache: bool = True) -> RunOutcome:
    """Run a config (see :func:`run`); ``executor`` (default: chosen by ``jobs``, ``auto``
    without) runs the statistics jobs, ``store=False`` keeps the record in memory,
    ``cache=False`` recomputes every statistic."""
    from evalfw.host.portable import make_portable
    from evalfw.runner import _analyse as significance
    from evalfw.runner._work import serial_seconds
    from evalfw.runner.progress import Stages, say, warn

    # the stage count is known once the config is read; until then the first stage says 4
    stages = Stages(progress, 4)
    with stages.stage("config") as st:
        cfg, host = load(config, overrides, host)
        make_portable(host)  # jobs on a cluster carry metrics
        render = report_files(host, cfg)  # unknown reporters fail before scoring
        plan = significance.prepare(cfg, host)  # so does a bad significance block
        from evalfw.runner import meta as meta_evaluation

        meta = meta_evaluation.prepare(cfg)  # and a bad meta_evaluation block
        stages.count = (4 if plan else 3) + (1 if meta else 0)
        # before anything is scored: resamples that cannot reach alpha make the run pointless
        note = significance.planned_warning(plan, cfg) if plan else None
        if note:
            warn(progress, note)
        costly = significance.mode_warning(plan) if plan else None
        if costly:
            from evalfw.errors import AntiConservativeWarning

            warn(progress, costly, AntiConservativeWarning)
        st.detail = (f"{len(cfg.test_sets)} test set(s), {len(cfg.metrics)} metric(s), "
                     f"{sum(len(ts.systems) for ts in cfg.test_sets)} system file(s)")
        if executor is None:
            executor = choose_executor(host, jobs, cfg.executor)
        chose = executor.plan(serial_seconds(cfg, plan, host))
        if chose:
            st.detail += f"; {chose}"
            say(progress, chose)
    analysis = None
    from evalfw.executors.blas import one_blas_thread

    # the segments file depends on the statistics only: it is encoded in a thread (zlib lets
    # go of the GIL) while the significance stage resamples, instead of after it
    encoder = ThreadPoolExecutor(1, thread_name_prefix="evalfw-segments")
    # forked workers inherit the limit; a cluster's workers set it around each task. The
    # tables are made once the executor has started (whether it streams is known then) and
    # end before it closes.
    with one_blas_thread(), executor, encoder, \
            (significance.Analysing(plan, cfg, executor, progress) if plan
             else nullcontext()) as tables:
        with stages.stage("statistics") as st:
            # a streaming executor starts a test set's tables when its statistics are in
            ev = evaluate(cfg, host, progress=progress, executor=executor, cache=cache,
                          finished=tables.add if tables is not None else None)
            st.detail = f"{len(ev.cells)} cells"
            if tables is not None and tables.started:
                st.detail += f"; {tables.started} significance table(s) started"
        encoded = encoder.submit(encode_segments, dict(ev.arrays))
        if tables is not None:
            with stages.stage("significance") as st:
                # once per run: the bucket tests' warning only when none was given yet
                analysis = tables.finish(ev, None if note else lambda text: warn(progress, text))
                st.detail = f"{len(analysis.section['tables'])} table(s)"
    meta_section = None
    if meta:
        with stages.stage("meta-evaluation") as st:
            meta_section = meta_evaluation.meta_section(cfg, ev, meta, ev.results)
            st.detail = (f"{len(meta_section['tables'])} test set(s), "
                         f"{len(meta['metrics'])} metric(s) against '{meta['human']}'")
    from evalfw.plugin.guard import check_threads

    check_threads()  # before storing: a thread plugin code left running fails the run
    with stages.stage("store" if store else "record") as st:
        segments = encoded.result()
        record = build_record(cfg, host, ev, segments, argv, executor)
        if analysis is not None:
            record["significance"] = plain(analysis.section)
            render = significance.with_files(render, analysis.files)
        if meta_section is not None:
            record["meta_evaluation"] = plain(meta_section)
        path = write_version(cfg.output_dir, cfg.experiment, record, segments, render) \
            if store else None
        st.detail = f"{len(cfg.reports)} report(s)" if store else ""
    notes: tuple[str, ...] = ()
    if path is not None:  # your own run: `evalfw verify` may read what it read
        from evalfw.runner._trust import note_run

        trust_note = note_run(cfg)
        notes = (trust_note,) if trust_note else ()
        notes += publish(host, cfg, path, record)
    return RunOutcome(record, path, ev, host, notes)


def run(config: Any, overrides: Iterable[str | Override] = (), *,
        host: PluginHost | None = None, progress: Progress | None = None,
        jobs: int | None = None) -> RunResult:
    """Run the experiment ``config`` (a YAML path, or a loaded ExperimentConfig), store a new
    version under ``output_dir/<experiment>/`` and return its record: a JSON-shaped dict that
    also has ``to_pandas()``, ``sentence_scores()``, ``significance`` and ``path``
    (:class:`~evalfw.runner.result.RunResult`).

    >>> result = evalfw.run("configs/wmt.yaml", overrides=["seed=7"])  # doctest: +SKIP
    >>> result["version"], result.to_pandas()                          # doctest: +SKIP
    """
    from evalfw.runner.result import RunResult

    return RunResult(run_experiment(config, overrides, host=host, progress=progress, jobs=jobs))


__all__ = [
    "build_record", "choose_executor", "load", "publish", "report_files", "run", "run_experiment",
    "RunOutcome",
]
