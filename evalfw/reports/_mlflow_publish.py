"""The MLflow calls of the ``mlflow`` reporter. For a tracking server (any store but a local
file or SQLite store) they run in a child process (``python -m
evalfw.reports._mlflow_publish``) that the reporter stops at its deadline; a local store is
written in-process.

Why a process: MLflow's client retries a refused connection for minutes and waits 120 s for a
silent server, with no way to interrupt it from outside; a process can be stopped. The
reporter sets MLflow's request timeout and retries in the child's environment, so a refused
or silent store usually ends the child by itself, well before the deadline.

Protocol: a JSON object on stdin (``tracking_uri``, ``experiment``, ``artifacts``,
``version_dir``, ``metrics``, ``params``, ``tags``, ``run_name``); JSON lines on stdout:
``{"run_id": ...}`` as soon as the MLflow run exists, then ``{"ok": note}`` or
``{"error": reason, "marked_failed": bool}``. Exit status 0 either way.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _say(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


#: what the requests/urllib3 failures inside an MlflowException's text mean, in plain words
_KNOWN = (("Connection refused", "the server refused the connection"),
          ("NewConnectionError", "no connection to the server"),
          ("Read timed out", "the server did not answer within {timeout} s"),
          ("ConnectTimeout", "no connection within {timeout} s"),
          ("Connection aborted", "the server closed the connection"),
          ("RemoteDisconnected", "the server closed the connection"))


def _reason(exc: BaseException) -> str:
    """One short line for ``exc`` (MLflow's own messages quote whole HTTP exceptions)."""
    text = str(exc).strip()
    for needle, meaning in _KNOWN:
        if needle in text:
            return meaning.format(timeout=os.environ.get("MLFLOW_HTTP_REQUEST_TIMEOUT", "?"))
    first = text.splitlines()[0] if text else ""
    if len(first) > 200:
        first = first[:200] + "..."
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def publish(job: dict[str, Any], say: Callable[[dict[str, Any]], None] = _say) -> None:
    """Create the MLflow run and log everything; on failure mark the run FAILED. What
    happens goes to ``say`` (by default as JSON lines on stdout)."""
    from mlflow.entities import Metric, Param
    from mlflow.tracking import MlflowClient

    run_id = None
    try:
        client = MlflowClient(tracking_uri=job["tracking_uri"])
        found = client.get_experiment_by_name(job["experiment"])
        exp_id = found.experiment_id if found is not None else \
            client.create_experiment(job["experiment"])
        run_id = client.create_run(exp_id, run_name=job["run_name"],
                                   tags=job["tags"]).info.run_id
        say({"run_id": run_id})
        now = int(time.time() * 1000)
        # one request per 1,000 metrics / 100 params (MLflow splits the batch), not one a value
        client.log_batch(run_id, metrics=[Metric(k, v, now, 0) for k, v in job["metrics"]],
                         params=[Param(k, v) for k, v in job["params"]])
        for path in job["artifacts"]:
            client.log_artifact(run_id, path)
        client.set_terminated(run_id)
    except Exception as exc:  # noqa: BLE001 (any failure of the store is reported alike)
        marked = False
        if run_id is not None:
            try:
                client.set_terminated(run_id, status="FAILED")
                marked = True
            except Exception:  # noqa: BLE001 (the store is gone: the parent says so)
                pass
        say({"error": _reason(exc), "marked_failed": marked})
        return
    say({"ok": f"logged to MLflow run {run_id} (experiment '{job['experiment']}', "
                f"{client.tracking_uri})"})


def artifacts_of(version_dir: Path) -> list[str]:
    """The files of a stored version that go to MLflow: the record and the reports."""
    return [str(p) for p in sorted(version_dir.iterdir())
            if p.name == "record.json" or p.name.startswith("report-")]


def main() -> None:
    publish(json.loads(sys.stdin.read()))


if __name__ == "__main__":
    main()
