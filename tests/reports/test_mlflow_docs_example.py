"""The MLflow example of docs/reports.md works with what ``pip install 'evalfw[mlflow]'``
installs: its ``reports:`` line, a SQLite tracking store, run as written in a fresh
directory."""

from __future__ import annotations

import re
import shutil

from evalfw.cli.main import main
from tests.support.mlflow import needs_mlflow
from tests.support.runs import REPO

pytestmark = needs_mlflow

CONFIG = """\
schema_version: 1
experiment: tracked
test_sets:
  - name: en-de
    langs: en-de
    references: [data/ref.A.txt]
    systems: {{"*": "data/sys/*.txt"}}
metrics:
  - name: bleu
{reports}
"""


def docs_reports_line() -> str:
    section = (REPO / "docs" / "reports.md").read_text("utf-8").split("## MLflow", 1)[1]
    found = re.search(r"```yaml\n(reports: .*?)\n", section)
    assert found, "the MLflow section of docs/reports.md has no reports: line"
    return found.group(1)


def test_the_sqlite_example_logs_the_run(tmp_path, monkeypatch) -> None:
    line = docs_reports_line()
    assert 'tracking_uri: "sqlite:///mlflow.db"' in line
    shutil.copytree(REPO / "configs" / "sample" / "en-de", tmp_path / "data")
    (tmp_path / "exp.yaml").write_text(CONFIG.format(reports=line), "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    monkeypatch.delenv("MLFLOW_ALLOW_FILE_STORE", raising=False)
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=f"sqlite:///{tmp_path / 'mlflow.db'}")
    (found,) = client.search_runs([client.get_experiment_by_name("tracked").experiment_id])
    assert any(key.startswith("en-de/bleu/") for key in found.data.metrics)
