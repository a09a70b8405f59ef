"""The `mlflow` reporter logs a run into a real local MLflow file store in tmp_path (no
server, no network): scores as metrics, the resolved config as params, the record and the
reports as artifacts; the store comes from the option or $MLFLOW_TRACKING_URI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalfw.cli.main import main
from evalfw.errors import PluginError
from tests.support.mlflow import needs_mlflow
from tests.support.runs import REPO, run, write_config

pytestmark = needs_mlflow

CONFIG = """\
schema_version: 1
experiment: tracked
data_root: {root}
output_dir: {out}
test_sets:
  - name: en-de
    langs: en-de
    references: ["{{data_root}}/en-de/ref.A.txt"]
    systems: {{"*": "{{data_root}}/en-de/sys/*.txt"}}
metrics:
  - name: bleu
  - name: eff
    effective_order: true
    level: [corpus, sentence]
reports: [table, markdown, {reporter}]
"""


@pytest.fixture(autouse=True)
def file_store(monkeypatch):
    # MLflow 3 keeps the file store behind this switch (its database store needs SQLAlchemy,
    # which the light mlflow-skinny package does not bring)
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)


def config(tmp_path, reporter: str) -> str:
    text = CONFIG.format(root=REPO / "configs" / "sample", out=tmp_path / "runs",
                         reporter=reporter)
    return str(write_config(tmp_path / "tracked.yaml", text))


def logged(uri: str):
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=uri)
    exp = client.get_experiment_by_name("tracked")
    (found,) = client.search_runs([exp.experiment_id])
    return client, found


def test_run_is_logged_with_metrics_params_and_artifacts(tmp_path):
    uri = (tmp_path / "mlruns").as_uri()
    outcome = run(config(tmp_path, f"{{name: mlflow, tracking_uri: '{uri}'}}"))
    client, found = logged(uri)
    for r in outcome.record["results"]:
        level = "" if r["level"] == "corpus" else ".sentence"
        key = f"en-de/{r['metric']}{level}/{r['system']}"
        assert found.data.metrics[key] == r["score"]
    assert found.data.params["metrics.1.effective_order"] == "True"
    assert found.data.params["experiment"] == "tracked"
    assert found.data.tags["evalfw.version"] == outcome.record["version"]
    names = {a.path for a in client.list_artifacts(found.info.run_id)}
    assert names == {"record.json", "report-table.txt", "report-markdown.md"}
    local = client.download_artifacts(found.info.run_id, "record.json", str(tmp_path))
    assert json.loads(Path(local).read_text("utf-8")) == json.loads(
        (outcome.path / "record.json").read_text())
    assert not (outcome.path / "report-mlflow.txt").exists()
    assert outcome.notes and found.info.run_id in outcome.notes[0]


def test_tracking_uri_from_the_environment(tmp_path, monkeypatch, capsys):
    uri = (tmp_path / "env-store").as_uri()
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    assert main(["run", config(tmp_path, "mlflow")]) == 0
    assert "logged to MLflow run" in capsys.readouterr().err
    _, found = logged(uri)
    assert found.data.metrics["en-de/bleu/Strong"] > 0


def test_a_refusing_store_is_one_error_after_the_run_is_stored(tmp_path, monkeypatch,
                                                              capsys):
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "false")
    uri = (tmp_path / "mlruns").as_uri()
    with pytest.raises(PluginError, match="the run is stored in .*the MLflow step failed"):
        run(config(tmp_path, f"{{name: mlflow, tracking_uri: '{uri}'}}"))
    assert main(["run", config(tmp_path, f"{{name: mlflow, tracking_uri: '{uri}'}}")]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("evalfw: error: the run is stored in ")
    assert "Traceback" not in err


def test_show_format_mlflow_sends_nothing(tmp_path, capsys):
    outcome = run(config(tmp_path, "table"))
    assert main(["show", str(outcome.path), "--format", "mlflow"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("would log to MLflow experiment 'tracked':")
    assert "metric en-de/bleu/Strong = " in out and not (tmp_path / "mlruns").exists()
