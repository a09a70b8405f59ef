"""The ``mlflow`` reporter: each ``evalfw run`` becomes an MLflow run.

It logs every result's score as a metric (``<test set>/<metric>/<system>``;
``<test set>/<metric>.sentence/<system>`` for sentence-level means), the resolved config as parameters (flattened keys
such as ``metrics.0.preset``), evalfw's identifiers as tags, and the stored ``record.json``
and report files as artifacts, into the tracking store the user configures: the
``tracking_uri`` option, else ``$MLFLOW_TRACKING_URI``, else MLflow's own default. The MLflow
experiment is the evalfw experiment unless ``experiment`` says otherwise.

MLflow is an optional extra (``pip install 'evalfw[mlflow]'``); it is imported only when a run
is published. ``evalfw show RUN --format mlflow`` prints what would be logged, sending
nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from evalfw.errors import PluginError
from evalfw.reports.base import Reporter

__all__ = ["MlflowReporter", "metrics_of", "params_of"]

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
        try:
            from mlflow.exceptions import MlflowException
            from mlflow.tracking import MlflowClient
        except ImportError:
            raise PluginError(f"the mlflow reporter needs MLflow: {INSTALL}") from None
        try:
            client = MlflowClient(tracking_uri=self.options["tracking_uri"])
            name = self.options["experiment"] or record["experiment"]
            found = client.get_experiment_by_name(name)
            exp_id = found.experiment_id if found is not None else client.create_experiment(name)
            run = client.create_run(exp_id, run_name=f"{record['experiment']}/"
                                    f"{record['version']}", tags={
                                        "evalfw.experiment": record["experiment"],
                                        "evalfw.version": record["version"],
                                        "evalfw.config_sha256":
                                            record["config"]["resolved_sha256"]})
            run_id = run.info.run_id
            for key, value in metrics_of(record).items():
                client.log_metric(run_id, key, value)
            for key, value in params_of(record).items():
                client.log_param(run_id, key, value)
            if self.options["artifacts"]:
                for path in sorted(version_dir.iterdir()):
                    if path.name == "record.json" or path.name.startswith("report-"):
                        client.log_artifact(run_id, str(path))
            client.set_terminated(run_id)
        except MlflowException as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            uri = self.options["tracking_uri"] or os.environ.get("MLFLOW_TRACKING_URI") \
                or "MLflow's default"
            raise PluginError(f"MLflow refused: {first} (tracking URI {uri}; set the "
                              "reporter's tracking_uri or $MLFLOW_TRACKING_URI)") from None
        return f"logged to MLflow run {run_id} (experiment '{name}', {client.tracking_uri})"
