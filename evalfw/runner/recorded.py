"""A recorded metric as the installed plugins define it: a record names its metrics, and
evalfw rebuilds each one (:meth:`~evalfw.metrics.base.Metric.from_definition`, through the
plugin boundary) to judge the record's numbers. The record never decides how a number is
judged: its direction, scale and definition are the rebuilt metric's, and a record that says
otherwise is refused (``compare``) or shown as the installed metric judges it (``show``).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from evalfw.errors import ConfigError, EvalfwError, RecordError

if TYPE_CHECKING:
    from evalfw.host.host import PluginHost
    from evalfw.metrics.base import Metric
    from evalfw.records.load import StoredRun


def metric_from_record(host: PluginHost, definition: Mapping[str, Any], where: str) -> Metric:
    """Rebuild a recorded metric; refuse when what is installed defines it differently (a
    component or metric version, or an option default, changed)."""
    try:
        host.registry("metric").get(definition["name"])
    except EvalfwError as exc:
        raise EvalfwError(f"{where}: the run used metric '{definition['name']}', which is not "
                          f"installed: {exc}") from None
    try:
        metric = host.metric(definition["name"], definition=definition)
    except ConfigError as exc:
        raise type(exc)(f"{where}: the recorded definition does not build the installed "
                        f"metric: {exc}") from None
    now = metric.definition()
    if now != dict(definition):
        changed = describe_changes(definition, now)
        raise EvalfwError(f"{where}: defined differently now than in the run ({changed}); "
                          "install the versions the run used to re-score its statistics")
    return metric


def describe_changes(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """``key: old -> new`` for every top-level or option difference of two definitions."""
    out = []
    for key in sorted(set(old) | set(new)):
        if key == "options":
            continue
        if old.get(key) != new.get(key):
            out.append(f"{key} {old.get(key)} -> {new.get(key)}")
    old_opts, new_opts = old.get("options", {}), new.get("options", {})
    for key in [*old_opts, *(k for k in new_opts if k not in old_opts)]:
        if old_opts.get(key) != new_opts.get(key):
            out.append(f"{key} {_describe(old_opts.get(key))} -> {_describe(new_opts.get(key))}")
    return ", ".join(out) or "no difference"


def _describe(value: Any) -> str:
    if isinstance(value, Mapping) and "name" in value:
        opts = ",".join(f"{k}={v}" for k, v in sorted(value.items())
                        if k not in ("name", "version"))
        return f"{value['name']}@{value.get('version')}" + (f"[{opts}]" if opts else "")
    return repr(value)


def recorded_metric(host: PluginHost, run: StoredRun, test_set: str, label: str) -> Metric:
    """Metric ``label`` of ``run`` on ``test_set``, rebuilt from the installed plugins. The
    record only names it: its direction, scale and definition are the rebuilt metric's, and
    any field of the record that says otherwise (a definition missing, edited or taken from
    another metric, a direction flipped) is refused."""
    where = f"{run.path}: metric '{label}' on test set '{test_set}'"
    specs = [s for s in run.record["specs"] if (s["test_set"], s["metric"]) == (test_set, label)]
    entries = [m for m in run.record["metrics"] if m["name"] == label]
    if len(specs) != 1 or len(entries) != 1:
        raise RecordError(f"{where}: the record holds {len(specs)} definition(s) and "
                          f"{len(entries)} metric entr{'y' if len(entries) == 1 else 'ies'} of "
                          "it, not one each; the record was edited or damaged")
    definition, entry = specs[0]["definition"], entries[0]
    if not isinstance(definition, Mapping) or not isinstance(definition.get("name"), str):
        raise RecordError(f"{where}: its recorded definition is not a metric definition; the "
                          "record was edited or damaged")
    metric = metric_from_record(host, definition, where)
    problems = [f"{key} {entry.get(key)!r} -> {now!r}" for key, now in (
        ("metric", metric.name), ("higher_is_better", bool(metric.higher_is_better)))
        if entry.get(key) != now or type(entry.get(key)) is not type(now)]
    if metric.score_scale is not None and "score_scale" in entry \
            and entry["score_scale"] != metric.score_scale:
        problems.append(f"score_scale {entry.get('score_scale')!r} -> {metric.score_scale!r}")
    if problems:
        raise RecordError(f"{where}: the record says otherwise than the metric it defines "
                          f"({', '.join(problems)}); the record was edited or damaged; "
                          "`evalfw verify` names every difference")
    return metric




def rescored(stored: StoredRun, host: PluginHost) -> str | None:
    """Why the record's scores are not what its stored statistics give under the installed
    metrics (the first corpus-level score that differs, and how many do), or None: the check
    ``compare`` makes before testing, so ``show`` and ``runs`` reach the same verdict on an
    edited record. Metrics that cannot be rebuilt here are skipped (``verify`` says why); a
    segments file that cannot be read is :func:`~evalfw.records.load.files_problem`'s to
    report."""
    from evalfw.names import shown

    try:
        arrays = stored.segments()
    except EvalfwError:
        return None
    metrics: dict[tuple[str, str], Metric | None] = {}
    moved = []
    for row in stored.record["results"]:
        if row["level"] != "corpus":
            continue
        key = (row["test_set"], row["metric"])
        if key not in metrics:
            spec = next((s for s in stored.record["specs"]
                         if (s["test_set"], s["metric"]) == key), None)
            try:
                metrics[key] = metric_from_record(host, spec["definition"], "") if spec \
                    else None
            except EvalfwError:
                metrics[key] = None
        metric = metrics[key]
        if metric is None:
            continue
        try:
            with warnings.catch_warnings():  # NLTK-style zero-count warnings
                warnings.simplefilter("ignore", UserWarning)
                score = metric.score(stored.statistics(arrays, row["segments"], metric))
        except (EvalfwError, KeyError, ValueError, TypeError):
            score = None
        if score != row["score"]:
            moved.append((row, score))
    if not moved:
        return None
    row, score = moved[0]
    where = "/".join(shown(row[k]) for k in ("test_set", "system", "metric"))
    more = f" (and {len(moved) - 1} more)" if len(moved) > 1 else ""
    return (f"the recorded score of {where} ({row['score']!r}) is not what its stored "
            f"statistics give ({score!r}){more}: the record was edited or damaged; "
            "`evalfw verify` names every difference and `evalfw compare` refuses it")


def judged(record: Mapping[str, Any], host: PluginHost) -> tuple[dict[str, Any], list[str]]:
    """``record`` with each metric's direction as the installed metric has it, and a note
    for every metric entry that said otherwise (metrics that cannot be rebuilt here, not
    installed or defined differently, keep the record's: ``verify`` says why)."""
    out = dict(record)
    notes = []
    entries = []
    for entry in record["metrics"]:
        spec = next((s for s in record["specs"] if s["metric"] == entry["name"]), None)
        try:
            metric = metric_from_record(host, spec["definition"], "") if spec else None
        except EvalfwError:
            metric = None
        if metric is not None and entry.get("higher_is_better") != metric.higher_is_better:
            notes.append(f"metric '{entry['name']}': the record says higher_is_better "
                         f"{entry.get('higher_is_better')!r}, the installed metric "
                         f"{metric.higher_is_better!r}; shown as the installed metric judges "
                         "it (`evalfw verify` names every difference)")
            entry = {**entry, "higher_is_better": metric.higher_is_better}
        entries.append(entry)
    out["metrics"] = entries
    return out, notes


__all__ = ["describe_changes", "judged", "metric_from_record", "recorded_metric", "rescored"]
