"""Model-based metrics (:class:`evalfw.ModelMetric`) through the example package
``plugins/evalfw-embed-sim``, installed as a distribution: batched predictions, the device
option, the segment-score cache (a re-run and ``evalfw verify`` do not run the model again),
and everything evalfw does with a metric."""

from __future__ import annotations

import importlib.metadata
import json
import re
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from evalfw.cli.main import main
from evalfw.errors import EvalfwError, InputError, PluginError
from evalfw.metrics.base import SegmentContext
from evalfw.metrics.model import ModelInput, ModelMetric

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "plugins" / "evalfw-embed-sim"
SAMPLE = REPO / "configs" / "sample" / "en-de"


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """The package as ``pip install`` leaves it: its metadata and entry point on sys.path;
    the cache and the current directory in tmp_path."""
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text("utf-8"))["project"]
    info = tmp_path / "site" / f"evalfw_embed_sim-{project['version']}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n", "utf-8")
    (info / "entry_points.txt").write_text(
        "[evalfw]\n" + "".join(f"{k} = {v}\n" for k, v in
                               project["entry-points"]["evalfw"].items()), "utf-8")
    monkeypatch.syspath_prepend(str(PACKAGE / "src"))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    assert importlib.metadata.version("evalfw-embed-sim") == project["version"]
    import evalfw_embed_sim

    calls: list[int] = []
    predict = evalfw_embed_sim.EmbedSim.predict

    def counted(self, model, batch):  # type: ignore[no-untyped-def]
        calls.append(len(batch))
        return predict(self, model, batch)

    monkeypatch.setattr(evalfw_embed_sim.EmbedSim, "predict", counted)
    ModelMetric._models.clear()
    yield calls
    ModelMetric._models.clear()
    sys.modules.pop("evalfw_embed_sim", None)


CONFIG = """\
schema_version: 1
experiment: sim
seed: 2
output_dir: runs
requires: ["evalfw-embed-sim>=0.1"]
test_sets:
  - name: en-de
    langs: en-de
    source: {sample}/src.txt
    references: [{sample}/ref.A.txt, {sample}/ref.B.txt]
    systems: {{"*": "{sample}/sys/*.txt"}}
metrics:
  - {{name: sim, metric: embed-sim, batch_size: 16, level: [corpus, sentence]}}
  - name: bleu
significance: {{baseline: Medium, samples: 200, buckets: ref-length}}
"""


def test_run_caches_model_scores_and_verify_does_not_recompute(installed, capsys) -> None:
    Path("exp.yaml").write_text(CONFIG.format(sample=SAMPLE), "utf-8")
    assert main(["run", "exp.yaml", "--quiet"]) == 0
    table = capsys.readouterr().out
    # 3 systems x 40 segments in batches of at most 16 (repeated lines are scored once)
    assert sum(installed) <= 120 and max(installed) == 16
    assert "model:evalfw-embed-sim/char3@0.1.0[dim=128]|embed-sim:1" in table
    first = list(installed)
    installed.clear()
    assert main(["verify", "sim", "--runs-dir", "runs", "--data-root", str(SAMPLE)]) == 0
    assert installed == []  # every segment score came from the cache
    assert main(["run", "exp.yaml", "--quiet", "--no-cache"]) == 0  # statistics recomputed,
    assert installed == []                                           # model scores cached
    record = json.loads(next(Path("runs/sim").glob("*/record.json")).read_text("utf-8"))
    sim = [r for r in record["results"] if r["metric"] == "sim" and r["level"] == "corpus"]
    assert all(-1 <= r["score"] <= 1 for r in sim) and len(sim) == 3
    assert first


def test_cli_and_independent_scores(installed, capsys) -> None:
    import evalfw_embed_sim as plugin

    ref, hyp = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Strong.txt")
    assert main(["score", "-r", ref, "-i", hyp, "-m", "embed-sim", "-f", "json"]) == 0
    (obj,) = json.loads(capsys.readouterr().out)
    model = plugin.TrigramModel(128)
    hyps = (SAMPLE / "sys" / "Strong.txt").read_text("utf-8").split("\n")[:-1]
    refs = (SAMPLE / "ref.A.txt").read_text("utf-8").split("\n")[:-1]
    want = [float(model.embed([r])[0] @ model.embed([h])[0]) for h, r in zip(hyps, refs)]
    assert obj["score"] == sum(want) / len(want)


class _Broken(ModelMetric):
    name = "broken-model"
    model_name = "test/broken"

    def load(self, device):  # type: ignore[no-untyped-def]
        if device != "cpu":
            raise RuntimeError("no such device")
        return None

    def predict(self, model, batch):  # type: ignore[no-untyped-def]
        return [float("nan") if "x" in item.hypothesis else 0.5 for item in batch][:-1] + \
            ([0.5] if batch else [])


def test_contract_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALFW_NO_CACHE", "1")
    ctx = SegmentContext("t", "s")
    ok = _Broken().segment_statistics(["a", "b"], [["a", "b"]], ctx)
    assert np.array_equal(ok, [[0.5, 1.0], [0.5, 1.0]])
    with pytest.raises(InputError, match="scored segment 1 nan; model scores must be finite"):
        _Broken().segment_statistics(["x", "b"], [["a", "b"]], ctx)
    with pytest.raises(PluginError, match="loading model test/broken@1 on cuda failed"):
        _Broken(device="cuda").segment_statistics(["a"], [["a"]], ctx)
    with pytest.raises(EvalfwError, match="batch_size"):
        _Broken(batch_size=0)
    assert ModelInput("s", "h", ("r",)).references == ("r",)


def test_paired_bootstrap_prints_cosines_on_their_own_scale(installed, capsys) -> None:
    """embed-sim declares a 0-1 scale: its scores, means and intervals get four decimals,
    not sacreBLEU's one (which printed "0.7 (0.7 ± 0.0)" for every system)."""
    assert main(["score", "-r", str(SAMPLE / "ref.A.txt"), "-i", str(SAMPLE / "sys/Medium.txt"),
                 str(SAMPLE / "sys/Strong.txt"), "-m", "embed-sim", "--paired-bs",
                 "-pbsn", "100"]) == 0
    out = capsys.readouterr().out
    cells = re.findall(r"(\d\.\d+) \((\d\.\d+) ± (\d\.\d+)\)", out)
    assert len(cells) == 2 and all(len(x.split(".")[1]) == 4 for c in cells for x in c)
    assert cells[0][0] != cells[1][0] and "± 0.0)" not in out


class _Lengths(ModelMetric):
    """Scores a segment by its hypothesis length; remembers every batch it was given."""

    name = "lengths-model"
    model_name = "test/lengths"
    batches: ClassVar[list[list[str]]] = []

    def load(self, device):  # type: ignore[no-untyped-def]
        return None

    def predict(self, model, batch):  # type: ignore[no-untyped-def]
        _Lengths.batches.append([x.hypothesis for x in batch])
        return [float(len(x.hypothesis)) for x in batch]


class _WholeLengths(_Lengths):
    name = "whole-lengths-model"
    own_batching = True


def test_distinct_inputs_once_in_batches_sorted_by_length(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVALFW_CACHE_DIR", str(tmp_path))
    hyps = ["ccc", "a", "bbbbb", "a", "dd", "ccc", "eeee"]
    refs = [["r"] * len(hyps)]
    _Lengths.batches.clear()
    stats = _Lengths(batch_size=2).segment_statistics(hyps, refs, SegmentContext("t", "s"))
    assert stats[:, 0].tolist() == [float(len(h)) for h in hyps]
    assert _Lengths.batches == [["a", "dd"], ["ccc", "eeee"], ["bbbbb"]]
    _Lengths.batches.clear()  # another system sharing lines: only its new line is predicted
    _Lengths(batch_size=2).segment_statistics(["dd", "ffffff"], [["r", "r"]],
                                              SegmentContext("t", "s2"))
    assert _Lengths.batches == [["ffffff"]]
    _Lengths.batches.clear()
    _WholeLengths(batch_size=2, cache=False).segment_statistics(hyps, refs,
                                                                SegmentContext("t", "s"))
    assert _Lengths.batches == [["a", "dd", "ccc", "eeee", "bbbbb"]]


def test_resources_follow_the_device_or_the_option() -> None:
    """A model on a GPU asks Dask for workers with a GPU; the option names other resources."""
    from evalfw.runner._jobs import resources_of

    assert resources_of(_Lengths()) == {}
    assert resources_of(_Lengths(device="cuda:1")) == {"GPU": 1.0}
    assert resources_of(_Lengths(device="cuda", resources={})) == {}
    assert resources_of(_Lengths(resources={"MEM": 2, "GPU": 1})) == {"GPU": 1.0, "MEM": 2.0}
    # where the model runs never changes its scores, so it is not part of what is recorded
    assert "resources" not in _Lengths(resources={"GPU": 1}).output_options()


def test_an_edited_score_cache_row_is_scored_again_with_one_warning(installed, capsys) -> None:
    """``update scores set score=-5`` on the cache: the rows fail their digest, the model
    scores them again, one warning says so, and -5 (outside [-1, 1]) is never served; verify
    reads the cache the same way."""
    import sqlite3

    ref, hyp = str(SAMPLE / "ref.A.txt"), str(SAMPLE / "sys" / "Strong.txt")
    assert main(["score", "-r", ref, "-i", hyp, "-m", "embed-sim", "-b"]) == 0
    honest = capsys.readouterr().out
    scored = sum(installed)
    db = sqlite3.connect(Path("cache") / "segment-scores.sqlite")
    (table,) = [name for (name,) in db.execute("SELECT name FROM sqlite_master "
                                                "WHERE type = 'table'")]
    with db:
        db.execute(f"UPDATE {table} SET score = -5")
    db.close()
    installed.clear()
    assert main(["score", "-r", ref, "-i", hyp, "-m", "embed-sim", "-b"]) == 0
    out, err = capsys.readouterr()
    assert out == honest and sum(installed) == scored
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("evalfw: warning: segment-score cache")
    assert "scored again" in lines[0]
    installed.clear()
    assert main(["score", "-r", ref, "-i", hyp, "-m", "embed-sim", "-b"]) == 0  # rewritten
    assert capsys.readouterr() == (honest, "") and installed == []


def test_a_cache_row_outside_the_declared_range_is_never_served(tmp_path) -> None:
    from evalfw.metrics._score_cache import ScoreCache

    cache = ScoreCache(tmp_path / "s.sqlite")
    cache.put([("a", 0.5), ("b", -5.0)])
    with pytest.warns(UserWarning, match="1 row"):
        assert cache.get(["a", "b"], (-1.0, 1.0)) == {"a": 0.5}
    assert cache.get(["a", "b"]) == {"a": 0.5, "b": -5.0}
