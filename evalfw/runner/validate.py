"""``evalfw validate``: everything a run would check before scoring, and nothing more.

A config passes when ``evalfw run`` would get past reading its inputs: the YAML, the schema,
plugins, components and their options, ``requires:``, every metric built for every test set,
the reporters, the ``significance`` block (the baseline is a system of every test set, with a
did-you-mean; the analysed metrics; the bucketer; whether the resamples can reach alpha, with
the run's own warning), and every input file read as the run reads
it: UTF-8 text, the source, references, systems and score files of a test set aligned line by
line. The checks are the run's own code (:func:`evalfw.runner._analyse.prepare`, the reading
of a test set), so ``validate`` and ``run`` cannot disagree about them.

What it cannot know without scoring is said too (:attr:`Validation.not_checked`): no segment
is scored, so a metric plugin or model failing on the data shows only in the run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from evalfw.config.paths import experiment_dir

if TYPE_CHECKING:
    from evalfw.config import ExperimentConfig, Override
    from evalfw.host.host import PluginHost
    from evalfw.io.text import DataWarning


@dataclass(frozen=True)
class Validation:
    """What :func:`validate` checked and what it did not."""

    config: ExperimentConfig
    checked: tuple[str, ...]
    not_checked: tuple[str, ...]
    #: test set -> its number of segments (lines of every file)
    segments: dict[str, int]
    warnings: tuple[DataWarning, ...] = ()
    #: the run's warning when the configured resamples or trials cannot reach alpha
    resolution_warning: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"ok": True, "experiment": self.config.experiment,
                "test_sets": [t.name for t in self.config.test_sets],
                "metrics": [m.name for m in self.config.metrics],
                "segments": dict(self.segments), "checked": list(self.checked),
                "not_checked": list(self.not_checked),
                "warnings": [w.to_json() for w in self.warnings],
                "resolution_warning": self.resolution_warning}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def validate(config: Any, overrides: Iterable[str | Override] = (), *,
             host: PluginHost | None = None) -> Validation:
    """Check ``config`` (a path or a loaded config) as far as possible without scoring;
    errors are the run's own (:class:`~evalfw.errors.EvalfwError` with where and what to do)."""
    from evalfw.runner import _analyse as significance
    from evalfw.runner._checks import build_checks
    from evalfw.runner._evaluate import (
        Evaluation,
        _read_test_set,
        build_metrics,
        check_penalisable,
    )
    from evalfw.runner.run import load, report_files

    cfg, host = load(config, overrides, host)
    checked = ["YAML syntax, the schema, plugins, components and their options, requires"]
    plans = [(ts, build_metrics(cfg, host, ts)) for ts in cfg.test_sets]
    checked.append(f"every metric built for every test set ({_plural(len(cfg.metrics), 'metric')}"
                   f" x {_plural(len(cfg.test_sets), 'test set')})")
    checks = build_checks(cfg, host)
    if cfg.on_flag == "penalise":
        check_penalisable(cfg, plans)
    checked.append(f"output checks: {', '.join(c.name for c in checks) or 'none'} "
                   f"(on_flag: {cfg.on_flag})")
    report_files(host, cfg)
    plan = significance.prepare(cfg, host)
    power = significance.planned_warning(plan, cfg) if plan is not None else None
    if plan is not None:
        s = plan.settings
        checked.append(f"significance: baseline '{s.baseline}' is a system of every test set; "
                       f"analysed metrics: {', '.join(plan.metrics)}"
                       + (f"; bucketer {plan.bucketer.name}" if plan.bucketer else ""))
    from evalfw.runner.meta import prepare as meta_prepare

    meta = meta_prepare(cfg)
    if meta is not None:
        checked.append(f"meta_evaluation: metrics {', '.join(meta['metrics'])} against "
                       f"judgements '{meta['human']}' ({', '.join(meta['levels'])} level)")
    # the output place: inside output_dir, not through a link (raises when it is not)
    experiment_dir(cfg.output_dir, cfg.experiment)
    segments, warnings = {}, []
    for ts in cfg.test_sets:
        ev = Evaluation()
        inputs = _read_test_set(ts, ev)  # read and aligned as the run reads them
        warnings += ev.warnings
        segments[ts.name] = len(inputs.references[0].lines)
        parts = [*(["source"] if inputs.source else []),
                 _plural(len(inputs.references), "reference"),
                 _plural(len(inputs.systems), "system")]
        if ts.segment_scores:
            parts.append(_plural(len(ts.segment_scores) * len(ts.systems), "score file"))
        what = f"segments of {ts.mqm.file.name}" if ts.mqm is not None else "lines in each file"
        checked.append(f"test set '{ts.name}': {segments[ts.name]} {what} "
                       f"({', '.join(parts)}), UTF-8 text")
        for j in ev.judgements:
            judged = sum(s.get("judged", 1) for s in j["systems"])
            checked.append(f"test set '{ts.name}': judgements '{j['name']}' ({j['format']}) of "
                           f"{_plural(len(j['systems']), 'system')}"
                           + (f", {judged} judged segments" if j["format"] != "systems" else ""))
    not_checked = ["no segment is scored: a metric or model failing on these texts shows "
                   "only in `evalfw run`",
                   f"whether {cfg.output_dir} is writable (nothing is written)"]
    if cfg.executor is not None:
        not_checked.append(f"the executor '{cfg.executor.name}' is not started")
    publishing = [c.name for c in cfg.reports if not host.component(
        "reporter", c.name, c.options).writes_file]
    if publishing:
        not_checked.append(f"reporters that publish ({', '.join(publishing)}) are not "
                           "contacted")
    return Validation(cfg, tuple(checked), tuple(not_checked), segments, tuple(warnings), power)


__all__ = ["validate", "Validation"]
