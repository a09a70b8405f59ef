"""The ``mlflow`` reporter: each ``evalfw run`` becomes an MLflow run.

It logs every result's score as a metric (``<test set>/<metric>/<system>``;
``<test set>/<metric>.sentence/<system>`` for sentence-level means), the resolved config as parameters (flattened keys
such as ``metrics.0.preset``), evalfw's identifiers as tags, and the stored ``record.json``
and report files as artifacts, into the tracking store the user configures: the
``tracking_uri`` option, else ``$MLFLOW_TRACKING_URI``, else MLflow's own default. The MLflow
experiment is the evalfw experiment unless ``experiment`` says otherwise.

MLflow is an optional extra (``pip install 'evalfw[mlflow]'``); it is imported only when a run
is published: for a local file or SQLite store in this process, for any other store (a
tracking server) in a child process (:mod:`evalfw.reports._mlflow_publish`) that is stopped
after ``deadline`` seconds. Each request to a tracking server waits at most ``timeout`` seconds and
is not retried, so a store that refuses connections fails at once and a silent one after
``timeout``. A failure is one error naming the tracking URI; the run stays stored locally, and
an MLflow run created before the failure is marked FAILED (or the message says it may be left
RUNNING). ``evalfw show RUN --format mlflow`` prints what would be logged, sending nothing.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from evalfw.errors import PluginError
from evalfw.limits import MAX_WAIT_SECONDS
from evalfw.reports.base import Reporter

__all__ = ["is_local", "MlflowReporter", "metrics_of", "params_of"]

#: MLflow accepts these characters in metric and parameter keys
_UNSAFE = re.compile(r"[^A-Za-z0-9_\-. /]")
MAX_PARAM_VALUE = 6000
INSTALL = "pip install 'evalfw[mlflow]'"


def _key(*parts: str) -> str:
    return "/".join(_UNSAFE.sub("_", p) for p in parts)


def metrics_of(record: Mapping[str, Any]) -> dict[str, float]:
    """Metric key -> score of every result."""
    out = {}
    for r in record["results"]:
        # the level goes with the metric, not after the system: a file store keeps a key as a
        # path, and "m/S" next to "m/S/sentence" would need S to be a file and a directory
        metric = r["metric"] if r["level"] == "corpus" else f"{r['metric']}.{r['level']}"
        out[_key(r["test_set"], metric, r["system"])] = float(r["score"])
    return out


def _flat(value: Any, prefix: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, Mapping) and value:
        for k, v in value.items():
            yield from _flat(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(value, list) and value and any(isinstance(v, (dict, list)) for v in value):
        for i, v in enumerate(value):
            yield from _flat(v, f"{prefix}.{i}")
    else:
        yield _UNSAFE.sub("_", prefix), str(value)[:MAX_PARAM_VALUE]


def params_of(record: Mapping[str, Any]) -> dict[str, str]:
    """The resolved config, flattened to ``key.path -> text``, plus evalfw's identifiers."""
    params = dict(_flat(record["config"]["resolved"], ""))
    params["evalfw.version"] = str(record["evalfw_version"])
    return params


class MlflowReporter(Reporter):
    name = "mlflow"
    description = ("log each run to MLflow: scores as metrics, the resolved config as params, "
                   "record and reports as artifacts (needs " + INSTALL + ")")
    extension = "txt"
    writes_file = False
    options_schema = {
        "type": "object",
        "properties": {
            "tracking_uri": {"description": "where to log, e.g. sqlite:///mlflow.db or "
                             "file:./mlruns (default: $MLFLOW_TRACKING_URI, else MLflow's "
                             "default)", "type": ["string", "null"], "default": None},
            "experiment": {"description": "MLflow experiment name (default: the evalfw "
                           "experiment)", "type": ["string", "null"], "default": None},
            "artifacts": {"description": "also upload record.json and the report files",
                          "type": "boolean", "default": True},
            "timeout": {"description": "seconds one request to the tracking server may wait, "
                        "without retries (MLflow's own default: 120 s, 7 retries)",
                        "type": "integer", "minimum": 1, "maximum": MAX_WAIT_SECONDS,
                        "default": 5},
            "deadline": {"description": "seconds the whole MLflow step may take; then it is "
                         "stopped", "type": "number", "exclusiveMinimum": 0,
                         "maximum": MAX_WAIT_SECONDS, "default": 60},
        },
        "additionalProperties": False,
    }

    def render(self, record: Mapping[str, Any]) -> str:
        lines = [f"would log to MLflow experiment "
                 f"'{self.options['experiment'] or record['experiment']}':"]
        lines += [f"  metric {k} = {v!r}" for k, v in metrics_of(record).items()]
        lines += [f"  param {k} = {v}" for k, v in params_of(record).items()]
        return "\n".join(lines) + "\n"

    def publish(self, version_dir: Path, record: Mapping[str, Any]) -> str | None:
        if importlib.util.find_spec("mlflow") is None:
            raise PluginError(f"the mlflow reporter needs MLflow: {INSTALL}")
        from evalfw.reports._mlflow_publish import artifacts_of, publish

        name = self.options["experiment"] or record["experiment"]
        job = {
            "tracking_uri": self.options["tracking_uri"], "experiment": name,
            "run_name": f"{record['experiment']}/{record['version']}",
            "tags": {"evalfw.experiment": record["experiment"],
                     "evalfw.version": record["version"],
                     "evalfw.config_sha256": record["config"]["resolved_sha256"]},
            "metrics": list(metrics_of(record).items()),
            "params": list(params_of(record).items()),
            "artifacts": artifacts_of(version_dir) if self.options["artifacts"] else [],
        }
        uri = self.options["tracking_uri"] or os.environ.get("MLFLOW_TRACKING_URI")
        said: dict[str, Any] = {}
        late, crash = False, ""
        if uri is not None and is_local(uri):
            publish(job, said.update)  # nothing to wait for: no network
        else:
            said, late, crash = _run_child(job, self.options["timeout"],
                                           self.options["deadline"])
        if "ok" in said:
            return str(said["ok"])
        uri = uri or "MLflow's default"
        run_id = said.get("run_id")
        if late:
            why = f"no answer within the deadline of {self.options['deadline']} s"
            fate = f"MLflow run {run_id} may be left RUNNING" if run_id else \
                "no MLflow run was created"
        else:
            why = said.get("error") or crash or "the MLflow process ended without a word"
            fate = "no MLflow run was created" if not run_id else \
                f"MLflow run {run_id} is marked FAILED" if said.get("marked_failed") else \
                f"MLflow run {run_id} could not be marked FAILED"
        raise PluginError(f"the MLflow step failed: {why} (tracking URI {uri}); {fate}; check "
                          "the reporter's tracking_uri (or $MLFLOW_TRACKING_URI) and timeout")


def is_local(uri: str) -> bool:
    """Whether ``uri`` is a local file or SQLite store (written in-process: no network)."""
    scheme = uri.partition("://")[0].lower() if "://" in uri else ""
    return scheme in ("", "file", "sqlite")


def _run_child(job: dict[str, Any], timeout: int, deadline: float
               ) -> tuple[dict[str, Any], bool, str]:
    """Run :mod:`evalfw.reports._mlflow_publish` on ``job``: what it said (its JSON lines,
    merged), whether it was stopped at ``deadline``, and its last stderr line."""
    env = {**os.environ, "MLFLOW_HTTP_REQUEST_TIMEOUT": str(timeout)}
    # MLflow retries a refused connection 7 times with backoff (about 4 minutes) by default;
    # a retry count the user chose stays (the deadline still holds)
    env.setdefault("MLFLOW_HTTP_REQUEST_MAX_RETRIES", "0")
    home = str(Path(__file__).resolve().parents[2])  # the child imports this evalfw
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [home, env.get("PYTHONPATH")]))
    proc = subprocess.Popen([sys.executable, "-P", "-m", "evalfw.reports._mlflow_publish"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, text=True, encoding="utf-8")
    late = False
    try:
        try:
            out, err = proc.communicate(json.dumps(job), timeout=deadline)
        except subprocess.TimeoutExpired:
            late = True
            proc.kill()
            out, err = proc.communicate()
    finally:
        if proc.poll() is None:  # interrupted (Ctrl-C, SIGTERM): the child goes too
            proc.kill()
            proc.wait()
    said: dict[str, Any] = {}
    for line in out.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            said.update(obj)
    errors = [line for line in err.splitlines() if line.strip()]
    return said, late, errors[-1][:300] if errors else ""
