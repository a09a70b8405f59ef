"""Score scales: declared by a metric or inferred from its scores (a model metric has no
silent default of 100), one scale per metric across systems, and decimals that keep two
systems 1% of the scale apart in every output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from evalfw.cli.main import main
from evalfw.metrics.model import ModelMetric
from evalfw.metrics.scales import infer_scale, places
from evalfw.metrics.segment_scores import SegmentScores

#: a 0-1 model metric that declares no scale; system A scores 0.5996, B 0.6059 on average
PLUGIN = '''\
import evalfw

class Fixed(evalfw.ModelMetric):
    name = "fixed-model"
    description = "a model that scores a hypothesis by its first word"
    model_name = "test/fixed"

    def load(self, device):
        return {"a": [0.5990, 0.6002], "b": [0.6050, 0.6068]}

    def predict(self, model, batch):
        out = []
        for x in batch:
            word, k = x.hypothesis.split()[:2]
            out.append(model[word][int(k) % 2])
        return out


@evalfw.hookimpl
def evalfw_register_metrics():
    return [Fixed]
'''

CONFIG = """\
schema_version: 1
experiment: scales
seed: 3
output_dir: runs
plugin_dirs: [plugins]
test_sets:
  - name: t
    langs: en-de
    references: [ref.txt]
    systems: {A: a.txt, B: b.txt}
metrics:
  - {name: model, metric: fixed-model}
significance: {baseline: A, samples: 50}
reports: [table, markdown, latex, html, json, csv]
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "fixed_model.py").write_text(PLUGIN, "utf-8")
    n = 10
    (tmp_path / "ref.txt").write_text("".join(f"r {k}\n" for k in range(n)), "utf-8")
    (tmp_path / "a.txt").write_text("".join(f"a {k}\n" for k in range(n)), "utf-8")
    (tmp_path / "b.txt").write_text("".join(f"b {k}\n" for k in range(n)), "utf-8")
    (tmp_path / "scales.yaml").write_text(CONFIG, "utf-8")
    ModelMetric._models.clear()
    yield tmp_path
    ModelMetric._models.clear()


def test_model_metrics_have_no_silent_scale():
    assert ModelMetric.score_scale is None
    assert SegmentScores().score_scale is None
    assert SegmentScores(scale=100).score_scale == 100.0


def test_infer_scale():
    assert infer_scale([0.5996, 0.6059, -0.3]) == 1.0
    assert infer_scale([]) == 1.0
    assert infer_scale([37.2, 99.9]) == 100.0
    assert infer_scale([150.0] * 20) == 1000.0
    # a few COMET segments above 1 keep a 0-1 metric on 0-1
    assert infer_scale([0.8] * 95 + [1.07] * 4) == 1.0


@pytest.mark.parametrize("scale", [1, 100, 1000, 25, 0.1])
def test_one_percent_of_the_scale_never_prints_alike(scale):
    rng = np.random.default_rng(int(scale * 10))
    digits = places(scale)
    for x in rng.uniform(-scale, scale, 2000).tolist():
        y = x + scale / 100
        assert f"{x:.{digits}f}" != f"{y:.{digits}f}", (x, y, digits)


def numbers(text: str) -> set[str]:
    return set(re.findall(r"0\.\d+", text))


def test_evalfw_score_prints_a_0_1_model_metric_apart(project, capsys):
    args = ["score", "-r", "ref.txt", "-i", "a.txt", "b.txt", "-m", "fixed-model",
            "--plugins-dir", "plugins"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "0.5996" in out and "0.6059" in out
    assert main([*args, "--paired-bs", "-pbsn", "50"]) == 0
    out = capsys.readouterr().out
    assert "0.5996 (" in out and "0.6059 (" in out and "0.0" not in numbers(out)
    assert main([*args, "-f", "json"]) == 0
    assert {o["score_scale"] for o in json.loads(capsys.readouterr().out)} == {1.0}


def test_every_run_output_prints_them_apart_and_names_the_range(project, capsys):
    assert main(["run", "scales.yaml"]) == 0
    captured = capsys.readouterr()
    assert "0.5996" in captured.out and "0.6059" in captured.out
    (version,) = Path("runs/scales").iterdir()
    record = json.loads((version / "record.json").read_text("utf-8"))
    (entry,) = record["metrics"]
    assert entry["score_scale"] == 1.0 and entry["score_scale_inferred"] is True
    assert entry["length_unit"] == "words"
    assert {r["score_scale"] for r in record["results"]} == {1.0}
    for name in ("table.txt", "markdown.md", "latex.tex", "html.html"):
        text = (version / f"report-{name}").read_text("utf-8")
        assert "0.5996" in text and "0.6059" in text, name
        assert "0.60 " not in text and "0.61 " not in text, name
    html = (version / "report-html.html").read_text("utf-8")
    assert "model score (0–1, higher is better)" in html and "0–100" not in html
    for fmt in ("table", "markdown", "latex", "html"):
        assert main(["show", "scales", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert "0.5996" in out and "0.6059" in out, fmt


def test_a_declared_scale_is_kept(project, capsys):
    text = (project / "plugins" / "fixed_model.py").read_text("utf-8")
    (project / "plugins" / "fixed_model.py").write_text(
        text.replace('model_name = "test/fixed"', 'model_name = "test/fixed"\n    score_scale = 1000'),
        "utf-8")
    assert main(["run", "scales.yaml", "--quiet"]) == 0
    (version,) = Path("runs/scales").iterdir()
    (entry,) = json.loads((version / "record.json").read_text("utf-8"))["metrics"]
    assert entry["score_scale"] == 1000 and "score_scale_inferred" not in entry
