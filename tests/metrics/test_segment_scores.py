"""The ``segment-scores`` metric: precomputed per-segment scores (as a model such as COMET
writes them) get intervals, paired tests, Holm, buckets, exports, ``verify``, ``compare`` and
reports; bad score files are clear errors."""

from __future__ import annotations

import json
import math
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from evalfw.analysis.significance import paired_analysis
from evalfw.cli.main import main
from evalfw.errors import InputError
from evalfw.io.scores import read_scores
from evalfw.records.load import open_run

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "configs" / "sample" / "en-de"
SYSTEMS = ("Medium", "Strong", "Weak")

CONFIG = """\
schema_version: 1
experiment: model
seed: 5
output_dir: runs
test_sets:
  - name: en-de
    langs: en-de
    source: data/src.txt
    references: [data/ref.A.txt]
    systems: {{"*": "data/sys/*.txt"}}
    segment_scores:
      comet: {{files: {{"*": "scores/*.txt"}}}}
      metricx: {{files: {{"*": "scores/*.jsonl"}}, column: {column}}}
metrics:
  - {{name: comet, metric: segment-scores, scores: comet, level: [corpus, sentence]}}
  - {{name: metricx, metric: segment-scores, scores: metricx, higher_is_better: false,
     scale: 25}}
  - name: bleu
reports: [table, html]
significance:
  baseline: Medium
  method: both
  samples: 300
  ar_trials: 300
  correction: holm
  buckets: ref-length
  sentence_export: [csv]
"""


def comet_like(rng: random.Random, quality: float) -> list[float]:
    return [min(1.0, max(0.0, rng.gauss(quality, 0.1))) for _ in range(40)]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, list[float]]:
    shutil.copytree(SAMPLE, tmp_path / "data")
    (tmp_path / "scores").mkdir()
    rng = random.Random(3)
    comet = {"Medium": comet_like(rng, 0.6), "Strong": comet_like(rng, 0.8),
             "Weak": comet_like(rng, 0.4)}
    for name, values in comet.items():
        (tmp_path / "scores" / f"{name}.txt").write_text(
            "".join(f"{v!r}\n" for v in values), "utf-8")
        (tmp_path / "scores" / f"{name}.jsonl").write_text(
            "".join(json.dumps({"seg": i, "err": 25 * (1 - v)}) + "\n"
                    for i, v in enumerate(values)), "utf-8")
    (tmp_path / "exp.yaml").write_text(CONFIG.format(column="err"), "utf-8")
    monkeypatch.chdir(tmp_path)
    return comet


def test_run_with_significance_buckets_verify_and_compare(project, capsys) -> None:
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    table = capsys.readouterr().out
    stored = open_run("model", Path("runs"))
    record = stored.record
    score = {(r["system"], r["metric"], r["level"]): r["score"] for r in record["results"]}
    for name, values in project.items():
        assert score[(name, "comet", "corpus")] == sum(values) / len(values)  # COMET's mean
        assert score[(name, "comet", "sentence")] == math.fsum(values) / len(values)
    scores_inputs = [i for i in record["inputs"] if i["role"] == "scores"]
    assert len(scores_inputs) == 6 and all(len(i["sha256"]) == 64 for i in scores_inputs)
    tables = {t["metric"]: t for t in record["significance"]["tables"]}
    # the analysis API on the stored statistics gives the recorded p-values
    arrays = stored.segments()
    stats = {r["system"]: arrays[r["segments"]] for r in record["results"]
             if (r["metric"], r["level"]) == ("comet", "corpus")}
    from evalfw.host.host import PluginHost

    metric = PluginHost.create(autoload=False).registry("metric").get("segment-scores").create(
        {"scores": "comet"})
    bs = paired_analysis(stats, "Medium", metric, "bootstrap", 300, 5)
    assert [c["p_value"] for c in tables["comet"]["comparisons"]
            if c["method"] == "bootstrap"] == [c.p_value for c in bs.comparisons]
    assert tables["comet"]["buckets"]["results"]  # word lengths of the texts
    # metricx is an error: Strong has the lowest, and is marked better
    strong = next(line for line in table.splitlines() if line.startswith("Strong"))
    assert strong.count("†") == 3 and "/" not in strong  # method: both, the primary's marks
    assert main(["verify", "model", "--runs-dir", "runs"]) == 0
    capsys.readouterr()
    # a changed score file: verify names it and the moved score
    (Path("scores") / "Weak.txt").write_text("".join(f"{v / 2!r}\n" for v in project["Weak"]),
                                             "utf-8")
    assert main(["verify", "model", "--runs-dir", "runs"]) == 1
    out = capsys.readouterr().out
    assert "input scores scores/Weak.txt of test set 'en-de' changed" in out
    assert "en-de / Weak / comet (corpus): score" in out
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    assert main(["compare", str(stored.path), "model", "--runs-dir", "runs", "--metric",
                 "comet"]) == 1
    assert "regression" in capsys.readouterr().out


@pytest.mark.parametrize("content, column, words", [
    ("0.5\nnan\n", None, ":2: the score 'nan' is not a finite number"),
    ("0.5\ninf\n", None, "is not a finite number"),
    ("0.5\nabc\n", None, ":2: expected a number, got 'abc'"),
    ("0.5\n", None, "1 scores but the test set has 2 segments"),
    ("0.5\n0.6\n0.7\n", None, "3 scores but the test set has 2 segments"),
    ("0.5\n0.6\n", "score", "a column ('score') is given but the file holds one number per line"),
])
def test_bad_score_files(tmp_path: Path, content: str, column: str | None, words: str) -> None:
    path = tmp_path / "s.txt"
    path.write_text(content, "utf-8")
    with pytest.raises(InputError) as info:
        read_scores(path, column, segments=2)
    assert words in str(info.value)


def test_tsv_and_jsonl_layouts(tmp_path: Path) -> None:
    (tmp_path / "s.tsv").write_text("id\tscore\n1\t0.25\n2\t-1.5\n", "utf-8")
    assert read_scores(tmp_path / "s.tsv", "score", segments=2).scores.tolist() == [0.25, -1.5]
    with pytest.raises(InputError, match="no column 'comet' in the header; its columns are: "
                                         "id, score"):
        read_scores(tmp_path / "s.tsv", "comet")
    with pytest.raises(InputError, match="needs the column to read"):
        read_scores(tmp_path / "s.tsv")
    (tmp_path / "s.jsonl").write_text('{"x": 1}\n{"x": 2.5}\n', "utf-8")
    assert read_scores(tmp_path / "s.jsonl", "x").scores.tolist() == [1.0, 2.5]
    (tmp_path / "bad.jsonl").write_text('{"x": 1}\n{"y": 2}\n', "utf-8")
    with pytest.raises(InputError, match=r"bad.jsonl:2: no key 'x'"):
        read_scores(tmp_path / "bad.jsonl", "x")


def test_config_errors_name_the_place(project, capsys) -> None:
    Path("scores/Weak.txt").unlink()
    assert main(["validate", "exp.yaml"]) == 2
    err = capsys.readouterr().err
    assert "exp.yaml:" in err and "segment_scores.comet.files" in err
    assert "missing: Weak" in err


def test_command_line(project, capsys) -> None:
    refs, sys_a, sys_b = "data/ref.A.txt", "data/sys/Medium.txt", "data/sys/Strong.txt"
    assert main(["score", "-r", refs, "-i", sys_a, sys_b, "-m", "segment-scores", "--scores",
                 "scores/Medium.txt", "scores/Strong.txt", "-f", "json"]) == 0
    objs = json.loads(capsys.readouterr().out)
    assert [o["score"] for o in objs] == [sum(project[s]) / 40 for s in ("Medium", "Strong")]
    assert main(["score", "-r", refs, "-i", sys_a, "-m", "segment-scores", "--scores",
                 "scores/Medium.jsonl", "--scores-column", "err", "-b"]) == 0
    want = sum(25 * (1 - v) for v in project["Medium"]) / 40
    # no scale given: scores up to 25 are on an inferred 0-100 scale, printed as sacreBLEU
    # prints 0-100 scores
    assert capsys.readouterr().out.strip() == f"{want:.1f}"
    assert main(["score", "-r", refs, "-i", sys_a, sys_b, "-m", "segment-scores",
                 "--scores", "scores/Medium.txt"]) == 2
    assert "one score file per -i system" in capsys.readouterr().err
    assert main(["score", "-r", refs, "-i", sys_a, "-m", "segment-scores"]) == 2
    err = capsys.readouterr().err
    assert "-m segment-scores reads precomputed scores" in err and "--scores FILE" in err
    assert "test set ''" not in err and "segment_scores" not in err  # no config advice
    assert main(["score", "-r", refs, "-i", sys_a, "--scores", "scores/Medium.txt"]) == 2
    assert "--scores is read by -m segment-scores only" in capsys.readouterr().err


def test_statistics_are_checked() -> None:
    from evalfw.metrics.segment_scores import SegmentScores

    metric = SegmentScores()
    good = np.array([[0.5, 1.0], [0.25, 1.0]])
    assert metric.check_statistics(good) is None
    assert metric.check_statistics(np.array([[0.5, 2.0]])) is not None
    assert metric.check_statistics(np.array([[np.nan, 1.0]])) is not None
    assert metric.score(good) == 0.375 and metric.sentence_scores(good).tolist() == [0.5, 0.25]
