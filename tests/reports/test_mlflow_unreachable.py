"""The `mlflow` reporter against stores that fail, all on 127.0.0.1 and bounded in time: a port
that refuses connections, a server that accepts and never answers, a step stopped at its
deadline, and a store that fails after the MLflow run exists (marked FAILED). Each time the
run is stored locally and the command ends with one error line and status 2."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.records.load import open_run
from tests.support.mlflow import needs_mlflow
from tests.support.runs import REPO, write_config
from tests.support.servers import fake_server, free_port

pytestmark = needs_mlflow

CONFIG = """\
schema_version: 1
experiment: tracked
output_dir: {out}
test_sets:
  - name: en-de
    langs: en-de
    references: ["{root}/en-de/ref.A.txt"]
    systems: {{"*": "{root}/en-de/sys/*.txt"}}
metrics:
  - name: bleu
reports: [table, {{name: mlflow, tracking_uri: "{uri}", {options}}}]
"""


@pytest.fixture(autouse=True)
def _store_switch(monkeypatch):
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.delenv("MLFLOW_HTTP_REQUEST_MAX_RETRIES", raising=False)


def write(tmp_path: Path, uri: str, options: str) -> Path:
    return write_config(tmp_path / "tracked.yaml", CONFIG.format(
        out=tmp_path / "runs", root=REPO / "configs" / "sample", uri=uri, options=options))


def stored(tmp_path: Path) -> None:
    assert open_run("tracked", tmp_path / "runs").record["results"]  # the run is kept


def run_with(tmp_path: Path, uri: str, options: str) -> tuple[int, str, float]:
    """``evalfw run`` in a subprocess that may take 60 s at most (a hang fails the test):
    its status, stderr's last line and the seconds it took."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "evalfw", "run", str(write(tmp_path, uri,
                          options)), "--quiet"], capture_output=True, text=True, timeout=60)
    took = time.monotonic() - start
    assert "Traceback" not in done.stderr
    stored(tmp_path)
    return done.returncode, done.stderr.strip().splitlines()[-1], took


def test_a_refused_connection_fails_at_once(tmp_path) -> None:
    uri = f"http://127.0.0.1:{free_port()}"
    status, line, took = run_with(tmp_path, uri, "deadline: 30")
    assert status == 2 and took < 30  # MLflow's own retries took 248 s
    assert line.startswith("evalfw: error: the run is stored in ")
    assert "the MLflow step failed: " in line and f"(tracking URI {uri})" in line
    assert "the server refused the connection" in line and "no MLflow run was created" in line


def test_a_silent_server_fails_after_the_request_timeout(tmp_path) -> None:
    with fake_server("silent") as address:
        uri = address.replace("tcp://", "http://")
        status, line, took = run_with(tmp_path, uri, "timeout: 1, deadline: 30")
    assert status == 2 and took < 30
    assert "the MLflow step failed: the server did not answer within 1 s" in line
    assert "no MLflow run was created" in line


def test_the_whole_step_stops_at_its_deadline(tmp_path) -> None:
    with fake_server("silent") as address:
        uri = address.replace("tcp://", "http://")
        status, line, took = run_with(tmp_path, uri, "timeout: 600, deadline: 2")
    assert status == 2 and took < 20
    assert "no answer within the deadline of 2 s" in line


def test_a_run_that_fails_half_way_is_marked_failed(tmp_path, capsys, monkeypatch) -> None:
    from mlflow.tracking import MlflowClient

    from evalfw.reports import _mlflow_publish

    # an artifact that vanished: the MLflow run exists and has its metrics when upload fails
    monkeypatch.setattr(_mlflow_publish, "artifacts_of",
                        lambda version_dir: [str(version_dir / "gone.txt")])
    uri = (tmp_path / "mlruns").as_uri()  # a local store: written in this process
    assert main(["run", str(write(tmp_path, uri, "deadline: 60")), "--quiet"]) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    stored(tmp_path)
    assert "is marked FAILED" in line
    client = MlflowClient(tracking_uri=uri)
    (found,) = client.search_runs([client.get_experiment_by_name("tracked").experiment_id])
    assert found.info.status == "FAILED" and found.info.run_id in line
    assert found.data.metrics["en-de/bleu/Strong"] > 0
